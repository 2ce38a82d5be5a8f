/**
 * The offline provider's weekly tasks (docs/ARCHITECTURE.md §6): no network, no model, the same
 * output for the same input. Questions come from one template, answers from looking the asked key
 * up in the infobox, domains from the reviewed template mapping. Everything it makes is stored with
 * provider "offline", so nobody takes it for model output.
 */
import { domainOfArticle, type Domain } from './domains.js';
import { keyLabel } from './keyLabels.js';
import type { PromptRef, TaskResult } from './tasks.js';
import type { Usage } from '../model/llmUsage.js';
import { UsageMeter } from './usage.js';
import type { ArticleContext, WeeklyTasks } from './weeklyTasks.js';

const RULES: PromptRef = { name: 'offline-rules', version: '1' };

/**
 * The weekly tasks without a model: template questions, answers looked up in the infobox, domains from the template mapping.
 *
 * @example (await new OfflineWeeklyTasks().generateQuestion(article, { key: 'mayor', value: 'Kai Wegner' })).value // { question: 'What is the mayor of Berlin?' }
 */
export class OfflineWeeklyTasks implements WeeklyTasks {
  readonly provider = 'offline';
  readonly model = 'rules-v1';
  private readonly usage = new UsageMeter(this.provider, this.model);

  async generateQuestion(article: ArticleContext, target: { key: string; value: string }): Promise<TaskResult<{ question: string }>> {
    return { ok: true, value: { question: templateQuestion(article.title, target.key, article.keyLabels) }, prompt: RULES };
  }

  async answerQuestion(article: ArticleContext, question: string): Promise<TaskResult<{ answer: string }>> {
    // The key whose template question this is; failing that, the longest key label the question names
    // ("total population" over "population").
    const entries = Object.entries(article.infobox);
    const found =
      entries.find(([key]) => question === templateQuestion(article.title, key, article.keyLabels)) ??
      entries
        .filter(([key]) => question.includes(`the ${keyLabel(key, article.keyLabels)} of`))
        .sort(([a], [b]) => keyLabel(b, article.keyLabels).length - keyLabel(a, article.keyLabels).length)[0];
    if (found === undefined) return { ok: false, reason: 'no infobox key is named in the question', prompt: RULES };
    return { ok: true, value: { answer: found[1] }, prompt: RULES };
  }

  async classifyDomain(article: ArticleContext): Promise<TaskResult<{ domain: Domain }>> {
    return { ok: true, value: { domain: domainOfArticle(article) }, prompt: RULES };
  }

  takeUsage(): Usage {
    return this.usage.take();
  }
}

/**
 * The offline question for an infobox key, the key named by `keyLabel` (a property's label, a reviewed
 * name for a common key, else the key with underscores as spaces).
 *
 * @example templateQuestion('Berlin', 'population_total') === 'What is the total population of Berlin?'
 */
export function templateQuestion(title: string, key: string, labels?: Readonly<Record<string, string>>): string {
  return `What is the ${keyLabel(key, labels)} of ${title}?`;
}

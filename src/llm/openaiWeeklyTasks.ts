/**
 * The weekly tasks of a model behind an OpenAI-compatible server: each is one prompt template and
 * one reply schema that checks the reply's shape. A question rule given by the stage joins the
 * schema for that call, so a model that breaks it is told why and asked again.
 */
import { z } from 'zod';
import { labelledKey } from '../content/entityRefs.js';
import { DOMAINS, type Domain } from './domains.js';
import type { OpenAiClient } from './openaiClient.js';
import { runPrompt } from './runPrompt.js';
import type { TaskResult } from './tasks.js';
import type { Usage } from '../model/llmUsage.js';
import type { ArticleContext, QuestionRule, WeeklyTasks } from './weeklyTasks.js';

function questionReply(rule: QuestionRule | undefined) {
  const question = z.string().trim().min(5);
  const ruled = rule
    ? question.superRefine((text, context) => {
        const problem = rule(text);
        if (problem !== null) context.addIssue({ code: 'custom', message: problem });
      })
    : question;
  return z.object({ question: ruled.describe('the question, one sentence ending with "?"') });
}
const AnswerReply = z.object({ answer: z.string().trim().min(1).describe('the answer, as short as possible') });
const DomainReply = z.object({ domain: z.enum(DOMAINS) });

/**
 * The weekly tasks through a model behind an OpenAI-compatible server, one versioned prompt per task.
 *
 * @example const question = await new OpenAiWeeklyTasks(client).generateQuestion(article, { key: 'mayor', value: 'Kai Wegner' }, rule)
 */
export class OpenAiWeeklyTasks implements WeeklyTasks {
  readonly provider: string;
  readonly model: string;

  constructor(private readonly client: OpenAiClient) {
    this.provider = client.provider;
    this.model = client.model;
  }

  generateQuestion(article: ArticleContext, target: { key: string; value: string }, rule?: QuestionRule): Promise<TaskResult<{ question: string }>> {
    return runPrompt(this.client, 'question-generation', questionReply(rule), {
      title: article.title,
      url: article.url,
      template: article.template,
      first_paragraph: article.firstParagraph || '(none)',
      infobox: infoboxLines(article.infobox, article.keyLabels),
      key: labelledKey(target.key, article.keyLabels),
      value: target.value,
    });
  }

  answerQuestion(article: ArticleContext, question: string): Promise<TaskResult<{ answer: string }>> {
    return runPrompt(this.client, 'correctness-answer', AnswerReply, {
      title: article.title,
      first_paragraph: article.firstParagraph || '(none)',
      infobox: infoboxLines(article.infobox, article.keyLabels),
      question,
    });
  }

  classifyDomain(article: ArticleContext, question: string): Promise<TaskResult<{ domain: Domain }>> {
    return runPrompt(this.client, 'domain-classification', DomainReply, {
      domains: DOMAINS.map((domain) => `- ${domain}`).join('\n'),
      title: article.title,
      template: article.template,
      first_paragraph: article.firstParagraph || '(none)',
      question,
    });
  }

  takeUsage(): Usage {
    return this.client.usage.take();
  }
}

/** The infobox as the prompts show it: one `key: value` line per field, a property key with its label (`population (P1082)`). */
export function infoboxLines(infobox: Record<string, string>, keyLabels?: Readonly<Record<string, string>>): string {
  return Object.entries(infobox)
    .map(([key, value]) => `${labelledKey(key, keyLabels)}: ${value}`)
    .join('\n');
}

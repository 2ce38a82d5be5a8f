/**
 * The weekly pipeline's jobs for a language model (docs/ARCHITECTURE.md §6): a question for a data
 * unit, an answer from the article alone, a domain. Two providers: a model behind an
 * OpenAI-compatible server, and the offline rules. What makes a question good is the generate
 * stage's rule, not the provider's.
 */
import type { Domain } from './domains.js';
import type { TaskProvider, TaskResult } from './tasks.js';

/** What is known about the article a question is about: the data unit's page at its revision. */
export interface ArticleContext {
  title: string;
  url: string;
  /** The infobox's template label, e.g. "settlement". */
  template: string;
  infobox: Record<string, string>;
  /** Labels of keys that are Wikidata properties (`P1082` → `population`), absent for wikitext infoboxes. */
  keyLabels?: Record<string, string>;
  firstParagraph: string;
}

/** What is wrong with a question, or null when nothing is. */
export type QuestionRule = (question: string) => string | null;

/**
 * The weekly pipeline's LLM steps: write a question for an infobox change, check it is answerable
 * from the article, and classify its domain. `OfflineWeeklyTasks` and `OpenAiWeeklyTasks` implement it;
 * `SessionTasks.weekly()` picks one from the settings.
 *
 * @example
 * const tasks = new SessionTasks(db, settings).weekly();
 * const asked = await tasks.generateQuestion(article, { key: 'mayor', value: 'Kai Wegner' });
 * if (asked.ok) console.log(asked.value.question, asked.prompt.name);
 */
export interface WeeklyTasks extends TaskProvider {
  /**
   * A question whose answer is `value`, the infobox's value for `key`. A model whose question breaks
   * `rule` is told what is wrong and asked again, as for a malformed reply.
   */
  generateQuestion(article: ArticleContext, target: { key: string; value: string }, rule?: QuestionRule): Promise<TaskResult<{ question: string }>>;
  /** The answer to `question` from the article's title, first paragraph and infobox alone. */
  answerQuestion(article: ArticleContext, question: string): Promise<TaskResult<{ answer: string }>>;
  /** The article's domain (one of `DOMAINS`), for the release's per-domain figures. */
  classifyDomain(article: ArticleContext, question: string): Promise<TaskResult<{ domain: Domain }>>;
}

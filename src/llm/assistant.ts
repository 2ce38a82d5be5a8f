/**
 * The three jobs the weekly pipeline gives a language model, behind one interface with two
 * providers: a model behind an OpenAI-compatible server, and the offline rules. Every result names
 * the prompt (or rule set) that made it; the provider and model are the assistant's own, so each
 * stored item can say where it came from.
 */
import type { Domain } from './domains.js';
import type { Usage } from './usage.js';

/** What is known about the article a question is about: the data unit's page at its revision. */
export interface ArticleContext {
  title: string;
  url: string;
  /** The infobox's template label, e.g. "settlement". */
  template: string;
  infobox: Record<string, string>;
  firstParagraph: string;
}

export interface PromptRef {
  name: string;
  version: string;
}

export type TaskResult<T> = ({ ok: true; value: T } | { ok: false; reason: string }) & { prompt: PromptRef };

export interface Assistant {
  /** "openai" or "offline": stored with every item. */
  readonly provider: string;
  readonly model: string;
  /** A question whose answer is `value`, the infobox's value for `key`. */
  generateQuestion(article: ArticleContext, target: { key: string; value: string }): Promise<TaskResult<{ question: string }>>;
  /** The answer to `question` from the article's title, first paragraph and infobox alone. */
  answerQuestion(article: ArticleContext, question: string): Promise<TaskResult<{ answer: string }>>;
  classifyDomain(article: ArticleContext, question: string): Promise<TaskResult<{ domain: Domain }>>;
  /** Requests, cache hits and tokens since the last call. */
  takeUsage(): Usage;
}

/** The infobox as the prompts show it: one `key: value` line per field. */
export function infoboxLines(infobox: Record<string, string>): string {
  return Object.entries(infobox)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');
}

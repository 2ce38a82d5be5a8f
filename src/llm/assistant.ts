/**
 * The jobs the weekly pipeline (question, answer, domain) and the monthly one (grounded QA, changed
 * QA, dialogue) give a language model, behind one interface with two providers: a model behind an OpenAI-compatible server, and the offline rules. Every result names
 * the prompt (or rule set) that made it; the provider and model are the assistant's own, so each
 * stored item can say where it came from.
 */
import type { Domain } from './domains.js';
import type { Usage } from '../model/llmUsage.js';

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
  /** A question with a short entity answer from the numbered sentences, and the evidence range it cites. */
  generateGroundedQa(request: GroundedQaRequest): Promise<TaskResult<GroundedQa>>;
  /** A question the old and the new wording of a sentence answer differently, with both answers. */
  generateChangedQa(request: ChangedQaRequest): Promise<TaskResult<ChangedQa>>;
  /** A user/expert conversation of `turns` exchanges, each citing one of the numbered sentences. */
  generateDialogue(request: DialogueRequest): Promise<TaskResult<Dialogue>>;
  /** Requests, cache hits and tokens since the last call. */
  takeUsage(): Usage;
}

/** A sentence of a snapshot article with its index there (the number prompts and replies use). */
export interface NumberedSentence {
  index: number;
  text: string;
}

export interface GroundedQaRequest {
  title: string;
  sentences: NumberedSentence[];
  /** initial: a paragraph of an article new to the dataset; new: sentences added since the last snapshot. */
  source: 'initial' | 'new';
  /** For `new`: the text around the added sentences. */
  context: string;
}

/** start and end: sentence indices (as numbered in the request) of the evidence. */
export interface GroundedQa {
  question: string;
  answer: string;
  start: number;
  end: number;
}

export interface ChangedQaRequest {
  title: string;
  oldSentence: string;
  newSentence: string;
}

export interface ChangedQa {
  question: string;
  oldAnswer: string;
  newAnswer: string;
}

export interface DialogueRequest {
  title: string;
  sentences: NumberedSentence[];
  turns: number;
}

export interface Dialogue {
  turns: Array<{ user: string; expert: string; sentence: number }>;
}

/** Sentences as the prompts show them: one `[index] text` line each. */
export function numberedLines(sentences: readonly NumberedSentence[]): string {
  return sentences.map((sentence) => `[${sentence.index}] ${sentence.text}`).join('\n');
}

/** The infobox as the prompts show it: one `key: value` line per field. */
export function infoboxLines(infobox: Record<string, string>): string {
  return Object.entries(infobox)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');
}

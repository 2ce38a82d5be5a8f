/**
 * The baselines' jobs for a language model (docs/ARCHITECTURE.md §6): answer a question closed-book
 * ("Today is D." and the question) or from a reference document (a golden document, GrowOVER's
 * evidence). Two providers, as for the pipelines: a model behind an OpenAI-compatible server, whose
 * calls are cached in the store so a rerun continues where it stopped, and the offline rules.
 */
import type { TaskProvider, TaskResult } from './tasks.js';

/** A question a baseline answers, on its date. */
export interface BaselineQuestion {
  text: string;
  /** The system's "today", YYYY-MM-DD. */
  date: string;
  /** The infobox key a weekly query asks for: read by the offline rules only, never shown to a model. */
  key?: string;
}

/** The reference a golden-document or evidence baseline answers from. */
export interface ReferenceDocument {
  title: string;
  /** Prose: the article's first paragraph as of the date, or an item's evidence sentences. */
  text: string;
  /** The article's infobox as of the date, when the reference has one. */
  infobox?: Record<string, string>;
  /** The labels of the infobox's keys that are properties (`P1082` → `population`). */
  keyLabels?: Record<string, string>;
}

/**
 * The answering model of the baselines (`predict weekly`, `predict growover`): closed-book, or from a
 * reference document. `OfflineBaselineTasks` and `OpenAiBaselineTasks` implement it.
 */
export interface BaselineTasks extends TaskProvider {
  /** The answer from the model's own knowledge; "unknown" (a no-answer phrase) when it has none. */
  answerClosedBook(question: BaselineQuestion): Promise<TaskResult<{ answer: string }>>;
  /** The answer from the reference alone; "unknown" when the reference does not hold it. */
  answerFromDocument(question: BaselineQuestion, document: ReferenceDocument): Promise<TaskResult<{ answer: string }>>;
}

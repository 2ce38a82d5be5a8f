/**
 * The monthly (GrowOVER) pipeline's jobs for a language model (docs/ARCHITECTURE.md §6): grounded
 * QA, changed QA and dialogues over numbered sentences. Two providers: a model behind an
 * OpenAI-compatible server, and the offline rules; the generator validates whatever either returns.
 */
import type { TaskProvider, TaskResult } from './tasks.js';

/** A sentence of a snapshot article with its index there (the number prompts and replies use). */
export interface NumberedSentence {
  index: number;
  text: string;
}

/** A grounded QA request: the article's title and the numbered sentences the question may rest on. */
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

/** A CHANGED QA request: the old and the new wording of one sentence. */
export interface ChangedQaRequest {
  title: string;
  oldSentence: string;
  newSentence: string;
}

/** A CHANGED QA reply: one question, its old and its new answer. */
export interface ChangedQa {
  question: string;
  oldAnswer: string;
  newAnswer: string;
}

/** A dialogue request: the numbered sentences, and how many turns. */
export interface DialogueRequest {
  title: string;
  sentences: NumberedSentence[];
  turns: number;
}

/** A dialogue reply: user and expert turns, each citing a sentence. */
export interface Dialogue {
  turns: Array<{ user: string; expert: string; sentence: number }>;
}

/**
 * The monthly pipeline's generation steps (GrowOVER's prompts): grounded QA, CHANGED QA and
 * dialogues, each reply validated afterwards by src/growover/validation.ts. `OfflineGrowoverTasks`
 * and `OpenAiGrowoverTasks` implement it.
 */
export interface GrowoverTasks extends TaskProvider {
  /** A question with a short entity answer from the numbered sentences, and the evidence range it cites. */
  generateGroundedQa(request: GroundedQaRequest): Promise<TaskResult<GroundedQa>>;
  /** A question the old and the new wording of a sentence answer differently, with both answers. */
  generateChangedQa(request: ChangedQaRequest): Promise<TaskResult<ChangedQa>>;
  /** A user/expert conversation of `turns` exchanges, each citing one of the numbered sentences. */
  generateDialogue(request: DialogueRequest): Promise<TaskResult<Dialogue>>;
}

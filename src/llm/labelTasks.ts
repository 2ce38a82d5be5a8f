/**
 * The labeling step GrowOVER gave to GPT-4 (docs/ARCHITECTURE.md §6, §7.3): a sentence the models
 * call changed, or could not decide, is judged with its closest old sentence: same, changed or new,
 * with a reason. Two providers: a model behind an OpenAI-compatible server, and the offline one,
 * which asks nothing and keeps the models' label.
 */
import type { TaskProvider, TaskResult } from './tasks.js';

export interface SentenceChangeRequest {
  oldSentence: string;
  newSentence: string;
  /** What the rules found, e.g. "facts differ: number:3 → number:4", shown to the model. */
  facts: string;
}

/** `keep`: no judgement was made (offline), the models' label stands. */
export interface SentenceChange {
  verdict: 'same' | 'changed' | 'new' | 'keep';
  reason: string;
}

export interface LabelTasks extends TaskProvider {
  judgeSentenceChange(request: SentenceChangeRequest): Promise<TaskResult<SentenceChange>>;
}

/**
 * The labeling step GrowOVER gave to GPT-4 (docs/ARCHITECTURE.md §6, §7.3): a sentence the models
 * call changed, or could not decide, is judged with its closest old sentence: same, changed or new,
 * with a reason. Two providers: a model behind an OpenAI-compatible server, and the offline one,
 * which asks nothing and keeps the models' label.
 */
import type { SentenceChange, SentenceChangeJudge, SentenceChangeRequest } from '../model/labels.js';
import type { TaskProvider, TaskResult } from './tasks.js';

export type { SentenceChange, SentenceChangeRequest } from '../model/labels.js';

/** The sentence-change judge as a task set: `OfflineLabelTasks` or `OpenAiLabelTasks`. */
export interface LabelTasks extends TaskProvider, SentenceChangeJudge {
  judgeSentenceChange(request: SentenceChangeRequest): Promise<TaskResult<SentenceChange>>;
}

/**
 * What every LLM task returns and every task provider is (docs/ARCHITECTURE.md §6): each result
 * names the prompt (or rule set) that made it, and the provider and model are the provider's own,
 * so each stored item can say where it came from.
 */
import type { Usage } from '../model/llmUsage.js';
import type { Result } from '../result.js';

/** The prompt (or offline rule set) that made a result, and its version: stored with every item. */
export interface PromptRef {
  name: string;
  version: string;
}

/** A task's outcome: the value, or the reason the item failed (an invalid reply past the repairs), with the prompt either way. */
export type TaskResult<T> = Result<T> & { prompt: PromptRef };

/**
 * What every task set is: a provider and model stored with every item, and the usage it meters.
 * A failure of the service itself (down past the retries) is thrown as a RemoteError by every task;
 * a failure of one item is a `TaskResult` with `ok: false`.
 */
export interface TaskProvider {
  /** "openai" or "offline": stored with every item. */
  readonly provider: string;
  readonly model: string;
  /** Requests, cache hits and tokens since the last call. */
  takeUsage(): Usage;
}

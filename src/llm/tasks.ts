/**
 * What every LLM task returns and every task provider is (docs/ARCHITECTURE.md §6): each result
 * names the prompt (or rule set) that made it, and the provider and model are the provider's own,
 * so each stored item can say where it came from.
 */
import type { Usage } from '../model/llmUsage.js';
import type { Result } from '../result.js';

export interface PromptRef {
  name: string;
  version: string;
}

export type TaskResult<T> = Result<T> & { prompt: PromptRef };

export interface TaskProvider {
  /** "openai" or "offline": stored with every item. */
  readonly provider: string;
  readonly model: string;
  /** Requests, cache hits and tokens since the last call. */
  takeUsage(): Usage;
}

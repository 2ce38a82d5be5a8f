/** Calls and tokens spent through one LLM provider and model (docs/ARCHITECTURE.md §6). */

export interface Usage {
  provider: string;
  model: string;
  /** HTTP requests sent (retries included). */
  requests: number;
  cacheHits: number;
  /** Items that ended marked with a reason instead of a valid reply. */
  failures: number;
  promptTokens: number;
  completionTokens: number;
}

/** A run's usage of one provider and model, with its cost when prices were given. */
export interface RunUsage extends Usage {
  cost: number | null;
}

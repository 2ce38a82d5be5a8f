/** The LLM usage of each run per provider and model (docs/ARCHITECTURE.md §6, §9): what `status` shows. */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import type { RunUsage, Usage } from '../model/llmUsage.js';

const RunUsageRow = z.object({
  provider: z.string(),
  model: z.string(),
  requests: z.number().int(),
  cacheHits: z.number().int(),
  failures: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  cost: z.number().nullable(),
});

/** LLM calls, tokens and cost per run, provider and model, as `status` reports them. */
export class LlmUsageStore {
  private readonly upsert;
  private readonly selectRun;

  constructor(db: Database) {
    this.upsert = db.prepare(
      `INSERT INTO llm_usage (run_id, provider, model, requests, cache_hits, failures, prompt_tokens, completion_tokens, cost)
       VALUES (@runId, @provider, @model, @requests, @cacheHits, @failures, @promptTokens, @completionTokens, @cost)
       ON CONFLICT (run_id, provider, model) DO UPDATE SET
         requests = requests + excluded.requests, cache_hits = cache_hits + excluded.cache_hits,
         failures = failures + excluded.failures, prompt_tokens = prompt_tokens + excluded.prompt_tokens,
         completion_tokens = completion_tokens + excluded.completion_tokens,
         cost = CASE WHEN excluded.cost IS NULL THEN cost ELSE COALESCE(cost, 0) + excluded.cost END`,
    );
    this.selectRun = db.prepare(
      `SELECT provider, model, requests, cache_hits AS cacheHits, failures, prompt_tokens AS promptTokens,
              completion_tokens AS completionTokens, cost
       FROM llm_usage WHERE run_id = ? ORDER BY provider, model`,
    );
  }

  /** Adds usage (and its cost, null when unpriced) to the run's totals for its provider and model. */
  add(runId: number, usage: Usage, cost: number | null): void {
    this.upsert.run({ runId, ...usage, cost });
  }

  /** The run's usage, one row per provider and model. */
  ofRun(runId: number): RunUsage[] {
    return this.selectRun.all(runId).map((row) => RunUsageRow.parse(row));
  }
}

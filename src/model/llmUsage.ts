/** Calls and tokens spent through one LLM provider and model (docs/ARCHITECTURE.md §6). */
import { z } from 'zod';

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

/** Usage as a job returns it through the queue (docs/ARCHITECTURE.md §13). */
export const UsageSchema = z.object({
  provider: z.string(),
  model: z.string(),
  requests: z.number(),
  cacheHits: z.number(),
  failures: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
}) satisfies z.ZodType<Usage>;

/** A run's usage of one provider and model, with its cost when prices were given. */
export interface RunUsage extends Usage {
  cost: number | null;
}

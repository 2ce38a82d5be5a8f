/**
 * The LLM a job's items are generated with, as it travels in the job (docs/ARCHITECTURE.md §13):
 * the provider and the client settings, never a key. A worker builds its own client from it with
 * the key (and, unless the job names one, the server) of its own environment, and no reply cache:
 * the cache stays in the owner's store (see generateJob.ts).
 */
import { z } from 'zod';
import type { GrowoverTasks } from '../llm/growoverTasks.js';
import { OfflineGrowoverTasks } from '../llm/offlineGrowoverTasks.js';
import { OpenAiClient } from '../llm/openaiClient.js';
import { OpenAiGrowoverTasks } from '../llm/openaiGrowoverTasks.js';

export const LlmChoiceSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('offline') }),
  z.object({
    provider: z.literal('openai'),
    model: z.string(),
    concurrency: z.number().int().positive(),
    perMinute: z.number().int().positive(),
    maxRetries: z.number().int().nonnegative(),
    invalidRetries: z.number().int().nonnegative(),
    timeoutSeconds: z.number().positive(),
    temperature: z.number(),
    seed: z.number().int(),
    /** The owner's OPENAI_BASE_URL; null: the worker's own. */
    baseUrl: z.string().nullable(),
  }),
]);
export type LlmChoice = z.infer<typeof LlmChoiceSchema>;

/** GrowOVER's tasks for a choice, on a worker: its client has no cache (the owner's store holds it). */
export function growoverTasksFor(choice: LlmChoice, env: NodeJS.ProcessEnv = process.env): GrowoverTasks {
  if (choice.provider === 'offline') return new OfflineGrowoverTasks();
  const baseURL = choice.baseUrl ?? env.OPENAI_BASE_URL;
  return new OpenAiGrowoverTasks(
    new OpenAiClient({
      model: choice.model,
      concurrency: choice.concurrency,
      perMinute: choice.perMinute,
      maxRetries: choice.maxRetries,
      invalidRetries: choice.invalidRetries,
      timeoutMs: choice.timeoutSeconds * 1000,
      temperature: choice.temperature,
      seed: choice.seed,
      cache: null,
      ...(baseURL ? { baseURL } : {}),
      apiKey: env.OPENAI_API_KEY || 'none',
    }),
  );
}

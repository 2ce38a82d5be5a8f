/**
 * The LLM a job's items are generated with, as it travels in the job (docs/ARCHITECTURE.md §13):
 * the provider and the client settings, never a key. A worker builds its own client from it with
 * the key (and, unless the job names one, the server) of its own environment, and no reply cache:
 * the cache stays in the owner's store (see generateJob.ts).
 */
import { z } from 'zod';
import type { GrowoverTasks } from '../llm/growoverTasks.js';
import type { LabelTasks } from '../llm/labelTasks.js';
import { OfflineGrowoverTasks } from '../llm/offlineGrowoverTasks.js';
import { OfflineLabelTasks } from '../llm/offlineLabelTasks.js';
import { OpenAiClient } from '../llm/openaiClient.js';
import { OpenAiGrowoverTasks } from '../llm/openaiGrowoverTasks.js';
import { OpenAiLabelTasks } from '../llm/openaiLabelTasks.js';

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
    maxReplyBytes: z.number().int().positive(),
    retryBaseMs: z.number().int().positive(),
    temperature: z.number(),
    seed: z.number().int(),
    /** The owner's OPENAI_BASE_URL; null: the worker's own. */
    baseUrl: z.string().nullable(),
  }),
]);
export type LlmChoice = z.infer<typeof LlmChoiceSchema>;

/** The tasks a worker runs for one LLM choice: generation and the labeling judge. */
export interface WorkerTasks {
  growover: GrowoverTasks;
  label: LabelTasks;
}

/**
 * A worker's tasks for a choice: the offline rules, or a client each without a cache (the owner's
 * store holds it). A client each, because a client meters what it spends and a generation job
 * returns its task set's spending: the judge's calls are not a generation's. The two are not
 * asked at once anyway: labeling is done before generation starts.
 */
export function workerTasksFor(choice: LlmChoice, env: NodeJS.ProcessEnv = process.env): WorkerTasks {
  if (choice.provider === 'offline') return { growover: new OfflineGrowoverTasks(), label: new OfflineLabelTasks() };
  const baseURL = choice.baseUrl ?? env.OPENAI_BASE_URL;
  const client = () =>
    new OpenAiClient({
      model: choice.model,
      concurrency: choice.concurrency,
      perMinute: choice.perMinute,
      maxRetries: choice.maxRetries,
      invalidRetries: choice.invalidRetries,
      timeoutMs: choice.timeoutSeconds * 1000,
      maxReplyBytes: choice.maxReplyBytes,
      retryBaseMs: choice.retryBaseMs,
      temperature: choice.temperature,
      seed: choice.seed,
      cache: null,
      ...(baseURL ? { baseURL } : {}),
      apiKey: env.OPENAI_API_KEY || 'none',
    });
  return { growover: new OpenAiGrowoverTasks(client()), label: new OpenAiLabelTasks(client()) };
}

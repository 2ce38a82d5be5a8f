/**
 * The `--queue URL` option of `weekly`, `label` and `monthly` (docs/ARCHITECTURE.md §13), defined
 * once: the queue is checked before the store is touched, and the BullMQ runner carries the
 * command's model and LLM choice to the workers. BullMQ loads only when a queue is asked for.
 */
import { Option } from 'commander';
import type { BatchRunner } from '../queue/batchRunner.js';
import { parseQueueUrl, requireReachable } from '../queue/connection.js';
import type { LlmChoice } from '../queue/llmChoice.js';
import { chosenProvider, type LlmSettings } from '../llm/openTasks.js';
import { modelChoiceOf, type ModelFlags } from './modelOptions.js';
import type { OptionsOf } from './options.js';

export const QUEUE_OPTION_HELP = 'label (and with monthly, generate items) on the workers of this BullMQ queue (redis://HOST:PORT, see wikidelta worker); this process writes the store';
export const WEEKLY_QUEUE_OPTION_HELP = 'parse and diff, and read each of several --dump files, on the workers of this BullMQ queue (redis://HOST:PORT, see wikidelta worker; they open the files by the same paths); this process writes the store';

export interface QueueFlags {
  queue?: string;
}

/** `--queue URL`, described for the command's jobs (QUEUE_OPTION_HELP or WEEKLY_QUEUE_OPTION_HELP). */
export function queueOptions(description: string): OptionsOf<QueueFlags> {
  return { queue: new Option('--queue <url>', description) };
}

/** A bad or unreachable queue is one line before anything else happens. */
export async function requireQueue(queueUrl: string | undefined): Promise<void> {
  if (queueUrl !== undefined) await requireReachable(parseQueueUrl(queueUrl));
}

/**
 * The LLM the settings choose, as jobs carry it: the client settings and this process's
 * OPENAI_BASE_URL, never its key (each worker reads its own OPENAI_API_KEY).
 */
export function llmChoiceOf(settings: LlmSettings, env: NodeJS.ProcessEnv = process.env): LlmChoice {
  if (chosenProvider(settings, env) === 'offline') return { provider: 'offline' };
  return {
    provider: 'openai',
    model: settings.llmModel,
    concurrency: settings.llmConcurrency,
    perMinute: settings.llmPerMinute,
    maxRetries: settings.llmMaxRetries,
    invalidRetries: settings.llmInvalidRetries,
    timeoutSeconds: settings.llmTimeoutSeconds,
    maxReplyBytes: settings.llmMaxReplyKb * 1024,
    retryBaseMs: settings.retryBaseMs,
    temperature: settings.llmTemperature,
    seed: settings.seed,
    baseUrl: env.OPENAI_BASE_URL || null,
  };
}

/** The batch runner of `label --queue` and `monthly --queue` (labeling with its LLM judge, item generation), or nothing (in process). */
export async function queueRunnerFor(queueUrl: string | undefined, flags: ModelFlags, settings: LlmSettings): Promise<{ batchRunner?: BatchRunner }> {
  if (queueUrl === undefined) return {};
  const { BullmqRunner } = await import('../queue/bullmqRunner.js');
  return { batchRunner: new BullmqRunner(queueUrl, modelChoiceOf(flags), 'llm', llmChoiceOf(settings)) };
}

/** The parse and diff batch runner of `weekly --queue`, or nothing (in process): those jobs use no models and ask no LLM. */
export async function weeklyQueueRunnerFor(queueUrl: string | undefined): Promise<{ batchRunner?: BatchRunner }> {
  if (queueUrl === undefined) return {};
  const { BullmqRunner } = await import('../queue/bullmqRunner.js');
  return { batchRunner: new BullmqRunner(queueUrl, {}, 'none', { provider: 'offline' }) };
}

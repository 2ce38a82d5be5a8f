/**
 * The `--queue URL` option of `weekly`, `label` and `monthly` (docs/ARCHITECTURE.md §13), defined once: the
 * queue is checked before the store is touched, and the BullMQ runner carries the command's model
 * choice to the workers. BullMQ loads only when a queue is asked for.
 */
import type { BatchRunner } from '../queue/batchRunner.js';
import { parseQueueUrl, requireReachable } from '../queue/connection.js';
import { UserError } from '../errors.js';
import { chosenProvider } from '../llm/openTasks.js';
import type { Settings } from '../settings.js';
import { modelChoiceOf, type ModelFlags } from './modelOptions.js';

export const QUEUE_OPTION_HELP = 'label on the workers of this BullMQ queue (redis://HOST:PORT, see wikidelta worker); this process writes the store';
export const WEEKLY_QUEUE_OPTION_HELP = 'parse and diff on the workers of this BullMQ queue (redis://HOST:PORT, see wikidelta worker); this process collects and writes the store';

/** A bad or unreachable queue is one line before anything else happens. */
export async function requireQueue(queueUrl: string | undefined): Promise<void> {
  if (queueUrl !== undefined) await requireReachable(parseQueueUrl(queueUrl));
}

/** The labeling batch runner for `--queue`, or nothing (in process). */
export async function queueRunnerFor(queueUrl: string | undefined, flags: ModelFlags, settings: Pick<Settings, 'llm'>): Promise<{ batchRunner?: BatchRunner }> {
  if (queueUrl === undefined) return {};
  // An online LLM judge needs its client and its cache in the store: it does not run on workers yet.
  if (chosenProvider(settings) !== 'offline') throw new UserError('--queue runs the offline judge only: add --llm offline, or run without --queue to ask the LLM');
  const { BullmqRunner } = await import('../queue/bullmqRunner.js');
  return { batchRunner: new BullmqRunner(queueUrl, modelChoiceOf(flags), 'offline') };
}

/** The parse and diff batch runner of `weekly --queue`, or nothing (in process): those jobs use no models. */
export async function weeklyQueueRunnerFor(queueUrl: string | undefined): Promise<{ batchRunner?: BatchRunner }> {
  if (queueUrl === undefined) return {};
  const { BullmqRunner } = await import('../queue/bullmqRunner.js');
  return { batchRunner: new BullmqRunner(queueUrl, {}, 'none') };
}

import { InProcessRunner, type BatchRunner } from '../../src/queue/batchRunner.js';
import type { WeeklyInput } from './input.js';

/** The weekly jobs (parse, diff) use no models: in process, asking for them is a bug. */
const noModels = { models: () => Promise.reject(new Error('the weekly parse and diff jobs use no models')) };

/** Where the run's parse and diff batches go: the queue's workers when given, else this process. */
export function batchRunnerFor(input: WeeklyInput): BatchRunner {
  return input.batchRunner ?? new InProcessRunner(noModels);
}

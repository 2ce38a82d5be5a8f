import type { BatchRunner } from '../../src/queue/batchRunner.js';
import { defaultThreadCount, ThreadRunner } from '../../src/queue/threadRunner.js';
import { DEFAULT_THREAD_HEAP_MB } from '../../src/settings.js';
import type { WeeklyInput } from './input.js';

/** This process's batch threads, by count and heap: kept for the process's later runs (idle threads do not keep it alive). */
const threadRunners = new Map<string, ThreadRunner>();

/** Where the run's parse and diff batches go: the queue's workers when given, else this process's batch threads. */
export function batchRunnerFor(input: WeeklyInput): BatchRunner {
  if (input.batchRunner) return input.batchRunner;
  const count = input.threads ?? defaultThreadCount();
  const heapMb = input.threadHeapMb ?? DEFAULT_THREAD_HEAP_MB;
  const key = `${count}/${heapMb}`;
  let runner = threadRunners.get(key);
  if (!runner) threadRunners.set(key, (runner = new ThreadRunner(count, heapMb)));
  return runner;
}

/** Slices under way at once: the workers go on with the next slice while the last one's longest batches finish. */
const SLICES_IN_FLIGHT = 2;

/**
 * Runs slices one after the other but overlapping, at most SLICES_IN_FLIGHT under way: `nextSlice`
 * reads the next slice and starts its run, or gives null when none is left. Once one fails no
 * further slice starts; those under way end first (their results are written), then the failure
 * is thrown.
 */
export async function runSlices(nextSlice: () => Promise<void> | null): Promise<void> {
  const underWay: Array<Promise<void>> = [];
  let failed = false;
  try {
    for (let slice = nextSlice(); slice !== null; slice = failed ? null : nextSlice()) {
      // Noted at once, and handled so that a failure while an earlier slice is awaited is not an unhandled rejection.
      slice.catch(() => (failed = true));
      underWay.push(slice);
      if (underWay.length >= SLICES_IN_FLIGHT) await underWay.shift();
    }
    await Promise.all(underWay);
  } catch (error) {
    await Promise.allSettled(underWay);
    throw error;
  }
}

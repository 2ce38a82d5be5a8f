import type { BatchRunner } from '../../src/queue/batchRunner.js';
import { sharedThreadRunner } from '../../src/queue/threadRunner.js';
import type { WeeklyInput } from './input.js';

/** Where the run's parse and diff batches go: the queue's workers when given, else this process's batch threads. */
export function batchRunnerFor(input: WeeklyInput): BatchRunner {
  return input.batchRunner ?? sharedThreadRunner(input.threads, input.threadHeapMb);
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

/**
 * The bootstrap's second thread (`BootstrapThread`, ./bootstrap.ts): takes the groups it is handed,
 * whose rows it reads where the first thread keeps them, resamples them with the draws the first
 * thread makes as it reads them, and sends back their intervals, or its error (having told the first
 * thread to draw no more).
 */
import { carried } from '../errors.js';
import { syncThreadPort, SyncThreadStopped } from '../syncThread.js';
import { BootstrapWork, ClusteredSums, resampledIntervals, RingDraws, type Interval } from './bootstrap.js';

const port = syncThreadPort();

/** The intervals of the groups handed over, or the error that stopped their resampling. */
function resampled(): { intervals: Interval[][] } | { error: string } {
  const received = port.receive();
  let draws: RingDraws | undefined;
  try {
    const work = BootstrapWork.parse(received);
    draws = new RingDraws(work.draws);
    return { intervals: resampledIntervals(work.groups.map(ClusteredSums.resampling), work.clusterCount, work.options, draws) };
  } catch (error) {
    draws?.abandon();
    return { error: carried(error) };
  }
}

try {
  port.send(resampled());
} catch (error) {
  // Closed unused, or no longer waited for.
  if (!(error instanceof SyncThreadStopped)) throw error;
}

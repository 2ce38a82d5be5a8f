import type { BatchRunner } from '../../src/queue/batchRunner.js';
import { readDumpJob, type ParsedDumpPage, type ReadDumpPart } from '../../src/queue/dumpJob.js';
import type { DatedEntityName, Window } from '../../src/model.js';

/** A part's result ends after the page that takes it to this many characters of JSON (a single page may pass it). */
const PART_CHARS = 4 << 20;
/** Parts in one flow: a flow's parent holds its parts' results until it is done, so Redis holds at most this many results at once. */
const PARTS_PER_FLOW = 16;

/**
 * Reads several dump files on the queue's workers, collected and parsed at once (docs/ARCHITECTURE.md
 * §13): a read-dump job per file, each further part of a file queued once the part before it has
 * ended, at most PARTS_PER_FLOW parts in one flow. Each part's pages, and the names of the entity
 * pages it passed over, go to `onPages` as the part ends, in the order the parts end.
 */
export async function readDumpFiles(
  runner: BatchRunner,
  files: readonly string[],
  collection: { window: Window; followHours: number; keepRedirects?: boolean },
  onPages: (pages: readonly ParsedDumpPage[], names: readonly DatedEntityName[]) => void,
): Promise<void> {
  let pending: ReadDumpPart[] = files.map((path) => ({ path, ...collection, afterPage: null, partChars: PART_CHARS }));
  while (pending.length > 0) {
    const flow = pending.slice(0, PARTS_PER_FLOW);
    pending = pending.slice(PARTS_PER_FLOW);
    await runner.run(readDumpJob, flow, (result, index) => {
      onPages(result.pages, result.names);
      if (result.nextAfterPage !== null) pending.push({ ...(flow[index] as ReadDumpPart), afterPage: result.nextAfterPage });
    });
  }
}

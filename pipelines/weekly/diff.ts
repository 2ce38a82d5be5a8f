import type { Stage } from '../../src/runs/stageRunner.js';
import { UserError } from '../../src/errors.js';
import type { PageRevisionRow } from '../../src/model/weekly.js';
import type { WeeklyInput } from './input.js';
import { inBatches } from '../../src/queue/batchRunner.js';
import { diffPagesJob, infoboxesNeeded, type DiffBatch } from '../../src/queue/diffJob.js';
import { batchRunnerFor, runSlices } from './batchRunner.js';

/** Pages read from the store at a time, and per batch (a queue job). */
const DIFF_SLICE_PAGES = 200;
const DIFF_JOB_PAGES = 25;

/**
 * diff: key-level changes of every in-window revision against its predecessor, with filter and
 * revert marks; pages in slices (two under way at once) cut into batches that run here or on the queue's workers (docs/ARCHITECTURE.md §13),
 * carrying the infoboxes the diff reads, each batch's changes written by this process.
 */
export const diffStage: Stage<WeeklyInput> = {
  name: 'diff',
  after: ['parse'],
  async run(input, context) {
    const store = context.store.changes(input.wiki);
    const runner = batchRunnerFor(input);
    const pageIds = store.windowPageIds(input.window);
    const counts = { pages: 0, revisions: 0, changes: 0, filtered: 0, reverted: 0 };
    const slices = inBatches(pageIds, DIFF_SLICE_PAGES).values();
    await runSlices(() => {
      const slice = slices.next();
      if (slice.done) return null;
      const pages = slice.value.map((pageId) => {
        const revisions = store.pageRevisions(pageId);
        const needed = infoboxesNeeded(revisions, input.window);
        refuseMixedReadings(pageId, revisions.filter((revision) => needed.has(revision.revId)));
        // The stored rows of the last revision with text read: infoboxes equal to them are not decoded nor sent again.
        let before: string | null = null;
        return {
          pageId,
          revisions: revisions.map(({ revId, timestamp, sha1, metadataOnly }) => {
            if (metadataOnly) return { revId, timestamp, sha1, metadataOnly, infoboxes: null };
            if (!needed.has(revId)) {
              before = null;
              return { revId, timestamp, sha1, metadataOnly, infoboxes: null };
            }
            const stored = store.storedInfoboxes(pageId, revId);
            const key = JSON.stringify(stored);
            const sameInfoboxes = key === before;
            before = key;
            return { revId, timestamp, sha1, metadataOnly, infoboxes: sameInfoboxes ? null : store.decodeInfoboxes(stored), sameInfoboxes };
          }),
        };
      });
      const batches: DiffBatch[] = inBatches(pages, DIFF_JOB_PAGES).map((batch) => ({ window: input.window, revertHours: input.revertHours, pages: batch }));
      return runner.run(diffPagesJob, batches, (diffed) => {
        store.saveChanges(diffed.pages);
        const changes = diffed.pages.flatMap((page) => page.revisions.flatMap((revision) => revision.changes));
        counts.pages += diffed.pages.length;
        counts.revisions += diffed.pages.reduce((sum, page) => sum + page.revisions.length, 0);
        counts.changes += changes.length;
        counts.filtered += changes.filter((change) => change.filtered).length;
        counts.reverted += changes.filter((change) => change.revertedBy !== null).length;
        context.saveProgress({ counts });
        context.reporter.progress(counts.pages, pageIds.length);
      });
    });
    return counts;
  },
};

/**
 * A week never diffs a revision against its parent read another way (docs/ARCHITECTURE.md §5): once a
 * later week has read again the revision its window opens on, the week before holds revisions of both
 * readings, and diffing it again would ask about what only the reading changed. Their texts are gone
 * (unless kept); collecting the week again reads them all this version's way.
 *
 * @throws UserError E_PREREQUISITE_MISSING when the revisions the page's diff reads were read both ways
 */
function refuseMixedReadings(pageId: number, read: readonly PageRevisionRow[]): void {
  const older = read.find((revision) => revision.olderReading);
  const current = read.find((revision) => !revision.olderReading);
  if (older === undefined || current === undefined) return;
  throw new UserError(
    'E_PREREQUISITE_MISSING',
    `page ${pageId}: revision ${older.revId} was read by an older wikidelta and revision ${current.revId} by this one, so diffing them would find changes no edit made: run the week with --redo collect, which reads its revisions again`,
  );
}

import type { Stage } from '../../src/runs/stageRunner.js';
import type { WeeklyInput } from './input.js';
import { diffInfoboxes } from '../../src/diff/infoboxDiff.js';
import type { Infobox } from '../../src/model.js';
import { findReverts } from '../../src/diff/reverts.js';
import { filterReason } from '../../src/select/changeFilters.js';
import { ChangeStore } from '../../src/store/changeStore.js';
import { yieldToEventLoop } from './yieldToEventLoop.js';

const DIFF_BATCH_PAGES = 100;

/** diff: key-level changes of every in-window revision against its predecessor, with filter and revert marks. */
export const diffStage: Stage<WeeklyInput> = {
  name: 'diff',
  after: ['parse'],
  async run(input, context) {
    const store = new ChangeStore(context.db, input.wiki);
    const pageIds = store.windowPageIds(input.window);
    const counts = { pages: 0, revisions: 0, changes: 0, filtered: 0, reverted: 0 };
    for (let offset = 0; offset < pageIds.length; offset += DIFF_BATCH_PAGES) {
      const pages = pageIds.slice(offset, offset + DIFF_BATCH_PAGES).map((pageId) => {
        const revisions = store.pageRevisions(pageId);
        const revertedBy = findReverts(revisions, input.revertHours);
        const withText = revisions.filter((revision) => !revision.metadataOnly);
        const diffs = [];
        // Each revision's infoboxes are read once: as the current one, then kept as the next one's previous.
        let previousInfoboxes: Infobox[] | null = null;
        for (let i = 1; i < withText.length; i++) {
          const previous = withText[i - 1]!;
          const current = withText[i]!;
          if (current.timestamp < input.window.start || current.timestamp >= input.window.end) {
            previousInfoboxes = null;
            continue;
          }
          const currentInfoboxes = store.infoboxes(pageId, current.revId);
          const before = previousInfoboxes ?? store.infoboxes(pageId, previous.revId);
          previousInfoboxes = currentInfoboxes;
          const changes = diffInfoboxes(before, currentInfoboxes).map((change) => ({
            ...change,
            filtered: filterReason(change),
            revertedBy: revertedBy.get(current.revId) ?? null,
          }));
          counts.revisions++;
          counts.changes += changes.length;
          counts.filtered += changes.filter((c) => c.filtered).length;
          counts.reverted += changes.filter((c) => c.revertedBy !== null).length;
          diffs.push({ revId: current.revId, prevRevId: previous.revId, timestamp: current.timestamp, changes });
        }
        return { pageId, revisions: diffs };
      });
      store.saveChanges(pages);
      counts.pages += pages.length;
      context.saveProgress({ counts });
      context.reporter.progress(counts.pages, pageIds.length);
      await yieldToEventLoop();
    }
    return counts;
  },
};

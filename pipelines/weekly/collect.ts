import type { Stage } from '../../src/runs/stageRunner.js';
import type { WeeklyInput } from './input.js';
import { UserError } from '../../src/errors.js';
import { RecentChangesStore } from '../../src/store/recentChangesStore.js';
import { RevisionStore } from '../../src/store/revisionStore.js';

/**
 * collect: every changed page's revisions for the window, a part per transaction and the page
 * marked done with its last part (docs/ARCHITECTURE.md §4), so memory stays bounded on any window.
 */
export const collectStage: Stage<WeeklyInput> = {
  name: 'collect',
  async run(input, context) {
    if (!input.source) throw new UserError('the collect stage needs a source: give --api URL or --dump PATH');
    const store = new RevisionStore(context.db, input.wiki);
    const counts = { pages: 0, revisions: 0, skipped_pages: 0, invalid_utf8_pages: 0 };
    const parts = input.source.pagesChangedIn(input.window, {
      isDone: (pageId) => {
        if (input.onlyPages && !input.onlyPages.has(pageId)) return true;
        const done = store.isPageDone(input.window, pageId);
        if (done) counts.skipped_pages++;
        return done;
      },
      followHours: input.revertHours,
      recentChanges: new RecentChangesStore(context.db),
    });
    for await (const part of parts) {
      if (part.kind === 'revisions') {
        store.saveRevisions(part.page, part.revisions);
        counts.revisions += part.revisions.length;
        continue;
      }
      store.finishPage(input.window, part.page, part);
      if (part.invalidUtf8) {
        counts.invalid_utf8_pages++;
        context.reporter.warn('invalid UTF-8 in the dump, replaced by U+FFFD', {
          page: part.page.title,
          page_id: part.page.pageId,
          sequences: part.invalidUtf8,
        });
      }
      counts.pages++;
      context.saveProgress({ counts });
      context.reporter.progress(counts.pages);
    }
    return counts;
  },
};

import type { Stage } from '../../src/runs/stageRunner.js';
import type { WeeklyInput } from '../weekly.js';
import { UserError } from '../../src/errors.js';
import { RevisionStore } from '../../src/store/revisionStore.js';

/** collect: every changed page's revisions for the window, one transaction per page. */
export const collectStage: Stage<WeeklyInput> = {
  name: 'collect',
  async run(input, context) {
    if (!input.source) throw new UserError('the collect stage needs a source: give --api URL or --dump PATH');
    const store = new RevisionStore(context.db, input.wiki);
    const counts = { pages: 0, revisions: 0, skipped_pages: 0 };
    const histories = input.source.pagesChangedIn(input.window, {
      isDone: (pageId) => {
        if (input.onlyPages && !input.onlyPages.has(pageId)) return true;
        const done = store.isPageDone(input.window, pageId);
        if (done) counts.skipped_pages++;
        return done;
      },
      followHours: input.revertHours,
    });
    for await (const history of histories) {
      store.savePageHistory(input.window, history);
      counts.pages++;
      counts.revisions += history.revisions.length;
      context.saveProgress({ counts });
      context.reporter.progress(counts.pages);
    }
    return counts;
  },
};

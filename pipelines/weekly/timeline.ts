import type { Stage } from '../../src/runs/stageRunner.js';
import { ChangeStore } from '../../src/store/changeStore.js';
import { TimelineStore } from '../../src/store/timelineStore.js';
import { buildTimeline } from '../../src/timeline/buildTimeline.js';
import type { WeeklyInput } from './input.js';
import { yieldToEventLoop } from './yieldToEventLoop.js';

const TIMELINE_BATCH_PAGES = 200;

/** timeline: the value intervals of every page changed in the window, rebuilt from all its stored revisions. */
export const timelineStage: Stage<WeeklyInput> = {
  name: 'timeline',
  after: ['parse', 'diff'],
  async run(input, context) {
    const pageIds = new ChangeStore(context.db, input.wiki).windowPageIds(input.window);
    const timelines = new TimelineStore(context.db, input.wiki);
    const counts = { pages: 0, intervals: 0 };
    for (let offset = 0; offset < pageIds.length; offset += TIMELINE_BATCH_PAGES) {
      const batch = pageIds.slice(offset, offset + TIMELINE_BATCH_PAGES);
      counts.intervals += timelines.rebuild(batch, (revisions) => buildTimeline(revisions, input.revertHours));
      timelines.markCollected(batch, input.window);
      counts.pages += batch.length;
      context.saveProgress({ counts });
      context.reporter.progress(counts.pages, pageIds.length);
      await yieldToEventLoop();
    }
    return counts;
  },
};

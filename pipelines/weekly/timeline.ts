import type { Stage } from '../../src/runs/stageRunner.js';
import { referencedIds } from '../../src/content/entityRefs.js';
import { buildTimeline } from '../../src/timeline/buildTimeline.js';
import { namedIntervals } from '../../src/timeline/namedTimeline.js';
import { buildWorldTimeline } from '../../src/timeline/worldTimeline.js';
import type { Reporter } from '../../src/runs/progress.js';
import { heldWindow, type WeeklyInput } from './input.js';
import { yieldToEventLoop } from './yieldToEventLoop.js';

const TIMELINE_BATCH_PAGES = 200;

/**
 * timeline: the value intervals of every page changed in the window, rebuilt from all its stored
 * revisions, with the entities they name labelled; and for an entity, its world-time intervals from
 * its latest known revision (docs/ARCHITECTURE.md §16).
 */
export const timelineStage: Stage<WeeklyInput> = {
  name: 'timeline',
  after: ['parse', 'diff'],
  reads: ['labels'],
  async run(input, context) {
    const pageIds = context.store.changes(input.wiki).windowPageIds(input.window);
    const timelines = context.store.timelines(input.wiki);
    const entities = context.store.entities;
    const named = <Interval extends { value: string; aliases?: string[] }>(intervals: Interval[]): Interval[] => {
      const names = entities.names([...new Set(intervals.flatMap((interval) => referencedIds(interval.value)))]);
      return namedIntervals(intervals, (id) => names.get(id));
    };
    const counts = { pages: 0, intervals: 0, world_intervals: 0 };
    const older = { revisions: 0, pages: 0 };
    for (let offset = 0; offset < pageIds.length; offset += TIMELINE_BATCH_PAGES) {
      const batch = pageIds.slice(offset, offset + TIMELINE_BATCH_PAGES);
      counts.intervals += timelines.rebuild(batch, (revisions) => {
        const olderReadings = revisions.filter((revision) => revision.olderReading).length;
        older.revisions += olderReadings;
        if (olderReadings > 0) older.pages++;
        const timeline = buildTimeline(revisions, input.revertHours);
        return { ...timeline, intervals: named(timeline.intervals) };
      });
      counts.world_intervals += timelines.rebuildWorld(batch, (pageId) => {
        const latest = entities.latestTimedFacts(input.wiki, pageId);
        return latest ? named(buildWorldTimeline(latest.facts, latest.revId)) : [];
      });
      timelines.markCollected(batch, heldWindow(input));
      counts.pages += batch.length;
      context.saveProgress({ counts });
      context.reporter.progress(counts.pages, pageIds.length);
      await yieldToEventLoop();
    }
    return { ...counts, ...olderReadings(older, context.reporter) };
  },
};

/**
 * Revisions of the week's pages that an older wikidelta read (an upgrade changed the reading,
 * `READING_VERSIONS`) and no collection has read again: their values are that reading's, so an interval
 * may start or end where only the reading changed (docs/ARCHITECTURE.md §5). Said once, with the way
 * to read them again, and counted for `status`; nothing when there are none.
 */
function olderReadings(older: { revisions: number; pages: number }, reporter: Reporter): Record<string, number> {
  if (older.revisions === 0) return {};
  reporter.warn(`revisions read by an older wikidelta: their values keep its reading, and an answer may change where only the reading did; collecting the weeks that hold them again (weekly --start WEEK --redo collect) reads them this version's way`, {
    revisions: older.revisions,
    pages: older.pages,
  });
  return { older_readings: older.revisions, older_reading_pages: older.pages };
}

import type { Stage } from '../../src/runs/stageRunner.js';
import { referencedIds } from '../../src/content/entityRefs.js';
import { buildTimeline } from '../../src/timeline/buildTimeline.js';
import { namedIntervals } from '../../src/timeline/namedTimeline.js';
import { buildWorldTimeline } from '../../src/timeline/worldTimeline.js';
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
    for (let offset = 0; offset < pageIds.length; offset += TIMELINE_BATCH_PAGES) {
      const batch = pageIds.slice(offset, offset + TIMELINE_BATCH_PAGES);
      counts.intervals += timelines.rebuild(batch, (revisions) => {
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
    return counts;
  },
};

import type { Store } from '../src/store/store.js';
import type { Reporter } from '../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../src/runs/stageRunner.js';
import { finalizeUpdateFrequency } from '../src/timeline/updateFrequency.js';
import type { WeeklyInput } from './weekly.js';
import { collectStage, historyEndInWindow } from './weekly/collect.js';
import { heldWindow } from './weekly/input.js';
import { labelsStage } from './weekly/labels.js';
import { parseStage } from './weekly/parse.js';
import { timelineStage } from './weekly/timeline.js';

/** Sync works on the weekly records: its window runs from the oldest tracked page's sync mark to the date. */
export type SyncInput = WeeklyInput & { onlyPages: ReadonlySet<number> };

/**
 * collect, then how far the source reached: a dump holds the history up to its newest revision only,
 * so a sync through one made before the date holds the pages up to there (`sourceEnd`), says so, and
 * records it with the run, which a later command, not knowing it before it reads the dump again,
 * then does not continue (docs/ARCHITECTURE.md §5).
 */
const collectThroughSourceStage: Stage<SyncInput> = {
  name: collectStage.name,
  async run(input, context) {
    const counts = await collectStage.run(input, context);
    const ended = historyEndInWindow(input);
    if (ended === undefined) return counts;
    const { newest } = ended;
    // A dump older than the pages' sync marks moves them nowhere: they stay where they were held.
    const sourceEnd = newest === null || newest < input.window.start ? input.window.start : newest;
    const held = sourceEnd === newest ? 'synced up to there' : `the pages stay synced up to ${sourceEnd}`;
    context.reporter.warn(`the dump holds no revision after ${newest ?? 'any time (it holds none)'}: ${held}, not up to ${input.window.end}`, { until: sourceEnd });
    context.store.runs.addParams(context.runId, { sourceEnd });
    input.sourceEnd = sourceEnd;
    return counts;
  },
};

/** deletions: tracked pages the source saw deleted in the window (the API's deletion log). */
const deletionsStage: Stage<SyncInput> = {
  name: 'deletions',
  async run(input, context) {
    if (!input.source?.deletionsIn) return { deleted: 0, restored: 0 };
    const timelines = context.store.timelines(input.wiki);
    const byTitle = new Map(context.store.pages.pageTitles(input.wiki).map((row) => [row.title, row.pageId]));
    let deleted = 0;
    let restored = 0;
    // Oldest first: a page deleted and then restored is alive again.
    for (const deletion of await input.source.deletionsIn(input.window)) {
      const pageId = deletion.pageId && input.onlyPages.has(deletion.pageId) ? deletion.pageId : byTitle.get(deletion.title);
      if (pageId === undefined || !input.onlyPages.has(pageId)) continue;
      if (deletion.restored) {
        timelines.markRestored(pageId, deletion.timestamp);
        restored++;
      } else {
        timelines.markDeleted(pageId, deletion.timestamp);
        deleted++;
      }
    }
    return { deleted, restored };
  },
};

/**
 * advance: every tracked page's history is now held up to the sync date, or where its source ends
 * before it: the changed ones were collected (the timeline stage recorded them), the others held
 * still since their latest instant held.
 */
const advanceStage: Stage<SyncInput> = {
  name: 'advance',
  async run(input, context) {
    context.store.timelines(input.wiki).markUnchanged([...input.onlyPages], heldWindow(input));
    return { pages: input.onlyPages.size };
  },
};

/** finalize: the update-frequency class of every pending query whose 21 days the extended timelines now hold. */
const finalizeStage: Stage<SyncInput> = {
  name: 'finalize',
  async run(_input, context) {
    return finalizeUpdateFrequency(context.store);
  },
};

const syncStages: ReadonlyArray<Stage<SyncInput>> = [collectThroughSourceStage, parseStage, labelsStage, timelineStage, deletionsStage, advanceStage, finalizeStage];

/**
 * Extends the timelines of every tracked page up to `until`, or where the source ends before it
 * (the run's `sourceEnd` parameter): only pages changed since their sync mark are fetched (the
 * source skips the others before asking for any revision), their new revisions parsed, and their
 * timelines rebuilt.
 */
export async function runSync(options: {
  store: Store;
  input: Omit<SyncInput, 'window' | 'onlyPages'>;
  until: string;
  reporter: Reporter;
}): Promise<PipelineOutcome | { upToDate: true; tracked: number }> {
  const tracked = options.store.timelines(options.input.wiki).trackedPages();
  const marks = tracked.map((page) => page.syncedUntil).filter((mark): mark is string => mark !== null && mark !== '');
  const since = marks.length > 0 ? marks.reduce((a, b) => (a < b ? a : b)) : null;
  if (since === null || since >= options.until) return { upToDate: true, tracked: tracked.length };
  const window = { start: since, end: options.until };
  return runPipeline({
    store: options.store,
    pipeline: 'sync',
    params: { wiki: options.input.wiki, since, until: options.until },
    stages: syncStages,
    selected: syncStages.map((stage) => stage.name),
    input: { ...options.input, window, onlyPages: new Set(tracked.map((page) => page.pageId)) },
    reporter: options.reporter,
  });
}

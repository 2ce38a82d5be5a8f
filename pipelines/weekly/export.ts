import type { Window } from '../../src/model.js';
import type { TimeAxis } from '../../src/model/timelines.js';
import type { Stage } from '../../src/runs/stageRunner.js';
import type { Store } from '../../src/store/store.js';
import { defaultReleaseDir, renderWeeklyRelease, type ReleaseCounts } from '../../src/release/weeklyRelease.js';
import { writeRelease, type PreviousRelease, type WrittenRelease } from '../../src/release/writeRelease.js';
import { weeklyFigures, withFigures } from '../../src/plots/datasetFigures.js';
import type { WeeklyInput } from './input.js';

/**
 * export: the week's release (queries and answers tables, per-date DailyQA files, native JSONL,
 * dataset card, the figures of the weeks up to it), with its manifest and its changes since the
 * release it follows.
 */
export const exportStage: Stage<WeeklyInput> = {
  name: 'export',
  after: ['classify', 'timeline'],
  async run(input, context) {
    const dir = input.releaseDir ?? defaultReleaseDir(context.store.path, input.window.start, input.wiki);
    const { written, counts } = await writeWeeklyRelease(context.store, { wiki: input.wiki, window: input.window, axis: 'edit', dir, previous: 'auto' });
    context.reporter.event('release written', { dir, files: written.manifest.files.length + 1, version: written.manifest.version });
    return { files: written.manifest.files.length + 1, ...counts };
  },
};

/**
 * The week's release rendered from the store with the figures of the weeks up to it (on its time
 * axis) and written to `dir`: what the export stage writes, and `export weekly` again later.
 */
export async function writeWeeklyRelease(
  store: Store,
  options: { wiki: string; window: Window; axis: TimeAxis; dir: string; previous: PreviousRelease },
): Promise<{ written: WrittenRelease; counts: ReleaseCounts }> {
  const { draft, counts } = await renderWeeklyRelease(store, options.wiki, options.window, options.axis);
  const files = await withFigures(draft.files, weeklyFigures(store, options.window.start.slice(0, 10), options.axis, options.wiki));
  return { written: await writeRelease(store, options.dir, { ...draft, files }, options.previous), counts };
}

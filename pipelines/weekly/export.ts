import type { Stage } from '../../src/runs/stageRunner.js';
import { defaultReleaseDir, renderWeeklyRelease } from '../../src/release/weeklyRelease.js';
import { writeRelease } from '../../src/release/writeRelease.js';
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
    const dir = input.releaseDir ?? defaultReleaseDir(context.db.name, input.window.start);
    const { draft, counts } = await renderWeeklyRelease(context.db, input.wiki, input.window);
    const files = await withFigures(draft.files, weeklyFigures(context.db, input.window.start.slice(0, 10)));
    const written = await writeRelease(context.db, dir, { ...draft, files });
    context.reporter.event('release written', { dir, files: written.manifest.files.length + 1, version: written.manifest.version });
    return { files: written.manifest.files.length + 1, ...counts };
  },
};

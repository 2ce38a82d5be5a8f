import type { Stage } from '../../src/runs/stageRunner.js';
import { writeFilesAtomically } from '../../src/release/atomicFiles.js';
import { defaultReleaseDir, renderWeeklyRelease } from '../../src/release/weeklyRelease.js';
import { weeklyFigures, withFigures } from '../../src/plots/datasetFigures.js';
import type { WeeklyInput } from './input.js';

/** export: the week's release files (queries, per-date DailyQA files, native JSONL, dataset card, the figures of the weeks up to it). */
export const exportStage: Stage<WeeklyInput> = {
  name: 'export',
  after: ['classify', 'timeline'],
  async run(input, context) {
    const dir = input.releaseDir ?? defaultReleaseDir(context.db.name, input.window.start);
    const rendered = renderWeeklyRelease(context.db, input.wiki, input.window);
    const files = await withFigures(rendered.files, weeklyFigures(context.db, input.window.start.slice(0, 10)));
    const counts = rendered.counts;
    writeFilesAtomically(dir, files);
    context.reporter.event('release written', { dir, files: files.size });
    return { files: files.size, ...counts };
  },
};

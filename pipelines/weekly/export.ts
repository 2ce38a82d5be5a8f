import type { Stage } from '../../src/runs/stageRunner.js';
import { writeFilesAtomically } from '../../src/release/atomicFiles.js';
import { defaultReleaseDir, renderWeeklyRelease } from '../../src/release/weeklyRelease.js';
import type { WeeklyInput } from './input.js';

/** export: the week's release files (queries, per-date DailyQA files, native JSONL, dataset card). */
export const exportStage: Stage<WeeklyInput> = {
  name: 'export',
  after: ['classify', 'timeline'],
  async run(input, context) {
    const dir = input.releaseDir ?? defaultReleaseDir(context.db.name, input.window.start);
    const { files, counts } = renderWeeklyRelease(context.db, input.wiki, input.window);
    writeFilesAtomically(dir, files);
    context.reporter.event('release written', { dir, files: files.size });
    return { files: files.size, ...counts };
  },
};

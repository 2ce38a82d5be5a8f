import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { weeklyStages } from '../../../../pipelines/weekly.js';
import { RecordingReporter } from '../../../../src/runs/progress.js';
import { runPipeline, type Stage } from '../../../../src/runs/stageRunner.js';
import { Store } from '../../../../src/store/store.js';

/** The weekly stages as they depend on each other, each only logging that it ran. */
function loggingStages(log: string[]): Array<Stage<null>> {
  return weeklyStages.map((stage) => ({
    name: stage.name,
    ...(stage.after ? { after: stage.after } : {}),
    ...(stage.reads ? { reads: stage.reads } : {}),
    async run() {
      log.push(stage.name);
      return {};
    },
  }));
}

describe('the weekly stages read what they declare', () => {
  it('selects and rebuilds the timelines again when the labels are redone: the names decide what is asked and how answers read', async () => {
    const store = Store.open(join(mkdtempSync(join(tmpdir(), 'wikidelta-stages-')), 'w.sqlite'));
    const params = { window: { start: 'a', end: 'b' } };
    const all = weeklyStages.map((stage) => stage.name);
    const reporter = new RecordingReporter();
    await runPipeline({ store, pipeline: 'weekly', params, stages: loggingStages([]), selected: all, input: null, reporter });
    const log: string[] = [];
    const redone = await runPipeline({ store, pipeline: 'weekly', params, stages: loggingStages(log), selected: all, redo: ['labels'], input: null, reporter });
    expect(redone.executed).toEqual(expect.arrayContaining(['labels', 'select', 'timeline', 'export']));
    expect(redone.skipped).toEqual(expect.arrayContaining(['collect', 'parse', 'diff']));
    store.close();
  });

  it('runs select without the labels stage when asked to (a week of infoboxes needs no names)', async () => {
    const store = Store.open(join(mkdtempSync(join(tmpdir(), 'wikidelta-stages-')), 'w.sqlite'));
    const log: string[] = [];
    const selected = ['collect', 'parse', 'diff', 'select'];
    const outcome = await runPipeline({ store, pipeline: 'weekly', params: { window: { start: 'a', end: 'b' } }, stages: loggingStages(log), selected, input: null, reporter: new RecordingReporter() });
    expect(outcome.executed).toEqual(selected);
    expect(log).toEqual(selected);
    store.close();
  });
});

import type { Store } from '../src/store/store.js';
import { UserError } from '../src/errors.js';
import type { Reporter } from '../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../src/runs/stageRunner.js';
import { collectStage } from './weekly/collect.js';
import { diffStage } from './weekly/diff.js';
import { finalizeStage } from './weekly/finalize.js';
import { labelsStage } from './weekly/labels.js';
import { parseStage } from './weekly/parse.js';
import { selectStage } from './weekly/select.js';
import { timelineStage } from './weekly/timeline.js';
import { generateStage, refuseWindowSharingIds } from './weekly/generate.js';
import { checkStage } from './weekly/check.js';
import { classifyStage } from './weekly/classify.js';
import { exportStage } from './weekly/export.js';
import type { WeeklyInput } from './weekly/input.js';

export type { WeeklyInput } from './weekly/input.js';

/** The weekly pipeline's stages, in the order they run. */
export const weeklyStages: ReadonlyArray<Stage<WeeklyInput>> = [
  collectStage, parseStage, labelsStage, diffStage, selectStage, timelineStage, generateStage, checkStage, classifyStage, exportStage, finalizeStage,
];

export const WEEKLY_STAGES: readonly string[] = weeklyStages.map((stage) => stage.name);

/** Runs the weekly pipeline's chosen stages under one resumable run record. */
export function runWeekly(options: {
  store: Store;
  input: WeeklyInput;
  stages: readonly string[];
  /** Stages to run again although done (each among `stages`). */
  redo?: readonly string[];
  reporter: Reporter;
  params: Record<string, unknown>;
}): Promise<PipelineOutcome> {
  const unknown = [...options.stages, ...(options.redo ?? [])].filter((stage) => !weeklyStages.some((s) => s.name === stage));
  if (unknown.length > 0) {
    throw new UserError('E_FLAG_INVALID', `unknown stage "${unknown.join('", "')}": the weekly stages are ${weeklyStages.map((s) => s.name).join(', ')}`);
  }
  refuseWindowSharingIds(options.store, options.input.wiki, options.input.window);
  return runPipeline({
    store: options.store,
    pipeline: 'weekly',
    params: options.params,
    stages: weeklyStages,
    selected: options.stages,
    redo: options.redo ?? [],
    input: options.input,
    reporter: options.reporter,
  });
}

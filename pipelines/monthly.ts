/**
 * The monthly pipeline proper (pipeline `monthly`, docs/ARCHITECTURE.md §7): after the labels
 * between two snapshots, `maintain` carries the items whose evidence is unchanged into the new
 * snapshot and retires the others, and `generate` makes new items (initial ones for articles without
 * earlier items, the others from new and changed sentences). Without an old snapshot only
 * `generate` runs, initially for every article. Each article's work is one transaction with its
 * done marker: a killed run resumes at the next article, a rerun changes nothing. A month's items
 * are made from the month before's, so writing them clears the later months' results, and a later
 * month's stage recorded done whose results were cleared runs again (./monthly/articlesToDo.ts).
 */
import type { Store } from '../src/store/store.js';
import { modelRunParams } from '../src/models/modelSet.js';
import type { Reporter } from '../src/runs/progress.js';
import { runPipeline, type PipelineOutcome } from '../src/runs/stageRunner.js';
import { generateStage } from './monthly/generate.js';
import { runLabel } from './monthly/label.js';
import type { MonthlyInput, MonthlyStage } from './monthly/input.js';
import { maintainStage } from './monthly/maintain.js';

export type { MonthlyInput } from './monthly/input.js';

/** The monthly pipeline's stages, in the order they run. */
const monthlyStages: readonly MonthlyStage[] = [maintainStage, generateStage];

/**
 * Labels the pair first when they are not yet (the label pipeline skips what it already did), with
 * the very models `label` would get, the fact-reading pool among them; returns that labeling's
 * outcome beside the monthly run's.
 */
export async function runMonthly(options: {
  store: Store;
  reporter: Reporter;
  input: MonthlyInput;
  llm: string;
  redo?: readonly string[];
}): Promise<PipelineOutcome & { labeling: PipelineOutcome | null }> {
  const { store, reporter, input } = options;
  const snapshots = store.snapshots;
  snapshots.requireSnapshot(input.newName);
  let labeling: PipelineOutcome | null = null;
  if (input.oldName !== undefined) {
    snapshots.requireSnapshot(input.oldName);
    labeling = await runLabel({ store, reporter, input: { ...input, oldName: input.oldName } });
  }
  const stages = input.oldName === undefined ? monthlyStages.filter((stage) => stage !== maintainStage) : monthlyStages;
  const params = { old: input.oldName ?? null, new: input.newName, llm: options.llm, seed: input.seed, ...modelRunParams(input) };
  // A stage recorded done whose results the store no longer holds whole (cleared when an earlier
  // month was made again) runs again, as if redone.
  const recorded = store.runs.findRun('monthly', params)?.stages ?? [];
  const cleared = stages.filter((stage) => recorded.find((record) => record.stage === stage.name)?.status === 'done' && stage.unfinished(input, store));
  for (const stage of cleared) reporter.event('running again: its results were cleared since it ran, an earlier snapshot made again', { stage: stage.name });
  const outcome = await runPipeline({
    store,
    pipeline: 'monthly',
    params,
    stages,
    selected: stages.map((stage) => stage.name),
    redo: [...new Set([...(options.redo ?? []), ...cleared.map((stage) => stage.name)])],
    input,
    reporter,
  });
  return { ...outcome, labeling };
}

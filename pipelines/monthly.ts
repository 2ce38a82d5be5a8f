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
import { isMonthName, latestMonthBefore } from '../src/dates.js';
import { modelRunParams } from '../src/models/modelSet.js';
import type { Reporter } from '../src/runs/progress.js';
import { runPipeline, type PipelineOutcome } from '../src/runs/stageRunner.js';
import type { RunRecord } from '../src/store/runStore.js';
import type { GrowoverStage } from '../src/model/growover.js';
import { generateStage } from './monthly/generate.js';
import { runLabel } from './monthly/label.js';
import type { MonthlyInput, MonthlyPair, MonthlyStage } from './monthly/input.js';
import { maintainStage } from './monthly/maintain.js';
import { requireWholeSnapshot } from './monthly/snapshot.js';
import { laterRunOnSameTarget } from './otherRuns.js';

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
  requireWholeSnapshot(store, input.newName);
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
  const relabeled = labeling?.executed.includes('label') === true;
  const cleared = stages.filter((stage) => recorded.find((record) => record.stage === stage.name)?.status === 'done' && (relabeled || stage.unfinished(input, store)));
  for (const stage of cleared) {
    const why = relabeled ? 'the labels it reads were made again' : 'its results were cleared since it ran, an earlier snapshot made again';
    reporter.event(`running again: ${why}`, { stage: stage.name });
  }
  // The snapshot holds one set of items: those of the monthly run that last worked on them. Made by
  // another run (another --old, seed or model), they are made again for this one's parameters.
  const replaced = stages.filter((stage) => !cleared.includes(stage)).flatMap((stage) => {
    const other = madeByAnotherRun(store, params, stage);
    return other === undefined ? [] : [{ stage, other }];
  });
  for (const { stage, other } of replaced) {
    reporter.warn(`items of ${input.newName} made by another monthly run replaced: run ${other.id} (old=${String(other.params.old ?? '-')}) made them, this run makes them again`, { stage: stage.name, run: other.id });
  }
  const outcome = await runPipeline({
    store,
    pipeline: 'monthly',
    params,
    stages,
    selected: stages.map((stage) => stage.name),
    redo: [...new Set([...(options.redo ?? []), ...[...cleared, ...replaced.map(({ stage }) => stage)].map((stage) => stage.name)])],
    input,
    reporter,
  });
  return { ...outcome, labeling };
}

/** The other monthly run of the same new snapshot that made the stage's results the store holds, if any. */
function madeByAnotherRun(store: Store, params: Record<string, unknown>, stage: MonthlyStage): RunRecord | undefined {
  const newName = params.new as string;
  const holdsSome = store.snapshots.articles(newName).some((article) => store.growover.isDone(newName, article.pageId, stage.name as GrowoverStage));
  return holdsSome ? laterRunOnSameTarget(store, 'monthly', params, stage.name, (other) => other.new === newName) : undefined;
}

/**
 * The done stages of a monthly run whose results the store no longer holds whole: cleared since the
 * run made them, when an earlier month of its wiki was made again (./monthly/articlesToDo.ts). The
 * run is to run again (its `monthly`, given again, does); `status` shows it so.
 */
export function clearedStages(store: Store, run: RunRecord): string[] {
  const { old, new: newName } = run.params;
  if (run.pipeline !== 'monthly' || typeof newName !== 'string') return [];
  const pair: MonthlyPair = { newName, ...(typeof old === 'string' ? { oldName: old } : {}) };
  return run.stages
    .filter((record) => record.status === 'done' && monthlyStages.find((stage) => stage.name === record.stage)?.unfinished(pair, store) === true)
    .map((record) => record.stage);
}

/**
 * The months `monthly --last-month` runs, oldest first, each with the month snapshot before it as
 * the old one: the month snapshots (YYYY-MM) after the latest one whose items the store holds from a
 * done run, then `lastMonth`. A month snapshotted whose run never ran (or whose items were cleared) is
 * run from the snapshot it has, so the months after it are not made from a month without items,
 * which would start them over; a month never snapshotted is bridged. With none due, `lastMonth` alone
 * (its done run is continued: nothing to do).
 */
export function monthsDue(store: Store, lastMonth: string): Array<{ oldName: string | undefined; newName: string }> {
  const names = store.snapshots.snapshotNames();
  const months = names.filter((name) => isMonthName(name) && name <= lastMonth).sort();
  const runsOf = new Map<string, number[]>();
  for (const row of store.runs.runsOf(['monthly'])) {
    const month = (row.params as { new?: unknown } | null)?.new;
    if (typeof month === 'string') runsOf.set(month, [...(runsOf.get(month) ?? []), row.id]);
  }
  const held = (month: string) =>
    (runsOf.get(month) ?? []).some((id) => {
      const run = store.runs.getRun(id);
      return run?.status === 'done' && clearedStages(store, run).length === 0;
    });
  // From the newest back: a cron month finds the month before it held at the first or second look.
  const latestHeld = [...months].reverse().find(held) ?? '';
  const due = months.filter((name) => name > latestHeld && name < lastMonth);
  return [...due, lastMonth].map((newName) => ({ oldName: latestMonthBefore(names, newName), newName }));
}

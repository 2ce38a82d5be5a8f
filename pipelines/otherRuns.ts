/**
 * Which run's results the store holds. A week holds one set of data units and questions, a snapshot
 * pair one set of labels and a snapshot one set of items, whatever parameters (another seed, revert
 * horizon, --old or model) made them: the run that worked on a stage last. A run whose results were
 * replaced since makes them again (docs/ARCHITECTURE.md §7.4, §9).
 */
import type { Store } from '../src/store/store.js';
import type { RunRecord } from '../src/store/runStore.js';

/**
 * The newest other run of the pipeline on the same target (`sameTarget` of its parameters) that worked
 * on the stage after the run of `params` last did (or at all, when that run never did).
 */
export function laterRunOnSameTarget(
  store: Store,
  pipeline: string,
  params: Record<string, unknown>,
  stage: string,
  sameTarget: (other: Record<string, unknown>) => boolean,
): RunRecord | undefined {
  const mine = store.runs.findRun(pipeline, params);
  const touched = (run: RunRecord | undefined) => {
    const record = run?.stages.find((s) => s.stage === stage);
    return [record?.startedAt ?? '', record?.finishedAt ?? ''].sort().at(-1) as string;
  };
  const since = touched(mine);
  return store.runs
    .runsOf([pipeline])
    .filter((run) => run.id !== mine?.id && run.params !== null && typeof run.params === 'object' && sameTarget(run.params as Record<string, unknown>))
    .map((run) => store.runs.getRun(run.id))
    .filter((run): run is RunRecord => run !== undefined && touched(run) > since)
    .sort((a, b) => touched(b).localeCompare(touched(a)))[0];
}

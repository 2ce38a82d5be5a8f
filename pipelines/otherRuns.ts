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
  const mine = store.runs.findRun(pipeline, params)?.id;
  const runs = store.runs.stageTouches(pipeline, stage);
  const since = runs.find((run) => run.id === mine)?.touchedAt ?? '';
  const later = runs
    .filter((run) => run.id !== mine && run.touchedAt > since && run.params !== null && typeof run.params === 'object' && sameTarget(run.params as Record<string, unknown>))
    .sort((a, b) => b.touchedAt.localeCompare(a.touchedAt))[0];
  return later === undefined ? undefined : store.runs.getRun(later.id);
}

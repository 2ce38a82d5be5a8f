/**
 * The store's runs that wrote what a release holds, as its manifest names them (docs/ARCHITECTURE.md
 * §8). A weekly release: the weekly and sync runs of its wiki (any of them may have stored the
 * revisions its answers' intervals come from), never another wiki's. A GrowOVER or labels release:
 * the snapshot, label and monthly runs of its snapshot and of the snapshots before it (the items and
 * labels it keeps were made there), never a later month's. A DailyQA range: every weekly and sync run.
 */
import { z } from 'zod';
import type { PipelineName, RunStore } from '../store/runStore.js';
import type { ReleaseKind } from './manifest.js';

/** The pipelines whose runs write what each release kind reads. */
const PIPELINES: Record<ReleaseKind, readonly PipelineName[]> = {
  weekly: ['weekly', 'sync'],
  dailyqa: ['weekly', 'sync'],
  growover: ['monthly-snapshot', 'monthly-label', 'monthly'],
  labels: ['monthly-snapshot', 'monthly-label', 'monthly'],
};

const WikiParams = z.looseObject({ wiki: z.string().optional() });
/** A snapshot run names its snapshot `name` (with its `asOf`); label and monthly runs the one they make, `new`. */
const SnapshotParams = z.looseObject({ name: z.string().optional(), new: z.string().optional(), asOf: z.string().optional() });

/**
 * The runs of the release's data, oldest first.
 *
 * @param runs - the store's run records
 * @param kind - the release kind
 * @param parameters - the release's parameters (`wiki` of a weekly release; `snapshot` of GrowOVER, `new` of labels)
 * @example releaseRuns(store.runs, 'weekly', { start: '2025-01-06', days: 7, wiki: 'enwiki' }) // [{ id: 3, pipeline: 'weekly' }, …]
 */
export function releaseRuns(runs: RunStore, kind: ReleaseKind, parameters: Record<string, unknown>): Array<{ id: number; pipeline: string }> {
  const all = runs.runsOf(PIPELINES[kind]);
  const asOf = asOfBySnapshot(all);
  const keep = (run: (typeof all)[number]): boolean => {
    if (kind === 'weekly') return WikiParams.safeParse(run.params).data?.wiki === parameters['wiki'];
    if (kind === 'dailyqa') return true;
    const made = SnapshotParams.safeParse(run.params).data;
    const target = asOf.get(String(kind === 'growover' ? parameters['snapshot'] : parameters['new']));
    const own = asOf.get(made?.new ?? made?.name ?? '');
    // A run whose snapshot the store cannot date is kept: leaving out a run that wrote the data would be the worse error.
    return target === undefined || own === undefined || own <= target;
  };
  return all.filter(keep).map(({ id, pipeline }) => ({ id, pipeline }));
}

/** Each snapshot's as-of instant, from the runs that took it. */
function asOfBySnapshot(runs: ReadonlyArray<{ pipeline: string; params: unknown }>): Map<string, string> {
  const asOf = new Map<string, string>();
  for (const run of runs) {
    const params = SnapshotParams.safeParse(run.params).data;
    if (run.pipeline === 'monthly-snapshot' && params?.name !== undefined && params.asOf !== undefined) asOf.set(params.name, params.asOf);
  }
  return asOf;
}

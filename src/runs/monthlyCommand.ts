/**
 * The `monthly` command that makes a snapshot's GrowOVER items, as the lines refusing a month without
 * them name it. A month's items are made from the month before's (docs/ARCHITECTURE.md §7.4): the
 * command names that old snapshot, since without `--old` the month would start over from nothing.
 */
import { isMonthName, latestMonthBefore } from '../dates.js';
import type { Store } from '../store/store.js';

/**
 * The command that makes (or finishes) the snapshot's items: with the old snapshot its latest monthly
 * run took, else, for a month snapshot, the month snapshot before it.
 *
 * @example monthlyCommandFor(store, '2025-03') // 'wikidelta monthly --old 2025-02 --new 2025-03'
 */
export function monthlyCommandFor(store: Store, snapshot: string): string {
  const run = store.runs
    .runsOf(['monthly'])
    .filter((row) => typeof row.params === 'object' && row.params !== null && (row.params as { new?: unknown }).new === snapshot)
    .at(-1);
  const ranFrom = (run?.params as { old?: unknown } | undefined)?.old;
  const old = typeof ranFrom === 'string' ? ranFrom : isMonthName(snapshot) ? latestMonthBefore(store.snapshots.snapshotNames(), snapshot) : undefined;
  return `wikidelta monthly ${old === undefined ? '' : `--old ${old} `}--new ${snapshot}`;
}

/**
 * Refuses the items of a snapshot whose monthly run stopped part way (`GrowoverStore.requireWholeItems`),
 * naming the command that finishes the month; that command is looked up only for the refusal.
 */
export function requireWholeMonth(store: Store, snapshot: string): void {
  store.growover.requireWholeItems(snapshot, () => monthlyCommandFor(store, snapshot));
}

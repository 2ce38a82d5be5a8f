/**
 * Where an annotator is in their assignment: the item to show (the one asked for, else the first
 * still to do, else the skipped ones in the order they were skipped), its neighbours for the arrow
 * keys, and the verdict `u` withdraws. Pure, from the store's list of assigned items with the
 * annotator's own verdicts, withdrawals and skips.
 */
import type { Judgment } from '../model/audit.js';
import type { AssignedItem } from '../store/auditStore.js';

export type Assigned = AssignedItem;

/** An item as its annotator's history lists it. */
export type ItemState = 'judged' | 'skipped' | 'todo';

export function stateOf(entry: Assigned): ItemState {
  if (entry.latest !== null) return 'judged';
  return entry.skipped === null ? 'todo' : 'skipped';
}

export interface Whereabouts {
  total: number;
  judged: number;
  skipped: number;
  /** The item shown with its place (1-based) in the assignment, or null when all are judged. */
  current: { itemId: number; position: number; latest: Judgment | null; withdrawn: Judgment | null; skipped: boolean; version: number } | null;
  previous: number | null;
  next: number | null;
  /** The item whose verdict `u` withdraws: the one shown if judged, else the one judged last. */
  undo: number | null;
  /** The version of that verdict, sent with the withdrawal so that a stale page withdraws nothing it did not show. */
  undoVersion: number | null;
}

/** How far the annotator is: the page's counter of items judged and skipped out of all assigned. */
export function progressOf(assigned: readonly Assigned[]): Pick<Whereabouts, 'total' | 'judged' | 'skipped'> {
  return {
    total: assigned.length,
    judged: assigned.filter((entry) => entry.latest !== null).length,
    skipped: assigned.filter((entry) => stateOf(entry) === 'skipped').length,
  };
}

/** The items in queue order: first those still to do by position, then the skipped ones as skipped. */
export function queueOrder(assigned: readonly Assigned[]): Assigned[] {
  const ordered = [...assigned].sort((a, b) => a.position - b.position);
  const skipped = ordered.filter((entry) => stateOf(entry) === 'skipped').sort((a, b) => (a.skipped as number) - (b.skipped as number));
  return [...ordered.filter((entry) => stateOf(entry) === 'todo'), ...skipped];
}

/** Null when `requested` is not among the annotator's items. */
export function whereabouts(assigned: readonly Assigned[], requested: number | null): Whereabouts | null {
  const ordered = [...assigned].sort((a, b) => a.position - b.position);
  const entry = requested === null ? queueOrder(ordered)[0] : ordered.find((candidate) => candidate.itemId === requested);
  if (requested !== null && entry === undefined) return null;
  const index = entry === undefined ? -1 : ordered.indexOf(entry);
  const lastJudged = ordered.filter((candidate) => candidate.latest !== null).sort((a, b) => (b.latest as Judgment).id - (a.latest as Judgment).id)[0];
  const undo = entry?.latest ? entry : lastJudged;
  return {
    ...progressOf(ordered),
    current: entry ? { itemId: entry.itemId, position: index + 1, latest: entry.latest, withdrawn: entry.withdrawn, skipped: entry.skipped !== null, version: entry.version } : null,
    previous: (entry ? ordered[index - 1] : ordered.at(-1))?.itemId ?? null,
    next: entry ? (ordered[index + 1]?.itemId ?? null) : null,
    undo: undo?.itemId ?? null,
    undoVersion: undo?.version ?? null,
  };
}

/**
 * Where an annotator is in their assignment: the item to show (the one asked for, else the first
 * not yet judged), its neighbours for the arrow keys, and the item `u` goes back to. Pure, from
 * the store's list of assigned items with the annotator's own latest judgments.
 */
import type { Judgment } from '../audit/model.js';

export interface Assigned {
  itemId: number;
  key: string;
  position: number;
  latest: Judgment | null;
}

export interface Whereabouts {
  total: number;
  judged: number;
  /** The item shown with its place (1-based) in the assignment, or null when all are judged. */
  current: { itemId: number; position: number; latest: Judgment | null } | null;
  previous: number | null;
  next: number | null;
  undo: number | null;
}

/** Null when `requested` is not among the annotator's items. */
export function whereabouts(assigned: readonly Assigned[], requested: number | null): Whereabouts | null {
  const ordered = [...assigned].sort((a, b) => a.position - b.position);
  const index = requested === null ? ordered.findIndex((entry) => entry.latest === null) : ordered.findIndex((entry) => entry.itemId === requested);
  if (requested !== null && index === -1) return null;
  const entry = index === -1 ? undefined : ordered[index];
  const byRecency = ordered.filter((candidate) => candidate.latest !== null).sort((a, b) => (b.latest as Judgment).id - (a.latest as Judgment).id);
  const recencyIndex = entry ? byRecency.indexOf(entry) : -1;
  const undo = recencyIndex === -1 ? byRecency[0] : byRecency[recencyIndex + 1];
  return {
    total: ordered.length,
    judged: ordered.length - ordered.filter((candidate) => candidate.latest === null).length,
    current: entry ? { itemId: entry.itemId, position: index + 1, latest: entry.latest } : null,
    previous: (entry ? ordered[index - 1] : ordered.at(-1))?.itemId ?? null,
    next: entry ? (ordered[index + 1]?.itemId ?? null) : null,
    undo: undo?.itemId ?? null,
  };
}

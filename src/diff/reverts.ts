import { hoursBetween } from '../dates.js';

/** A revision as revert detection reads it: its id, time and content hash (null when hidden). */
export interface RevisionHash {
  revId: number;
  timestamp: string;
  sha1: string | null;
}

/**
 * Identity reverts: a revision whose content hash equals that of an earlier revision, within
 * `horizonHours` of the revisions it undoes, reverts everything in between. Returns, for every
 * revision that was undone and for the reverting revision itself, the id of the reverting revision.
 * Revisions must be given oldest first.
 *
 * @param revisions - a page's revisions, oldest first, with their timestamps and content hashes
 * @param horizonHours - how long after an edit its restoration still counts as a revert (48 in the pipelines)
 * @returns reverted or reverting revision id → the reverting revision's id
 * @example findReverts([{ revId: 1, … sha1: 'a' }, { revId: 2, … sha1: 'b' }, { revId: 3, … sha1: 'a' }], 48) // Map { 2 → 3, 3 → 3 }
 */
export function findReverts(revisions: readonly RevisionHash[], horizonHours: number): Map<number, number> {
  const revertedBy = new Map<number, number>();
  const lastIndexOfHash = new Map<string, number>();
  revisions.forEach((revision, index) => {
    const { sha1 } = revision;
    if (sha1 === null) return;
    const restored = lastIndexOfHash.get(sha1);
    if (restored !== undefined && restored < index - 1) {
      const undone = revisions.slice(restored + 1, index);
      const first = undone[0] as RevisionHash;
      if (hoursBetween(first.timestamp, revision.timestamp) <= horizonHours) {
        for (const u of undone) if (!revertedBy.has(u.revId)) revertedBy.set(u.revId, revision.revId);
        revertedBy.set(revision.revId, revision.revId);
      }
    }
    lastIndexOfHash.set(sha1, index);
  });
  return revertedBy;
}

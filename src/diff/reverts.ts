import { hoursBetween } from '../dates.js';

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

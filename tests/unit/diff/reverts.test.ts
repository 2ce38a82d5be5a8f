import { describe, expect, it } from 'vitest';
import { findReverts } from '../../../src/diff/reverts.js';

const rev = (revId: number, timestamp: string, sha1: string | null) => ({ revId, timestamp, sha1 });

describe('findReverts', () => {
  it('marks a vandal edit undone within the horizon, and the revert itself', () => {
    const revisions = [rev(1, '2025-01-01T00:00:00Z', 'a'), rev(2, '2025-01-02T10:00:00Z', 'vandal'), rev(3, '2025-01-02T12:00:00Z', 'a')];
    expect(findReverts(revisions, 48)).toEqual(new Map([[2, 3], [3, 3]]));
  });

  it('marks every revision between the restored state and the revert', () => {
    const revisions = [rev(1, '2025-01-01T00:00:00Z', 'a'), rev(2, '2025-01-01T01:00:00Z', 'b'), rev(3, '2025-01-01T02:00:00Z', 'c'), rev(4, '2025-01-01T03:00:00Z', 'a')];
    expect([...findReverts(revisions, 48).keys()].sort()).toEqual([2, 3, 4]);
  });

  it('ignores a return to an old state after the horizon', () => {
    const revisions = [rev(1, '2025-01-01T00:00:00Z', 'a'), rev(2, '2025-01-02T00:00:00Z', 'b'), rev(3, '2025-01-05T00:00:01Z', 'a')];
    expect(findReverts(revisions, 48).size).toBe(0);
    expect(findReverts(revisions, 24 * 4).size).toBe(2);
  });

  it('does not take a null revision (same hash as its parent, e.g. a move) for a revert', () => {
    const revisions = [rev(1, '2025-01-01T00:00:00Z', 'a'), rev(2, '2025-01-01T01:00:00Z', 'a'), rev(3, '2025-01-01T02:00:00Z', 'b')];
    expect(findReverts(revisions, 48).size).toBe(0);
  });

  it('skips revisions without a hash', () => {
    const revisions = [rev(1, '2025-01-01T00:00:00Z', null), rev(2, '2025-01-01T01:00:00Z', 'b'), rev(3, '2025-01-01T02:00:00Z', null)];
    expect(findReverts(revisions, 48).size).toBe(0);
  });
});

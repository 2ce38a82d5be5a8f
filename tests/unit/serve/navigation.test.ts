import { describe, expect, it } from 'vitest';
import type { Judgment } from '../../../src/audit/model.js';
import { FailedAttempts } from '../../../src/serve/failedAttempts.js';
import { whereabouts, type Assigned } from '../../../src/serve/navigation.js';

const judged = (judgmentId: number, itemId: number): Judgment => ({
  id: judgmentId, itemId, annotatorId: 1, verdict: 'correct', label: null, answer: null, note: null, seconds: 1, createdAt: '2024-01-01T00:00:00Z',
});
/** Items 10, 20, 30, 40 in positions 0..3; 10 judged first (row 1), then 30 (row 5). */
const assigned: Assigned[] = [
  { itemId: 30, key: 'k30', position: 2, latest: judged(5, 30) },
  { itemId: 10, key: 'k10', position: 0, latest: judged(1, 10) },
  { itemId: 20, key: 'k20', position: 1, latest: null },
  { itemId: 40, key: 'k40', position: 3, latest: null },
];

describe('whereabouts', () => {
  it('shows the first unjudged item by position, its neighbours, and the last verdict for undo', () => {
    const here = whereabouts(assigned, null)!;
    expect(here.current?.itemId).toBe(20);
    expect(here.current?.position).toBe(2);
    expect([here.total, here.judged, here.previous, here.next, here.undo]).toEqual([4, 2, 10, 30, 30]);
  });

  it('walks undo back through the verdicts, newest first', () => {
    expect(whereabouts(assigned, 30)!.undo).toBe(10);
    expect(whereabouts(assigned, 10)!.undo).toBeNull();
  });

  it('says null for an item that is not assigned, and offers the last item once all are judged', () => {
    expect(whereabouts(assigned, 99)).toBeNull();
    const all = assigned.map((entry, index) => ({ ...entry, latest: entry.latest ?? judged(10 + index, entry.itemId) }));
    const done = whereabouts(all, null)!;
    expect(done.current).toBeNull();
    expect([done.previous, done.next, done.judged]).toEqual([40, null, 4]);
  });
});

describe('failed token attempts', () => {
  it('blocks an address past the limit until its failures leave the window, others unaffected', () => {
    let now = 0;
    const attempts = new FailedAttempts({ limit: 3, windowMs: 10_000, now: () => now });
    for (let i = 0; i < 3; i++) {
      expect(attempts.retryAfter('a')).toBe(0);
      attempts.record('a');
      now += 1000;
    }
    expect(attempts.retryAfter('a')).toBe(7);
    expect(attempts.retryAfter('b')).toBe(0);
    now = 10_001;
    expect(attempts.retryAfter('a')).toBe(0);
  });

  it('forgets the least recently failing address past its cap', () => {
    const attempts = new FailedAttempts({ limit: 1, maxAddresses: 2 });
    attempts.record('a');
    attempts.record('b');
    attempts.record('c');
    expect(['a', 'b', 'c'].map((address) => attempts.retryAfter(address) > 0)).toEqual([false, true, true]);
  });
});

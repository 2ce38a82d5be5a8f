import { describe, expect, it } from 'vitest';
import type { Judgment, JudgmentRecord } from '../../../src/model/audit.js';
import { clientAddressKey, FailedAttempts } from '../../../src/serve/failedAttempts.js';
import { queueOrder, stateOf, whereabouts, type Assigned } from '../../../src/serve/navigation.js';

const judged = (judgmentId: number, itemId: number): Judgment => ({
  id: judgmentId, itemId, annotatorId: 1, verdict: 'correct', label: null, answer: null, note: null, seconds: 1, createdAt: '2024-01-01T00:00:00Z',
});
const entry = (itemId: number, position: number, change: Partial<Assigned> = {}): Assigned => ({ itemId, key: `k${itemId}`, position, latest: null, withdrawn: null, skipped: null, version: 0, ...change });
/** Items 10, 20, 30, 40 in positions 0..3; 10 judged first (row 1), then 30 (row 5). */
const assigned: Assigned[] = [entry(30, 2, { latest: judged(5, 30) }), entry(10, 0, { latest: judged(1, 10) }), entry(20, 1), entry(40, 3)];

describe('whereabouts', () => {
  it('shows the first item to do by position, its neighbours, and the last verdict for undo', () => {
    const here = whereabouts(assigned, null)!;
    expect(here.current?.itemId).toBe(20);
    expect(here.current?.position).toBe(2);
    expect([here.total, here.judged, here.skipped, here.previous, here.next, here.undo]).toEqual([4, 2, 0, 10, 30, 30]);
  });

  it('withdraws the verdict of the item shown when it has one, else the newest verdict', () => {
    expect(whereabouts(assigned, 10)!.undo).toBe(10);
    expect(whereabouts(assigned, 30)!.undo).toBe(30);
    expect(whereabouts(assigned, 40)!.undo).toBe(30);
    expect(whereabouts([entry(1, 0), entry(2, 1)], null)!.undo).toBeNull();
    // With the version of that verdict, and the shown item's own, for the page to send back.
    const versioned = assigned.map((candidate) => ({ ...candidate, version: candidate.itemId / 10 }));
    expect(whereabouts(versioned, 40)).toMatchObject({ undo: 30, undoVersion: 3, current: { itemId: 40, version: 4 } });
    expect(whereabouts([entry(1, 0)], null)!.undoVersion).toBeNull();
  });

  it('shows a withdrawn item as unjudged, with the verdict taken back', () => {
    const withdrawal: JudgmentRecord = { ...judged(6, 30), withdrawn: true };
    const after = assigned.map((candidate) => (candidate.itemId === 30 ? { ...candidate, latest: null, withdrawn: withdrawal } : candidate));
    const here = whereabouts(after, 30)!;
    expect(here.current).toMatchObject({ itemId: 30, latest: null, withdrawn: { verdict: 'correct' } });
    expect([here.judged, here.undo]).toEqual([1, 10]);
    expect(stateOf(after.find((candidate) => candidate.itemId === 30)!)).toBe('todo');
  });

  it('brings skipped items back after every item to do, in the order they were skipped', () => {
    const skipping = [entry(1, 0, { skipped: 9 }), entry(2, 1, { skipped: 4 }), entry(3, 2), entry(4, 3, { latest: judged(2, 4) }), entry(5, 4)];
    expect(queueOrder(skipping).map((candidate) => candidate.itemId)).toEqual([3, 5, 2, 1]);
    expect(whereabouts(skipping, null)!.current?.itemId).toBe(3);
    const onlySkipped = skipping.map((candidate) => (candidate.itemId === 3 || candidate.itemId === 5 ? { ...candidate, latest: judged(7, candidate.itemId) } : candidate));
    const here = whereabouts(onlySkipped, null)!;
    expect(here.current).toMatchObject({ itemId: 2, position: 2, skipped: true });
    expect([here.judged, here.skipped]).toEqual([3, 2]);
    expect(skipping.map(stateOf)).toEqual(['skipped', 'skipped', 'todo', 'judged', 'todo']);
  });

  it('says null for an item that is not assigned, and offers the last item once all are judged', () => {
    expect(whereabouts(assigned, 99)).toBeNull();
    const all = assigned.map((candidate, index) => ({ ...candidate, latest: candidate.latest ?? judged(10 + index, candidate.itemId) }));
    const done = whereabouts(all, null)!;
    expect(done.current).toBeNull();
    expect([done.previous, done.next, done.judged, done.undo]).toEqual([40, null, 4, 40]);
  });
});

describe('failed token attempts', () => {
  it('counts a key past the limit until its failures leave the window, other keys unaffected', () => {
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

  it('forgets the least recently failing key past its cap', () => {
    const attempts = new FailedAttempts({ limit: 1, maxKeys: 2 });
    attempts.record('a');
    attempts.record('b');
    attempts.record('c');
    expect(['a', 'b', 'c'].map((key) => attempts.retryAfter(key) > 0)).toEqual([false, true, true]);
  });

  it('counts all of loopback as one client, an IPv6 client by its /64, an IPv4 one by its address', () => {
    expect(['127.0.0.1', '127.8.3.200', '::ffff:127.0.0.9', '::1', '0:0:0:0:0:0:0:1'].map(clientAddressKey)).toEqual(Array(5).fill('loopback'));
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('203.0.113.7')).not.toBe(clientAddressKey('203.0.113.8'));
    expect(clientAddressKey('2001:db8:1:2::5')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2:ffff:1:2:3')).toBe(clientAddressKey('2001:db8:1:2::5'));
    expect(clientAddressKey('2001:db8:1:3::5')).not.toBe(clientAddressKey('2001:db8:1:2::5'));
  });
});

import { describe, expect, it } from 'vitest';
import type { Revision } from '../../../src/model.js';
import type { ListedEdit, RecentChangesSpool } from '../../../src/model/recentChanges.js';
import { MemorySpool } from '../../../src/sources/recentChangesSpool.js';
import { openDatabase } from '../../../src/store/database.js';
import { RecentChangesStore } from '../../../src/store/recentChangesStore.js';

const KEY = { origin: 'https://wiki.invalid/w/api.php', start: '2025-01-04T00:00:00Z', horizonEnd: '2025-01-15T00:00:00Z' };
const WINDOW_END = '2025-01-13T00:00:00Z';
const WINDOW = { start: '2025-01-06T00:00:00Z', end: WINDOW_END };

function edit(pageId: number, revId: number, timestamp: string): ListedEdit {
  const revision: Revision = { revId, parentId: revId - 1, timestamp, sha1: `sha${revId}`, comment: `c${revId}`, user: 'U', minor: revId % 2 === 0, text: null };
  return { pageId, revision };
}

const spools: Array<[string, () => RecentChangesSpool]> = [
  ['in memory', () => new MemorySpool()],
  ['in the store', () => new RecentChangesStore(openDatabase(':memory:'))],
];

describe.each(spools)('the recent-changes spool %s', (_name, open) => {
  it('keeps replies with their continuation, and is complete after the last', () => {
    const spool = open();
    expect(spool.progress(KEY)).toEqual({ next: null, complete: false });
    spool.append(KEY, [edit(30, 301, '2025-01-06T10:00:00Z')], { rccontinue: '20250106100001|2', continue: '-||' });
    expect(spool.progress(KEY)).toEqual({ next: { rccontinue: '20250106100001|2', continue: '-||' }, complete: false });
    // A reply stored twice (a crash between the store and the next request) changes nothing.
    spool.append(KEY, [edit(30, 301, '2025-01-06T10:00:00Z')], { rccontinue: '20250106100001|2', continue: '-||' });
    spool.append(KEY, [], null);
    expect(spool.progress(KEY)).toEqual({ next: null, complete: true });
    expect(spool.pages(KEY, WINDOW, 0, 50)).toEqual([{ pageId: 30, predecessors: [], inWindow: [edit(30, 301, '2025-01-06T10:00:00Z').revision], followers: [] }]);
  });

  it('gives pages with an edit in the window (its end instant included) in page-id order, in batches, their edits oldest first and split at its start and end', () => {
    const spool = open();
    spool.append(KEY, [edit(30, 301, '2025-01-05T00:00:00Z'), edit(20, 200, '2025-01-05T12:00:00Z')], { rccontinue: 'w' });
    spool.append(KEY, [edit(20, 202, '2025-01-08T00:00:00Z'), edit(10, 101, '2025-01-07T00:00:00Z'), edit(20, 201, '2025-01-07T00:00:00Z')], { rccontinue: 'x' });
    spool.append(KEY, [edit(20, 203, WINDOW_END), edit(20, 204, '2025-01-13T00:00:01Z'), edit(40, 401, '2025-01-14T00:00:00Z'), edit(5, 51, '2025-01-12T23:59:59Z')], null);
    const first = spool.pages(KEY, WINDOW, 0, 2);
    expect(first.map((page) => page.pageId)).toEqual([5, 10]);
    const [twenty] = spool.pages(KEY, WINDOW, 10, 2);
    expect(twenty?.predecessors.map((revision) => revision.revId)).toEqual([200]);
    expect(twenty?.inWindow.map((revision) => revision.revId)).toEqual([201, 202, 203]);
    expect(twenty?.followers.map((revision) => revision.revId)).toEqual([204]);
    expect(twenty?.inWindow[1]).toEqual(edit(20, 202, '2025-01-08T00:00:00Z').revision);
    // Page 30 has only an edit before the window, page 40 only one after it: neither is a changed page.
    expect(spool.pages(KEY, WINDOW, 20, 2)).toEqual([]);
    spool.discard(KEY);
    expect(spool.pages(KEY, WINDOW, 0, 50)).toEqual([]);
    expect(spool.progress(KEY).complete).toBe(false);
  });
});

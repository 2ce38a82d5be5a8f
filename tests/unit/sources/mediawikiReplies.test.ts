/**
 * The API replies' ids: a page's or a revision's id is positive (MediaWiki's start at 1), while the
 * revision before may be 0 for none (a first revision's parent, a new page's old revision).
 */
import { describe, expect, it } from 'vitest';
import { AllPagesReply, InfoReply, RecentChangesReply, RevisionsReply } from '../../../src/sources/mediawikiReplies.js';

const change = (over: Record<string, number>) => ({ query: { recentchanges: [{ revid: 7, pageid: 3, old_revid: 0, timestamp: '2025-01-20T10:00:00Z', ...over }] } });
const revisions = (pageid: number, revision: Record<string, number>) => ({ query: { pages: [{ pageid, revisions: [{ timestamp: '2025-01-20T10:00:00Z', ...revision }] }] } });

describe('ids in API replies', () => {
  it('reads a new page (old revision 0) and a first revision (parent 0)', () => {
    expect(RecentChangesReply.safeParse(change({})).success).toBe(true);
    expect(RevisionsReply.safeParse(revisions(3, { revid: 7, parentid: 0 })).success).toBe(true);
  });

  it('refuses a revision or page id of 0 or below as a malformed reply', () => {
    for (const reply of [change({ revid: 0 }), change({ pageid: 0 }), change({ old_revid: -1 })]) expect(RecentChangesReply.safeParse(reply).success, JSON.stringify(reply)).toBe(false);
    for (const reply of [revisions(3, { revid: 0 }), revisions(0, { revid: 7 }), revisions(3, { revid: -7 }), revisions(3, { revid: 7, parentid: -1 })]) {
      expect(RevisionsReply.safeParse(reply).success, JSON.stringify(reply)).toBe(false);
    }
    expect(InfoReply.safeParse({ query: { pages: [{ pageid: 0, ns: 0, title: 'T' }] } }).success).toBe(false);
    expect(AllPagesReply.safeParse({ query: { allpages: [{ pageid: 0, ns: 0, title: 'T' }] } }).success).toBe(false);
  });
});

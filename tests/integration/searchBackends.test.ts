/**
 * The descriptiveness check's two search backends: the wiki's own `list=search` on a real MediaWiki
 * (loopback, the embedded sample imported), through the polite client, and the local BM25 index
 * over the pages in the store.
 */
import Sqlite from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSearchIndex } from '../../src/search/localIndex.js';
import { searchTerms, WikiSearch } from '../../src/search/wikiSearch.js';
import { Store } from '../../src/store/store.js';
import { repoRoot, runCliOk, tempDir } from '../../testkit/cli.js';
import { startMediaWiki, type MediaWikiServer } from '../../testkit/mediawiki.js';

const sample = join(repoRoot, 'data/sample/sample-history.xml');
const userAgent = 'wikidelta-tests/0.1 (loopback search tests)';

describe('search backends', () => {
  let wiki: MediaWikiServer;
  const dir = tempDir();
  const db = join(dir, 'api.sqlite');

  beforeAll(async () => {
    wiki = await startMediaWiki({ dumps: [sample] });
  });
  afterAll(async () => wiki?.stop());

  it("finds pages through the wiki's list=search with the question's content words", async () => {
    expect(searchTerms("What is the leader's party of 2024–25 Port Aldwin Rovers F.C. season?")).toBe("leader's party 2024 25 Port Aldwin Rovers F.C season");
    const search = new WikiSearch({ apiUrl: wiki.apiUrl, userAgent });
    const before = await wiki.settledRequestCount();
    expect(await search.topTitles('What is the total population of Port Aldwin?', 10)).toEqual(['Port Aldwin']);
    expect(await search.topTitles('What is the end of term of Oren Blake?', 10)).toContain('Oren Blake');
    // Every word must occur in a page for MediaWiki's basic backend: "number" is nowhere in the company's text.
    expect(await search.topTitles('What is the number of employees of Brightwater Logistics?', 10)).toEqual([]);
    expect((await wiki.settledRequestCount()) - before).toBe(3);
  });

  it('runs the check stage of a week read from the API against that wiki search, storing rank or absence', async () => {
    const run = await runCliOk(['--db', db, 'weekly', '--start', '2025-02-03', '--api', wiki.apiUrl, '--user-agent', userAgent]);
    expect(run.stderr).not.toMatch(/"level":"error"/);
    const handle = new Sqlite(db, { readonly: true });
    const checks = handle
      .prepare(`SELECT c.query_id AS id, c.passed, c.reason, c.backend, c.detail, g.page_id AS pageId, p.title
         FROM question_checks c JOIN question_generations g ON g.query_id = c.query_id JOIN pages p ON p.wiki = g.wiki AND p.page_id = g.page_id
         WHERE check_name = 'descriptiveness'`)
      .all() as Array<{ id: string; passed: number; reason: string; backend: string; detail: string; title: string }>;
    const kept = handle.prepare('SELECT COUNT(*) FROM queries WHERE kept = 1').pluck().get() as number;
    handle.close();
    expect(checks).toHaveLength(11);
    expect(new Set(checks.map((c) => c.backend))).toEqual(new Set([`wiki:${wiki.apiUrl}`]));
    const passed = checks.filter((c) => c.passed === 1);
    const failed = checks.filter((c) => c.passed === 0);
    expect(passed.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    expect(passed.every((c) => /^the source page is result \d+ of \d+$/.test(c.reason))).toBe(true);
    expect(failed.every((c) => /^the source page is not among the \d+ results$/.test(c.reason))).toBe(true);
    for (const check of checks) expect((JSON.parse(check.detail) as string[]).includes(check.title)).toBe(check.passed === 1);
    // A question that fails a check stays in the store, not kept.
    expect(kept).toBeLessThanOrEqual(passed.length);
  });

  it('ranks the same questions offline with the local BM25 index over the week\'s pages', async () => {
    const store = Store.open(db);
    const wikiName = new URL(wiki.apiUrl).host;
    const index = LocalSearchIndex.fromStore(store, wikiName, { start: '2025-02-03T00:00:00Z', end: '2025-02-10T00:00:00Z' });
    // Only the pages a week collected are its index, as that week saw them: a week that collected none has none.
    const otherWeek = LocalSearchIndex.fromStore(store, wikiName, { start: '2025-01-06T00:00:00Z', end: '2025-01-13T00:00:00Z' });
    store.close();
    expect(otherWeek.size).toBe(0);
    expect(index.size).toBeGreaterThanOrEqual(11);
    expect((await index.topTitles('What is the total population of Port Aldwin?', 10))[0]).toBe('Port Aldwin');
    // Any word may match in BM25: the company is found although "number" is not in its text.
    expect((await index.topTitles('What is the number of employees of Brightwater Logistics?', 10))[0]).toBe('Brightwater Logistics');
    expect((await index.topTitles('Which film grossed CRN 9.4 million?', 10))[0]).toBe('The Saltmarsh Lantern');
    expect(await index.topTitles('zzzz qqqq', 10)).toEqual([]);
  });
});

/**
 * The Action API source against a real MediaWiki on loopback that imported the sample history
 * dump, checked against the dump source over the same windows, through a counting fault proxy.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoSeconds } from '../../src/dates.js';
import type { PageHistory, Revision, Window } from '../../src/model.js';
import { ApiRevisionSource, type ApiSourceOptions } from '../../src/sources/apiSource.js';
import { DumpRevisionSource } from '../../src/sources/dumpSource.js';
import type { CollectOptions, RevisionSource } from '../../src/sources/RevisionSource.js';
import { gatherHistories } from '../support/pageHistories.js';
import { startFaultProxy, type FaultProxy } from '../../testkit/faultProxy.js';
import { adminClient, startMediaWiki, type MediaWikiServer } from '../../testkit/mediawiki.js';
import { sharedData } from '../../testkit/sharedData.js';
import { withCode } from '../support/errorCodes.js';

const SAMPLE = join(sharedData, 'enwiki-history-sample.xml');
const USER_AGENT = 'wikidelta-tests/0.1 (https://example.org/wikidelta; wikidelta-tests@example.org)';

/**
 * The sample holds these titles twice, under different page ids: an article and, later, a redirect
 * left at the same title. MediaWiki's importer files every revision of a title under one page, so
 * the wiki has one page per title holding both histories, whose latest revision is the redirect:
 * the API source skips it as a redirect, while the dump source sees two pages without a
 * `<redirect>` element. They are left out of the comparison and checked on their own.
 */
const MERGED_ON_IMPORT = ['The Amazing Spider-Man (2012 film)', "`Abdu'l-Bahá"];

const WEEK: Window = { start: '2021-01-18T00:00:00Z', end: '2021-01-25T00:00:00Z' };
const YEAR: Window = { start: '2020-01-01T00:00:00Z', end: '2021-01-01T00:00:00Z' };
/** Starts before the wiki's oldest recent change (2018-02-03), so the source reads page histories. */
const WHOLE_RANGE: Window = { start: '2018-01-01T00:00:00Z', end: '2022-01-01T00:00:00Z' };

function collect(source: RevisionSource, window: Window, options?: CollectOptions): Promise<PageHistory[]> {
  return gatherHistories(source, window, options);
}

/** Dumps give SHA-1 in base 36, the API in hex. */
function sha1Hex(sha1: string | null): string | null {
  if (sha1 === null || /^[0-9a-f]{40}$/.test(sha1)) return sha1;
  let value = 0n;
  for (const digit of sha1) value = value * 36n + BigInt(parseInt(digit, 36));
  return value.toString(16).padStart(40, '0');
}

/** Title → its revisions as "timestamp sha1", oldest first: what two sources must agree on. */
function comparable(histories: PageHistory[]): Record<string, string[]> {
  const byTitle: Record<string, string[]> = {};
  for (const history of histories) {
    if (MERGED_ON_IMPORT.includes(history.page.title)) continue;
    byTitle[history.page.title] = history.revisions.map((revision) => `${revision.timestamp} ${sha1Hex(revision.sha1)}`);
  }
  return byTitle;
}

function revisionCount(histories: PageHistory[]): number {
  return histories.reduce((sum, history) => sum + history.revisions.length, 0);
}

function idsIn(value: string | null): number[] {
  return value ? value.split('|').map(Number) : [];
}

describe('ApiRevisionSource against a real MediaWiki', () => {
  let wiki: MediaWikiServer;
  let proxy: FaultProxy;
  const dump = new DumpRevisionSource(SAMPLE);
  const sourceFor = (options: Partial<ApiSourceOptions> = {}): ApiRevisionSource =>
    new ApiRevisionSource({ apiUrl: `${proxy.baseUrl}/api.php`, userAgent: USER_AGENT, ...options });

  beforeAll(async () => {
    wiki = await startMediaWiki({ dumps: [SAMPLE] });
    proxy = await startFaultProxy(wiki.baseUrl);
  });

  afterAll(async () => {
    await proxy?.close();
    await wiki?.stop();
  });

  it.each([
    { name: 'a week', window: WEEK, path: 'list=recentchanges' },
    { name: 'a year', window: YEAR, path: 'list=recentchanges' },
    { name: 'the whole range', window: WHOLE_RANGE, path: 'list=allpages' },
  ])('yields the pages and revisions the dump source yields over $name (via $path)', async ({ window, path }) => {
    proxy.resetCounts();
    let found = 0;
    const fromApi = await collect(sourceFor(), window, { onPagesFound: (count) => (found = count) });
    const fromDump = await collect(dump, window);

    expect(proxy.counts().byKind[path]).toBeGreaterThan(0);
    expect(fromApi.length).toBeGreaterThan(0);
    expect(found).toBe(fromApi.length);
    expect(comparable(fromApi)).toEqual(comparable(fromDump));
    for (const history of fromApi) {
      expect(history.page.namespace).toBe(0);
      expect(history.moves).toEqual([]);
      const inWindow = history.revisions.filter((revision) => revision.timestamp >= window.start);
      expect(inWindow.length).toBeGreaterThan(0);
      expect(history.revisions.length - inWindow.length).toBeLessThanOrEqual(1);
      for (const revision of history.revisions) {
        // The text is the revision's own: its hash is the one the wiki reports.
        expect(revision.text).not.toBeNull();
        expect(createHash('sha1').update(revision.text ?? '').digest('hex')).toBe(revision.sha1);
      }
    }
  });

  it('skips the pages MediaWiki merged on import: one title, both histories, a redirect now', async () => {
    const titles = (await collect(sourceFor(), WHOLE_RANGE)).map((history) => history.page.title);
    for (const title of MERGED_ON_IMPORT) expect(titles).not.toContain(title);
    // A sync keeps them: the listing of every page then takes redirects too.
    const kept = (await collect(sourceFor(), WHOLE_RANGE, { keepRedirects: true })).map((history) => history.page.title);
    expect(kept.filter((title) => !titles.includes(title)).sort()).toEqual([...MERGED_ON_IMPORT].sort());

    const reply = await fetch(
      `${wiki.apiUrl}?action=query&format=json&formatversion=2&prop=info|revisions&rvprop=timestamp&rvlimit=max&titles=${encodeURIComponent(MERGED_ON_IMPORT[0] ?? '')}`,
    );
    const body = (await reply.json()) as { query: { pages: Array<{ redirect?: boolean; revisions: unknown[] }> } };
    expect(body.query.pages).toHaveLength(1);
    expect(body.query.pages[0]?.redirect).toBe(true);
    // 7 article revisions of dump page 25862453 and 2 redirect revisions of dump page 30871310.
    expect(body.query.pages[0]?.revisions).toHaveLength(9);
  });

  it('reads the histories of the given titles when the window is older than recent changes', async () => {
    const titles = ['Berlin', 'IKEA', 'No such page', MERGED_ON_IMPORT[0] ?? '', 'Category:Pininfarina', 'berlin'];
    proxy.resetCounts();
    const fromApi = await collect(sourceFor({ titles }), WHOLE_RANGE);
    const fromDump = (await collect(dump, WHOLE_RANGE)).filter((history) => ['Berlin', 'IKEA'].includes(history.page.title));

    expect(proxy.counts().byKind['list=allpages']).toBeUndefined();
    expect(fromApi.map((history) => history.page.title)).toEqual(['Berlin', 'IKEA']);
    expect(comparable(fromApi)).toEqual(comparable(fromDump));
  });

  it('reports the revisions around the window as metadata-only predecessors and followers when asked, as the dump does', async () => {
    const followHours = 24 * 365;
    const fromApi = await collect(sourceFor(), YEAR, { followHours });
    const fromDump = new Map((await collect(dump, YEAR, { followHours })).map((history) => [history.page.title, history]));
    const described = (revisions: Revision[] | undefined) => (revisions ?? []).map((revision) => `${revision.timestamp} ${sha1Hex(revision.sha1)}`);
    for (const history of fromApi) {
      expect((history.predecessors ?? []).every((revision) => revision.text === null)).toBe(true);
      expect(described(history.predecessors)).toEqual(described(fromDump.get(history.page.title)?.predecessors));
    }
    expect(fromApi.some((history) => (history.predecessors ?? []).length > 0)).toBe(true);
    const after = { start: YEAR.end, end: isoSeconds(new Date(Date.parse(YEAR.end) + followHours * 3_600_000)) };
    const laterRevisions = new Map(
      (await collect(dump, after)).map((history) => [
        history.page.title,
        history.revisions.filter((revision) => revision.timestamp >= after.start),
      ]),
    );

    for (const history of fromApi) {
      const followers = history.followers ?? [];
      expect(followers.every((revision) => revision.text === null)).toBe(true);
      expect(followers.map((revision) => `${revision.timestamp} ${revision.sha1}`)).toEqual(
        (laterRevisions.get(history.page.title) ?? []).map((revision) => `${revision.timestamp} ${sha1Hex(revision.sha1)}`),
      );
    }
    expect(fromApi.some((history) => (history.followers ?? []).length > 0)).toBe(true);
    const week = await collect(sourceFor(), WEEK);
    expect(week.length).toBeGreaterThan(0);
    expect(week.every((history) => history.followers === undefined && history.predecessors === undefined)).toBe(true);
  });

  it('collects a revision at exactly the end instant with its text, through recent changes and page histories alike', async () => {
    // The latest revision of the year in the sample: windows ending exactly at its timestamp.
    const lastOfYear = (await collect(dump, YEAR))
      .flatMap((history) => history.revisions.map((revision) => ({ title: history.page.title, revision })))
      .filter(({ title, revision }) => !MERGED_ON_IMPORT.includes(title) && revision.timestamp < YEAR.end)
      .sort((a, b) => a.revision.timestamp.localeCompare(b.revision.timestamp))
      .at(-1);
    const end = lastOfYear?.revision.timestamp as string;
    for (const window of [
      { start: YEAR.start, end },
      { start: WHOLE_RANGE.start, end },
    ]) {
      const fromApi = await collect(sourceFor(), window, { followHours: 0 });
      expect(comparable(fromApi)).toEqual(comparable(await collect(dump, window)));
      const page = fromApi.find((history) => history.page.title === lastOfYear?.title);
      const atEnd = page?.revisions.find((revision) => revision.timestamp === end);
      expect(atEnd?.text).toBeTruthy();
      expect(sha1Hex(atEnd?.sha1 ?? null)).toBe(sha1Hex(lastOfYear?.revision.sha1 ?? null));
      expect((page?.followers ?? []).some((revision) => revision.timestamp === end)).toBe(false);
    }
  });

  it('asks for content only for the revisions it yields, 50 revision ids at most per request', async () => {
    proxy.resetCounts();
    const answeredBefore = await wiki.settledRequestCount();
    const histories = await collect(sourceFor(), YEAR);
    const counts = proxy.counts();
    // The wiki's own log agrees with the proxy's count.
    await expect.poll(() => wiki.requestCount() - answeredBefore).toBe(counts.total);
    const requests = proxy.requests();
    const revisions = revisionCount(histories);

    const contentRequests = requests.filter((request) => request.kind === 'prop=revisions+content');
    const requestedRevIds = contentRequests.flatMap((request) => idsIn(request.params.get('revids')));
    const yieldedRevIds = histories.flatMap((history) => history.revisions.map((revision) => revision.revId));
    expect(contentRequests.every((request) => idsIn(request.params.get('revids')).length <= 50)).toBe(true);
    expect(requestedRevIds.sort((a, b) => a - b)).toEqual(yieldedRevIds.sort((a, b) => a - b));
    expect(contentRequests.length).toBeLessThanOrEqual(Math.ceil(revisions / 25));
    // Page facts in one batch; revision metadata from recent changes and the content batches, no
    // request per page; nothing else but the listings.
    expect(counts.byKind['prop=info']).toBe(Math.ceil(histories.length / 50));
    expect(counts.byKind['prop=revisions']).toBeUndefined();
    expect(counts.total / histories.length).toBeLessThan(0.5);
    expect(counts.maxInFlight).toBeLessThanOrEqual(3);
    expect(requests.every((request) => request.params.get('maxlag') === '5')).toBe(true);
  });

  it('skips pages already done without fetching their revisions or content', async () => {
    const all = await collect(sourceFor(), YEAR);
    const done = new Set(all.filter((_, index) => index % 2 === 0).map((history) => history.page.pageId));
    const doneRevIds = new Set(
      all.filter((history) => done.has(history.page.pageId)).flatMap((history) => history.revisions.map((r) => r.revId)),
    );
    proxy.resetCounts();
    const rest = await collect(sourceFor(), YEAR, { isDone: (pageId) => done.has(pageId) });

    expect(rest).toEqual(all.filter((history) => !done.has(history.page.pageId)));
    for (const request of proxy.requests()) {
      expect(idsIn(request.params.get('pageids')).some((pageId) => done.has(pageId))).toBe(false);
      expect(idsIn(request.params.get('revids')).some((revId) => doneRevIds.has(revId))).toBe(false);
    }
  });

  it('waits out 429 with Retry-After, maxlag and a run of 500s, and yields the same records', async () => {
    const expected = await collect(sourceFor(), WEEK);
    proxy.resetCounts();
    proxy.failNext(1, { status: 429, retryAfterSeconds: 1 });
    proxy.failNext(1, { maxlagSeconds: 7, retryAfterSeconds: 1 });
    proxy.failNext(3, { status: 500 });
    proxy.failNext(1, { status: 503 });

    const histories = await collect(sourceFor({ retryBaseMs: 20, maxRetries: 8 }), WEEK);

    expect(histories).toEqual(expected);
    const requests = proxy.requests();
    expect(proxy.counts().faulted).toBe(6);
    // Nothing reached the wiki within the Retry-After second of the 429 and of the maxlag answer.
    const [tooMany, lagged] = [requests[0], requests[1]];
    expect(tooMany?.faulted && lagged?.faulted).toBe(true);
    expect((lagged?.at ?? 0) - (tooMany?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect((requests[2]?.at ?? 0) - (lagged?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('gives up on a wiki that keeps failing with a one-line RemoteError naming the wiki, the status and the request', async () => {
    proxy.failNext(Infinity, { status: 503 });
    try {
      const failure = await collect(sourceFor({ retryBaseMs: 10, maxRetries: 2 }), WEEK).catch((error: unknown) => error);
      expect(failure).toMatchObject({ name: 'RemoteError', code: 'E_WIKI_UNREACHABLE' });
      const message = (failure as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toContain(`${proxy.baseUrl}/api.php`);
      expect(message).toContain('HTTP 503');
      expect(message).toContain('after 2 retries');
      expect(message).toMatch(/action=query&list=logevents/);
    } finally {
      proxy.heal();
    }
  });

  it('retries a wiki that does not answer at all, then names the network error', async () => {
    const closed = await startFaultProxy(wiki.baseUrl);
    const apiUrl = `${closed.baseUrl}/api.php`;
    await closed.close();
    const source = new ApiRevisionSource({ apiUrl, userAgent: USER_AGENT, retryBaseMs: 10, maxRetries: 1 });
    const failure = await collect(source, WEEK).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'RemoteError', code: 'E_WIKI_UNREACHABLE' });
    expect((failure as Error).message).toMatch(/^wiki \S+ failed after 1 retry: ECONNREFUSED for action=query/);
  });

  it('rejects a reply of the wrong shape with a RemoteError naming the field', async () => {
    proxy.failNext(1, { reply: { query: { logevents: [{ title: 42 }] } } });
    const failure = await collect(sourceFor(), WEEK).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'RemoteError', code: 'E_WIKI_BAD_REPLY' });
    expect((failure as Error).message).toMatch(/malformed reply \(query\.logevents\.0\.title: .*\) to action=query/);
  });

  it('refuses to run without a User-Agent or with more than 3 requests in flight', () => {
    expect(() => sourceFor({ userAgent: ' ' })).toThrow(withCode('E_FLAG_MISSING'));
    expect(() => sourceFor({ maxInFlight: 4 })).toThrow(withCode('E_SETTING_INVALID'));
  });
});

describe('ApiRevisionSource on a wiki edited during the test', () => {
  let wiki: MediaWikiServer;

  beforeAll(async () => {
    wiki = await startMediaWiki({ dumps: [SAMPLE] });
  });

  afterAll(async () => {
    await wiki?.stop();
  });

  it('follows a page moved through the API and skips redirects', async () => {
    const admin = await adminClient(wiki, USER_AGENT);
    // Main Page was created by install.php, seconds before: the window starts after it.
    const start = isoSeconds(new Date());
    await admin.move('IKEA', 'IKEA (company)', 'disambiguate');
    await admin.create('Swedish furniture', '#REDIRECT [[IKEA (company)]]', 'a new redirect');
    await admin.edit('Berlin', (page) => ({ text: `${page.content}\n[[Category:Capitals]]`, summary: 'add category' }));
    const window = { start, end: isoSeconds(new Date(Date.now() + 60_000)) };

    const source = new ApiRevisionSource({ apiUrl: wiki.apiUrl, userAgent: USER_AGENT });
    const histories = await collect(source, window);

    expect(histories.map((history) => history.page.title).sort()).toEqual(['Berlin', 'IKEA (company)']);
    const moved = histories.find((history) => history.page.title === 'IKEA (company)');
    expect(moved?.moves).toEqual([{ timestamp: expect.any(String), from: 'IKEA', to: 'IKEA (company)' }]);
    // The baseline (the last imported revision) and the null revision the move made.
    expect(moved?.revisions.map((revision) => revision.timestamp < start)).toEqual([true, false]);
    expect(moved?.revisions[1]?.comment).toContain('moved page [[IKEA]] to [[IKEA (company)]]');
    const berlin = histories.find((history) => history.page.title === 'Berlin');
    expect(berlin?.revisions.map((revision) => revision.comment)).toEqual([expect.any(String), 'add category']);
    expect(berlin?.revisions[1]?.text).toContain('[[Category:Capitals]]');
    // A sync keeps the redirect made in the window, with its text.
    const kept = await collect(source, window, { keepRedirects: true });
    expect(kept.map((history) => history.page.title).sort()).toEqual(['Berlin', 'IKEA (company)', 'Swedish furniture']);
    expect(kept.find((history) => history.page.title === 'Swedish furniture')?.revisions.map((revision) => revision.text)).toEqual(['#REDIRECT [[IKEA (company)]]']);
  });

  it('reads a page restored after a deletion from its history: MediaWiki never gives back its recent changes', async () => {
    const admin = await adminClient(wiki, USER_AGENT);
    const start = isoSeconds(new Date());
    await admin.create('Restored town', '{{Infobox settlement|population_total=100}}', 'created');
    await admin.edit('Restored town', () => ({ text: '{{Infobox settlement|population_total=120}}', summary: 'census' }));
    await admin.delete('Restored town', 'mistaken deletion');
    await admin.request({ action: 'undelete', title: 'Restored town', reason: 'restored', token: await admin.getCsrfToken() });
    const window = { start, end: isoSeconds(new Date(Date.now() + 60_000)) };
    const restored = (await collect(new ApiRevisionSource({ apiUrl: wiki.apiUrl, userAgent: USER_AGENT }), window)).find((history) => history.page.title === 'Restored town');
    expect(restored?.revisions.map((revision) => revision.comment)).toEqual(['created', 'census']);
    expect(restored?.revisions[1]?.text).toContain('population_total=120');
  });

  it('reads a page from its history when recent changes lack one of its revisions (a protection)', async () => {
    const admin = await adminClient(wiki, USER_AGENT);
    // Revision timestamps have whole seconds: start after the previous test's edits.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const start = isoSeconds(new Date());
    const edit = (summary: string) => admin.edit('IKEA (company)', (page) => ({ text: `${page.content}\n<!-- ${summary} -->`, summary }));
    await edit('before the protection');
    // A protection writes a null revision whose only recent change is a log row.
    const token = await admin.getCsrfToken();
    await admin.request({ action: 'protect', title: 'IKEA (company)', protections: 'move=sysop', expiry: 'infinite', reason: 'test', token });
    await edit('after the protection');
    const window = { start, end: isoSeconds(new Date(Date.now() + 60_000)) };

    const [history] = await collect(new ApiRevisionSource({ apiUrl: wiki.apiUrl, userAgent: USER_AGENT }), window);

    expect(history?.revisions.map((revision) => revision.comment)).toEqual([
      expect.any(String),
      'before the protection',
      expect.stringContaining('Protected'),
      'after the protection',
    ]);
    const revisions = history?.revisions ?? [];
    expect(revisions.slice(1).map((revision) => revision.parentId)).toEqual(revisions.slice(0, -1).map((revision) => revision.revId));
  });
});

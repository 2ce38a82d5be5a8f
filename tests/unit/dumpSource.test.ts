import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { windowFrom } from '../../src/dates.js';
import { InputError, UserError } from '../../src/errors.js';
import type { PageHistory, Revision, Window } from '../../src/model.js';
import type { CollectOptions } from '../../src/sources/RevisionSource.js';
import { openDumpInput } from '../../src/sources/dumpInput.js';
import { readDump, type DumpPageHeader } from '../../src/sources/dumpReader.js';
import { DumpRevisionSource, parseMoveComment } from '../../src/sources/dumpSource.js';
import { gatherHistories } from '../support/pageHistories.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = resolve(repoRoot, '../shared/data');
const enwikiXml = join(dataDir, 'enwiki-history-sample.xml');
const enwikiBz2 = join(dataDir, 'enwiki-history-sample.xml.bz2');
const tinyGz = join(dataDir, 'enwiki-20140102-tiny-history.xml.gz');

function collect(source: DumpRevisionSource, window: Window, options?: CollectOptions): Promise<PageHistory[]> {
  return gatherHistories(source, window, options);
}

/** Every page of a dump with all its revisions, texts included: the plain reading the source must agree with. */
async function wholeDump(path: string): Promise<Array<{ page: DumpPageHeader; revisions: Revision[] }>> {
  const pages: Array<{ page: DumpPageHeader; revisions: Revision[] }> = [];
  let revisions: Revision[] = [];
  for await (const event of readDump(openDumpInput(path))) {
    if (event.kind === 'revision') revisions.push(event.revision);
    else {
      pages.push({ page: event.page, revisions });
      revisions = [];
    }
  }
  return pages;
}

/** The specification of section 3 written as a filter over the whole dump: [start, end], the end instant collected too. */
function expectedHistories(pages: Awaited<ReturnType<typeof wholeDump>>, window: Window): Array<{ pageId: number; revIds: number[] }> {
  return pages
    .filter(({ page }) => page.namespace === 0 && !page.redirect)
    .map(({ page, revisions }) => {
      const ordered = [...revisions].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || a.revId - b.revId);
      const inside = ordered.filter((r) => Date.parse(r.timestamp) >= Date.parse(window.start) && Date.parse(r.timestamp) <= Date.parse(window.end));
      const before = ordered.filter((r) => Date.parse(r.timestamp) < Date.parse(window.start)).at(-1);
      return { pageId: page.pageId, revIds: inside.length === 0 ? [] : [...(before ? [before] : []), ...inside].map((r) => r.revId) };
    })
    .filter((history) => history.revIds.length > 0);
}

describe('DumpRevisionSource on the English history sample', () => {
  let pages: Awaited<ReturnType<typeof wholeDump>>;
  beforeAll(async () => {
    pages = await wholeDump(enwikiXml);
  });

  it('selects a Berlin revision of April 2021 and the revision before it, with their texts', async () => {
    const histories = await collect(new DumpRevisionSource(enwikiXml), windowFrom('2021-04-15', 7));
    const berlin = histories.find((history) => history.page.title === 'Berlin');
    expect(berlin?.page).toEqual({ pageId: 3354, title: 'Berlin', namespace: 0 });
    expect(berlin?.revisions.map((r) => [r.revId, r.timestamp])).toEqual([
      [1001509065, '2021-01-20T00:51:35Z'],
      [1018804993, '2021-04-19T23:50:16Z'],
    ]);
    const berlinTexts = pages.find(({ page }) => page.pageId === 3354)!.revisions;
    for (const revision of berlin!.revisions) {
      expect(revision.text).toBe(berlinTexts.find((r) => r.revId === revision.revId)!.text);
      expect(revision.text).toMatch(/\{\{Infobox settlement/);
    }
    expect(berlin?.moves).toEqual([]);
  });

  it.each([
    ['2018-01-01', 365 * 4],
    ['2019-08-01', 31],
    ['2020-02-10', 7],
    ['2021-09-01', 30],
    ['2021-12-04', 1],
    ['2022-01-01', 7],
  ])('yields for the window from %s (%d days) exactly the pages and revisions the specification names', async (start, days) => {
    const window = windowFrom(start, days);
    const histories = await collect(new DumpRevisionSource(enwikiXml), window);
    expect(histories.map((h) => ({ pageId: h.page.pageId, revIds: h.revisions.map((r) => r.revId) }))).toEqual(expectedHistories(pages, window));
    for (const history of histories) expect(history.revisions.every((r) => r.text !== null)).toBe(true);
  });

  it('skips the category page even when it changed inside the window', async () => {
    const category = pages.find(({ page }) => page.namespace === 14)!;
    const when = category.revisions.at(-1)!.timestamp.slice(0, 10);
    const histories = await collect(new DumpRevisionSource(enwikiXml), windowFrom(when, 1));
    expect(histories.some((history) => history.page.pageId === category.page.pageId)).toBe(false);
  });

  it('skips pages already done and reports progress per page found', async () => {
    const window = windowFrom('2019-01-01', 365 * 3);
    const found: number[] = [];
    const histories = await collect(new DumpRevisionSource(enwikiXml), window, {
      isDone: (pageId) => pageId === 3354,
      onPagesFound: (count) => found.push(count),
    });
    expect(histories.map((h) => h.page.title)).not.toContain('Berlin');
    expect(histories.length).toBe(expectedHistories(pages, window).length - 1);
    expect(found).toEqual(histories.map((_, index) => index + 1));
  });

  it('gives the same histories from the .bz2 file and from a stream of it', async () => {
    const window = windowFrom('2020-01-01', 183);
    const plain = await collect(new DumpRevisionSource(enwikiXml), window);
    expect(plain.length).toBeGreaterThan(5);
    expect(await collect(new DumpRevisionSource(enwikiBz2), window)).toEqual(plain);
    const cat = spawn('cat', [enwikiBz2], { stdio: ['ignore', 'pipe', 'inherit'] });
    const streamed = DumpRevisionSource.fromStream(cat.stdout, 'dump:test pipe');
    expect(streamed.origin).toBe('dump:test pipe');
    expect(streamed.kind).toBe('dump');
    expect(await collect(streamed, window)).toEqual(plain);
    await expect(collect(streamed, window)).rejects.toThrow(new UserError('dump:test pipe can be read only once'));
  });

  it('orders revisions by timestamp then id when the dump does not', async () => {
    const xml = await readFile(enwikiXml, 'utf8');
    const berlinStart = xml.lastIndexOf('<page>', xml.indexOf('<title>Berlin</title>'));
    const berlinEnd = xml.indexOf('</page>', berlinStart);
    const berlin = xml.slice(berlinStart, berlinEnd);
    const firstRevision = berlin.indexOf('<revision>');
    const shuffled = berlin.slice(firstRevision).split(/(?=<revision>)/).reverse().join('');
    const dump = `<mediawiki version="0.10">${berlin.slice(0, firstRevision)}${shuffled}</page></mediawiki>`;
    const window = windowFrom('2021-01-01', 273);
    const histories = await collect(DumpRevisionSource.fromStream(Readable.from([dump])), window);
    expect(histories.map((h) => h.revisions.map((r) => r.revId))).toEqual([
      [961556910, 1001509065, 1018804993, 1021037093, 1040992809, 1041841330, 1044822272],
    ]);
    expect(histories[0]!.revisions.every((r) => r.text !== null)).toBe(true);
  });

  it('never ends a page the dump was cut off inside', async () => {
    const bytes = await readFile(enwikiXml);
    const berlinEnd = bytes.indexOf('</page>', bytes.indexOf('<title>Berlin</title>'));
    const cut = bytes.subarray(0, berlinEnd - 5000);
    const yielded: string[] = [];
    const reading = (async () => {
      for await (const part of DumpRevisionSource.fromStream(Readable.from([cut])).pagesChangedIn(windowFrom('2021-04-15', 7))) {
        if (part.kind === 'end') yielded.push(part.page.title);
      }
    })();
    await expect(reading).rejects.toThrow(new InputError('dump is truncated inside page "Berlin" (page id 3354)'));
    expect(yielded).not.toContain('Berlin');
    expect(yielded.length).toBeGreaterThan(0);
  });
});

describe('DumpRevisionSource on the tiny 2014 history (out-of-order revisions, a redirect)', () => {
  it('skips the redirect page and sorts Anarchism revisions the dump lists out of order', async () => {
    const window = windowFrom('2002-04-01', 120);
    const histories = await collect(new DumpRevisionSource(tinyGz), window);
    expect(histories.map((h) => h.page.title)).toEqual(['Anarchism']);
    const expected = expectedHistories(await wholeDump(tinyGz), window);
    expect(histories.map((h) => ({ pageId: h.page.pageId, revIds: h.revisions.map((r) => r.revId) }))).toEqual(expected);
    const timestamps = histories[0]!.revisions.map((r) => r.timestamp);
    expect(timestamps).toEqual([...timestamps].sort());
    expect(timestamps[0]! < window.start).toBe(true);
  });
});

describe('moves', () => {
  it.each([
    ['moved [[Anarchism]] to [[Anarchists rule]]: revert', { from: 'Anarchism', to: 'Anarchists rule' }],
    ['moved [[HAGGER?????]] to [[Anarchism]]', { from: 'HAGGER?????', to: 'Anarchism' }],
    ['moved [[Anarchism (disambiguation)]] to [[Anarchism]] over redirect: history merge', { from: 'Anarchism (disambiguation)', to: 'Anarchism' }],
    [
      '[[User:Isolde Ferrars|Isolde Ferrars]] moved page [[Glass Orchard]] to [[Glass Orchard (band)]]: disambiguation from the 2016 album of the same name',
      { from: 'Glass Orchard', to: 'Glass Orchard (band)' },
    ],
    ['Jo Bloggs moved page [[Foo bar]] to [[Foo Bar]] without leaving a redirect', { from: 'Foo bar', to: 'Foo Bar' }],
  ])('reads a move from the comment %j', (comment, move) => {
    expect(parseMoveComment(comment)).toEqual(move);
  });

  it.each([
    'moved the last thinker - * [[Miguel Garcia]] - to [[libertarian socialism]]: apparently, he was a Spanish anarchist',
    'removed [[red anarchist]] to talk -- not heard it b4',
    'moved terrorism stuff to new heading &quot;anarchism and [[terrorism]]&quot;',
    '/* History */ moved [[Kropotkin]] paragraph to [[Anarcho-communism]] section',
  ])('does not mistake the edit summary %j for a move', (comment) => {
    expect(parseMoveComment(comment)).toBeNull();
  });

  it('records the moves of a page up to and including the end instant, oldest first, from real Anarchism summaries', async () => {
    const revision = (id: number, timestamp: string, comment: string) =>
      `<revision><id>${id}</id><timestamp>${timestamp}</timestamp><contributor><username>Ed</username></contributor><comment>${comment}</comment><text xml:space="preserve">text ${id}</text></revision>`;
    const dump = `<mediawiki version="0.4"><siteinfo><namespaces><namespace key="0"/><namespace key="1">Talk</namespace></namespaces></siteinfo>
      <page><title>Anarchism</title><id>12</id>
        ${revision(3, '2005-06-02T10:00:00Z', 'moved [[Anarchists rule]] to [[Anarchism]]: moving back')}
        ${revision(2, '2005-06-02T09:00:00Z', 'moved [[Anarchism]] to [[Anarchists rule]]: revert')}
        ${revision(1, '2005-05-01T00:00:00Z', 'copyedit')}
        ${revision(4, '2005-06-03T00:00:00Z', 'fix')}
        ${revision(5, '2005-06-09T00:00:00Z', 'moved [[Anarchism]] to [[HAGGER?????]]')}
        ${revision(7, '2005-06-09T00:00:01Z', 'moved [[HAGGER?????]] to [[Anarchism]]')}
      </page>
      <page><title>Talk:Anarchism</title><id>13</id>${revision(6, '2005-06-03T00:00:00Z', 'talk')}</page>
    </mediawiki>`;
    const histories = await collect(DumpRevisionSource.fromStream(Readable.from([dump])), windowFrom('2005-06-02', 7));
    expect(histories).toHaveLength(1);
    // The window's end instant (06-09 00:00) is collected, so the answer on that day is known; a second later is not.
    expect(histories[0]!.revisions.map((r) => r.revId)).toEqual([1, 2, 3, 4, 5]);
    expect(histories[0]!.moves).toEqual([
      { timestamp: '2005-06-02T09:00:00Z', from: 'Anarchism', to: 'Anarchists rule' },
      { timestamp: '2005-06-02T10:00:00Z', from: 'Anarchists rule', to: 'Anarchism' },
      { timestamp: '2005-06-09T00:00:00Z', from: 'Anarchism', to: 'HAGGER?????' },
    ]);
  });
});

describe('DumpRevisionSource revert horizon', () => {
  const sampleXml = join(repoRoot, 'data/sample/sample-history.xml');

  it('reports revisions within the follow horizon after the window, without text, so a late vandal edit can be seen reverted', async () => {
    const window = windowFrom('2025-02-03', 7);
    const withFollowers = await collect(new DumpRevisionSource(sampleXml), window, { followHours: 48 });
    const portAldwin = withFollowers.find((history) => history.page.title === 'Port Aldwin');
    expect(portAldwin?.followers?.map((r) => r.timestamp)).toContain('2025-02-10T01:14:10Z');
    expect(portAldwin?.followers?.every((r) => r.text === null && r.timestamp >= window.end)).toBe(true);
    const without = await collect(new DumpRevisionSource(sampleXml), window);
    expect(without.map((history) => history.page.title)).toEqual(withFollowers.map((history) => history.page.title));
    expect(without.every((history) => history.followers === undefined)).toBe(true);
  });

  it('reports revisions within the horizon before the window and the one before those, without text, the baseline with its text', async () => {
    // The vandal edit of 02-09 22:51 is the baseline of the week of 02-10; the rollback restores the revision before it.
    const window = windowFrom('2025-02-10', 7);
    const portAldwin = (await collect(new DumpRevisionSource(sampleXml), window, { followHours: 48 })).find((history) => history.page.title === 'Port Aldwin');
    const baseline = portAldwin?.revisions.find((r) => r.timestamp < window.start);
    expect(baseline).toMatchObject({ timestamp: '2025-02-09T22:51:26Z', revId: 1031 });
    expect(baseline?.text).toMatch(/999999999 lol/);
    const predecessors = portAldwin?.predecessors ?? [];
    expect(predecessors.length).toBeGreaterThan(0);
    expect(predecessors.every((r) => r.text === null && r.timestamp < (baseline?.timestamp ?? ''))).toBe(true);
    // All but the oldest lie in the 48 hours before the window; the oldest is the latest before those.
    expect(predecessors.slice(1).every((r) => r.timestamp >= '2025-02-08T00:00:00Z')).toBe(true);
    expect((predecessors[0]?.timestamp ?? '') < '2025-02-08T00:00:00Z').toBe(true);
    const restored = portAldwin?.revisions.find((r) => r.revId === 1032);
    expect(predecessors.some((r) => r.sha1 === restored?.sha1)).toBe(true);
    const without = (await collect(new DumpRevisionSource(sampleXml), window)).find((history) => history.page.title === 'Port Aldwin');
    expect(without?.predecessors).toBeUndefined();
  });

  it('collects a revision at exactly the end instant with its text, not as a follower', async () => {
    const window = { start: '2025-02-03T01:14:10Z', end: '2025-02-10T01:14:10Z' };
    const histories = await collect(new DumpRevisionSource(sampleXml), window, { followHours: 48 });
    const portAldwin = histories.find((history) => history.page.title === 'Port Aldwin');
    const atEnd = portAldwin?.revisions.find((r) => r.timestamp === window.end);
    expect(atEnd?.text).toMatch(/\{\{Infobox/);
    expect((portAldwin?.followers ?? []).some((r) => r.timestamp === window.end)).toBe(false);
    // One second earlier, the same revision is after the window: a follower without text.
    const before = { start: window.start, end: '2025-02-10T01:14:09Z' };
    const earlier = (await collect(new DumpRevisionSource(sampleXml), before, { followHours: 48 })).find((h) => h.page.title === 'Port Aldwin');
    expect(earlier?.revisions.some((r) => r.timestamp === window.end)).toBe(false);
    expect(earlier?.followers?.map((r) => r.timestamp)).toContain(window.end);
  });
});

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { windowFrom } from '../../src/dates.js';
import { InputError } from '../../src/errors.js';
import type { PageHistory, Revision, Window } from '../../src/model.js';
import type { CollectOptions } from '../../src/sources/RevisionSource.js';
import { openDumpInput } from '../../src/sources/dumpInput.js';
import { readDump, type DumpPageHeader } from '../../src/sources/dumpReader.js';
import { DumpRevisionSource } from '../../src/sources/dumpSource.js';
import { gatherHistories } from '../support/pageHistories.js';
import { sharedData } from '../../testkit/sharedData.js';
import { withCode } from '../support/errorCodes.js';

const enwikiXml = join(sharedData, 'enwiki-history-sample.xml');
const enwikiBz2 = join(sharedData, 'enwiki-history-sample.xml.bz2');
const tinyGz = join(sharedData, 'enwiki-20140102-tiny-history.xml.gz');

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
    await expect(collect(streamed, window)).rejects.toThrow(withCode('E_DUMP_STDIN_UNUSABLE'));
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
    await expect(reading).rejects.toThrow(new InputError('E_DUMP_TRUNCATED', 'dump is truncated inside page "Berlin" (page id 3354)'));
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

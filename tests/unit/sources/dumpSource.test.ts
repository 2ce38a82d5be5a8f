import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { windowFrom } from '../../../src/dates.js';
import type { PageHistory, Window } from '../../../src/model.js';
import type { CollectOptions } from '../../../src/sources/RevisionSource.js';
import { DumpFilesSource } from '../../../src/sources/dumpFiles.js';
import { DumpRevisionSource, parseMoveComment } from '../../../src/sources/dumpSource.js';
import { gatherHistories } from '../../support/pageHistories.js';
import { repoRoot } from '../../../testkit/cli.js';
import { withCode } from '../../support/errorCodes.js';

function collect(source: DumpRevisionSource, window: Window, options?: CollectOptions): Promise<PageHistory[]> {
  return gatherHistories(source, window, options);
}

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

describe('where a dump ends', () => {
  it('vouches for no instant after its newest revision of any page, talk pages and pages the pass skips included, once a pass has read it whole', async () => {
    const revision = (id: number, timestamp: string) =>
      `<revision><id>${id}</id><timestamp>${timestamp}</timestamp><contributor><username>Ed</username></contributor><text xml:space="preserve">text ${id}</text></revision>`;
    const dump = `<mediawiki version="0.11"><siteinfo><namespaces><namespace key="0"/><namespace key="1">Talk</namespace></namespaces></siteinfo>
      <page><title>Berlin</title><ns>0</ns><id>1</id>${revision(12, '2023-01-05T00:00:00Z')}${revision(11, '2023-01-01T00:00:00Z')}</page>
      <page><title>Talk:Berlin</title><ns>1</ns><id>2</id>${revision(21, '2023-01-20T08:00:00Z')}</page>
      <page><title>Bonn</title><ns>0</ns><id>3</id>${revision(31, '2023-01-10T00:00:00Z')}</page>
    </mediawiki>`;
    const source = DumpRevisionSource.fromStream(Readable.from([dump]));
    // Unknown until a whole pass has read it (a collect skipped as done, or read on workers, says nothing).
    expect(source.historyEnd()).toBeUndefined();
    const histories = await collect(source, windowFrom('2023-01-02', 7), { isDone: (pageId) => pageId === 3 });
    expect(histories.map((history) => history.page.title)).toEqual(['Berlin']);
    expect(source.historyEnd()).toBe('2023-01-20T08:00:00Z');
  });
});

describe('names of the entity pages a week passes over', () => {
  const revision = (id: number, timestamp: string, text: string, model = 'wikibase-item') =>
    `<revision><id>${id}</id><timestamp>${timestamp}</timestamp><contributor><username>Ed</username></contributor><model>${model}</model><text xml:space="preserve">${text}</text></revision>`;
  const entity = (id: string, labels: Record<string, string>, aliases: string[] = []) =>
    JSON.stringify({
      type: id.startsWith('P') ? 'property' : 'item',
      id,
      labels: Object.fromEntries(Object.entries(labels).map(([language, value]) => [language, { language, value }])),
      aliases: { en: aliases.map((value) => ({ language: 'en', value })) },
      claims: {},
    }).replace(/"/g, '&quot;');

  it("tells each one's English name (none when the last revision has none) and time from its last revision, reading no other text; not the week's pages, redirects or wikitext", async () => {
    const dump = `<mediawiki version="0.11"><siteinfo><namespaces><namespace key="0"/><namespace key="120">Property</namespace></namespaces></siteinfo>
      <page><title>Q5</title><ns>0</ns><id>5</id>
        ${revision(51, '2022-06-01T00:00:00Z', entity('Q5', { en: 'human' }))}
        ${revision(53, '2023-02-01T00:00:00Z', entity('Q5', { en: 'human being', de: 'Mensch' }, ['person']))}
        ${revision(50, '2022-01-01T00:00:00Z', 'an undecodable &bogus; text, never read')}
      </page>
      <page><title>Q2</title><ns>0</ns><id>2</id>
        ${revision(21, '2022-06-01T00:00:00Z', entity('Q2', { en: 'Earth' }))}
        ${revision(22, '2023-01-03T00:00:00Z', entity('Q2', { en: 'Earth' }))}
      </page>
      <page><title>Property:P31</title><ns>120</ns><id>1000031</id>
        ${revision(311, '2023-01-04T00:00:00Z', entity('P31', { en: 'instance of' }, ['is a']), 'wikibase-property')}
      </page>
      <page><title>Q3</title><ns>0</ns><id>3</id><redirect title="Q5"/>
        ${revision(31, '2022-06-01T00:00:00Z', entity('Q3', { en: 'redirected' }))}
      </page>
      <page><title>Q4</title><ns>0</ns><id>4</id>
        ${revision(41, '2022-06-01T00:00:00Z', entity('Q4', { en: 'once English' }))}
        ${revision(42, '2022-07-01T00:00:00Z', entity('Q4', { de: 'nur Deutsch' }))}
      </page>
      <page><title>Berlin</title><ns>0</ns><id>6</id>${revision(61, '2022-06-01T00:00:00Z', 'Berlin is a city.', 'wikitext')}</page>
    </mediawiki>`;
    const told: unknown[] = [];
    const histories = await collect(DumpRevisionSource.fromStream(Readable.from([dump])), windowFrom('2023-01-02', 7), { onEntityName: (name) => told.push(name) });
    expect(histories.map((history) => history.page.title)).toEqual(['Q2']);
    expect(told).toEqual([
      { id: 'Q5', label: 'human being', aliases: ['person'], asOf: '2023-02-01T00:00:00Z' },
      { id: 'P31', label: 'instance of', aliases: ['is a'], asOf: '2023-01-04T00:00:00Z' },
      // Its English label removed: told without one, so the older label no longer names it.
      { id: 'Q4', label: null, aliases: [], asOf: '2022-07-01T00:00:00Z' },
    ]);
    // A page done by an earlier attempt of the run is the week's all the same: not told.
    const resumed: unknown[] = [];
    await collect(DumpRevisionSource.fromStream(Readable.from([dump])), windowFrom('2023-01-02', 7), { isDone: (pageId) => pageId === 2, onEntityName: (name) => resumed.push(name) });
    expect(resumed).toEqual(told);
    // Pages another part of the file named are not read for a name at all: Q5's text is never decoded.
    const broken = dump.replace(/(<page><title>Q5<\/title>[\s\S]*?)<\/page>/, (page) => page.replace(/<text([^>]*)>[^<]*<\/text>/g, '<text$1>&bogus;</text>'));
    const others: unknown[] = [];
    await collect(DumpRevisionSource.fromStream(Readable.from([broken])), windowFrom('2023-01-02', 7), { onEntityName: (name) => others.push(name), namesOf: (pageId) => pageId !== 5 });
    expect(others).toEqual(told.slice(1));
  });
});

describe('a dump that repeats what MediaWiki never repeats', () => {
  const revision = (id: number, timestamp: string) =>
    `<revision><id>${id}</id><timestamp>${timestamp}</timestamp><text xml:space="preserve">text ${id}</text></revision>`;
  const page = (title: string, id: number, ...revisions: string[]) => `<page><title>${title}</title><ns>0</ns><id>${id}</id>${revisions.join('')}</page>`;
  const dump = (...pages: string[]) => `<mediawiki version="0.11">${pages.join('\n')}</mediawiki>`;
  const week = windowFrom('2025-01-13', 7);

  it('takes a page id given twice from its first page, not the two articles merged into one', async () => {
    const foo = page('Foo', 1, revision(10, '2025-01-06T10:00:00Z'), revision(11, '2025-01-14T10:00:00Z'));
    const bar = page('Bar', 1, revision(20, '2025-01-06T11:00:00Z'), revision(21, '2025-01-15T10:00:00Z'));
    const histories = await collect(DumpRevisionSource.fromStream(Readable.from([dump(foo, bar)])), week);
    expect(histories.map((history) => [history.page.title, history.revisions.map((r) => r.revId)])).toEqual([['Foo', [10, 11]]]);
  });

  it('takes a page id given again by a later file of the history from the first file holding it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wikidelta-dump-files-'));
    try {
      writeFileSync(join(dir, 'p1.xml'), dump(page('Foo', 1, revision(10, '2025-01-06T10:00:00Z'), revision(11, '2025-01-14T10:00:00Z'))));
      writeFileSync(join(dir, 'p2.xml'), dump(page('Bar', 1, revision(20, '2025-01-06T11:00:00Z'), revision(21, '2025-01-15T10:00:00Z'))));
      const histories = await gatherHistories(new DumpFilesSource([join(dir, 'p1.xml'), join(dir, 'p2.xml')]), week);
      expect(histories.map((history) => [history.page.title, history.revisions.map((r) => r.revId)])).toEqual([['Foo', [10, 11]]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the file a broken one of several is, as a page alone does not tell which', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wikidelta-dump-files-'));
    try {
      writeFileSync(join(dir, 'p1.xml'), dump(page('Foo', 1, revision(10, '2025-01-06T10:00:00Z'), revision(11, '2025-01-14T10:00:00Z'))));
      writeFileSync(join(dir, 'p2.xml'), dump(page('Bar', 2, revision(20, '2025-01-06T11:00:00Z'), revision(21, '2025-01-15T10:00:00Z'))).slice(0, -40));
      const reading = gatherHistories(new DumpFilesSource([join(dir, 'p1.xml'), join(dir, 'p2.xml')]), week);
      await expect(reading).rejects.toThrow(withCode('E_DUMP_TRUNCATED', `${join(dir, 'p2.xml')}: dump is truncated`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a revision id given twice in a page, which would replace the other in the store', async () => {
    const twice = page('Foo', 1, revision(10, '2025-01-06T10:00:00Z'), revision(10, '2025-01-14T10:00:00Z'));
    await expect(collect(DumpRevisionSource.fromStream(Readable.from([dump(twice)])), week)).rejects.toThrow(
      withCode('E_DUMP_MALFORMED', 'dump has revision 10 twice in page "Foo" (page id 1)'),
    );
  });
});

describe('pages that are redirects now', () => {
  const revision = (id: number, timestamp: string, text: string) =>
    `<revision><id>${id}</id><timestamp>${timestamp}</timestamp><contributor><username>Ed</username></contributor><text xml:space="preserve">${text}</text></revision>`;
  const dump = `<mediawiki version="0.11">
    <page><title>Bonn</title><ns>0</ns><id>1</id>${revision(10, '2025-01-06T10:00:00Z', '{{Infobox settlement|population_total=1}}')}${revision(11, '2025-01-14T10:00:00Z', '{{Infobox settlement|population_total=2}}')}</page>
    <page><title>Old Bonn</title><ns>0</ns><id>2</id><redirect title="Bonn" />${revision(20, '2025-01-06T11:00:00Z', '{{Infobox settlement|population_total=3}}')}${revision(21, '2025-01-15T10:00:00Z', '#REDIRECT [[Bonn]]')}</page>
  </mediawiki>`;
  const week = windowFrom('2025-01-13', 7);
  const read = (options?: CollectOptions) => collect(DumpRevisionSource.fromStream(Readable.from([dump])), week, options);

  it('skips them, and yields them with the revision that made them redirects when asked to keep them (a sync)', async () => {
    expect((await read()).map((history) => history.page.title)).toEqual(['Bonn']);
    const kept = await read({ keepRedirects: true });
    expect(kept.map((history) => [history.page.title, history.revisions.map((r) => r.revId)])).toEqual([
      ['Bonn', [10, 11]],
      ['Old Bonn', [20, 21]],
    ]);
    expect(kept[1]?.revisions[1]?.text).toBe('#REDIRECT [[Bonn]]');
  });
});

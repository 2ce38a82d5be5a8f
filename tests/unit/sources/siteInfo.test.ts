/**
 * A dump's `<siteinfo>` (docs/ARCHITECTURE.md §3): read from the head alone, named and linked by
 * `wikiSiteOf`, and on standard input kept for the pass that reads on from it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { windowFrom } from '../../../src/dates.js';
import { DumpFilesSource } from '../../../src/sources/dumpFiles.js';
import { readSiteInfo } from '../../../src/sources/dumpReader.js';
import { DumpRevisionSource, wikiSiteOf } from '../../../src/sources/dumpSource.js';
import { gatherHistories } from '../../support/pageHistories.js';

const folder = mkdtempSync(join(tmpdir(), 'wikidelta-siteinfo-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const SITEINFO = `<siteinfo>
    <sitename>Wikipédia</sitename>
    <dbname>frwiki</dbname>
    <base>https://fr.wikipedia.org/wiki/Wikip%C3%A9dia:Accueil_principal</base>
    <namespaces><namespace key="0" case="first-letter" /></namespaces>
  </siteinfo>`;

const page = (id: number, title: string) =>
  `<page><title>${title}</title><ns>0</ns><id>${id}</id><revision><id>${id}0</id><timestamp>2023-01-03T00:00:00Z</timestamp><contributor><username>A</username></contributor><text xml:space="preserve">{{Infobox|a=${id}}}</text></revision></page>`;

const dump = (siteinfo = SITEINFO) => `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10">\n  ${siteinfo}\n${page(1, 'Paris')}\n${page(2, 'Lyon')}\n</mediawiki>\n`;

/** `text` in chunks of `size` bytes, counting those handed out. */
function chunked(text: string, size: number): { chunks: AsyncGenerator<Buffer>; given: () => number } {
  const bytes = Buffer.from(text);
  let given = 0;
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let at = 0; at < bytes.length; at += size) {
      given++;
      yield bytes.subarray(at, at + size);
    }
  }
  return { chunks: chunks(), given: () => given };
}

describe('readSiteInfo', () => {
  it("reads <dbname> and <base>, and no further than the <siteinfo>'s end", async () => {
    const text = dump();
    const input = chunked(text, 64);
    const { site, read } = await readSiteInfo(input.chunks);
    expect(site).toEqual({ dbname: 'frwiki', base: 'https://fr.wikipedia.org/wiki/Wikip%C3%A9dia:Accueil_principal' });
    const bytes = Buffer.from(text);
    expect(input.given()).toBe(Math.ceil((bytes.indexOf('</siteinfo>') + '</siteinfo>'.length) / 64));
    expect(Buffer.concat(read)).toEqual(bytes.subarray(0, input.given() * 64));
  });

  it('gives nulls for what an older export leaves unsaid, and stops at the first page of one without <siteinfo>', async () => {
    const old = await readSiteInfo(chunked(dump('<siteinfo><sitename>Wikipedia</sitename><base>http://en.wikipedia.org/wiki/Main_Page</base></siteinfo>'), 1000).chunks);
    expect(old.site).toEqual({ dbname: null, base: 'http://en.wikipedia.org/wiki/Main_Page' });
    const none = chunked(dump(''), 16);
    expect((await readSiteInfo(none.chunks)).site).toEqual({ dbname: null, base: null });
    expect(none.given()).toBeLessThan(dump('').indexOf('Lyon') / 16);
  });

  it('fails on a head that is no export, as the whole read would', async () => {
    await expect(readSiteInfo(chunked('<html><body>Not found</body></html>', 8).chunks)).rejects.toThrow('dump is not a MediaWiki XML export (root element <html>)');
    await expect(readSiteInfo(chunked('', 8).chunks)).rejects.toThrow('dump is empty');
  });
});

describe('wikiSiteOf', () => {
  it("names the wiki by <dbname> and links to the article path of <base>, the main page's URL", () => {
    expect(wikiSiteOf({ dbname: 'frwiki', base: 'https://fr.wikipedia.org/wiki/Wikip%C3%A9dia:Accueil_principal' }, 'd')).toEqual({ wiki: 'frwiki', articleBaseUrl: 'https://fr.wikipedia.org/wiki/' });
    expect(wikiSiteOf({ dbname: 'wikidatawiki', base: 'https://www.wikidata.org/wiki/Wikidata:Main_Page' }, 'd')).toEqual({ wiki: 'wikidatawiki', articleBaseUrl: 'https://www.wikidata.org/wiki/' });
    expect(wikiSiteOf({ dbname: null, base: 'http://en.wikipedia.org/wiki/Main_Page' }, 'd')).toEqual({ wiki: null, articleBaseUrl: 'http://en.wikipedia.org/wiki/' });
    expect(wikiSiteOf({ dbname: 'mywiki', base: 'https://wiki.example.org/index.php?title=Main_Page' }, 'd')).toEqual({ wiki: 'mywiki', articleBaseUrl: 'https://wiki.example.org/index.php?title=' });
    expect(wikiSiteOf({ dbname: 'zh_min_nanwiki', base: null }, 'd')).toEqual({ wiki: 'zh_min_nanwiki', articleBaseUrl: null });
  });

  it('refuses a name that is no database name and a base that is no http(s) URL, naming the dump', () => {
    expect(() => wikiSiteOf({ dbname: '../etc', base: null }, 'dump a.xml')).toThrow('dump a.xml: its <siteinfo> names the wiki "../etc", which is not a database name (letters, digits, _ . -)');
    expect(() => wikiSiteOf({ dbname: 'frwiki', base: 'javascript:alert(1)' }, 'dump a.xml')).toThrow('dump a.xml: its <siteinfo> <base> "javascript:alert(1)" is not an http(s) URL');
  });
});

describe("a dump source's site", () => {
  it('on standard input, keeps the head it read for the pass, which yields every page', async () => {
    const source = DumpRevisionSource.fromStream(Readable.from(chunked(dump(), 64).chunks));
    expect(await source.site()).toEqual({ wiki: 'frwiki', articleBaseUrl: 'https://fr.wikipedia.org/wiki/' });
    const histories = await gatherHistories(source, windowFrom('2023-01-02', 7));
    expect(histories.map((history) => history.page.title)).toEqual(['Paris', 'Lyon']);
  });

  it('of a file, opens it again for the pass; of several files, refuses two wikis', async () => {
    const french = join(folder, 'fr.xml');
    const english = join(folder, 'en.xml');
    writeFileSync(french, dump());
    writeFileSync(english, dump(SITEINFO.replace('frwiki', 'enwiki')));
    const file = new DumpRevisionSource(french);
    expect((await file.site()).wiki).toBe('frwiki');
    expect((await gatherHistories(file, windowFrom('2023-01-02', 7))).length).toBe(2);
    expect((await new DumpFilesSource([french, french]).site()).wiki).toBe('frwiki');
    await expect(new DumpFilesSource([french, english]).site()).rejects.toThrow(
      `the dump files are of different wikis: ${french} (frwiki, https://fr.wikipedia.org/wiki/) and ${english} (enwiki, https://fr.wikipedia.org/wiki/)`,
    );
  });
});

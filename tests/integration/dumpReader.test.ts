import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { openDumpInput } from '../../src/sources/dumpInput.js';
import { readDump, type DumpEvent } from '../../src/sources/dumpReader.js';
import { collect, collectUntilError, inChunksOf, revisions } from '../support/dumpEvents.js';
import { repoRoot } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { withCode } from '../support/errorCodes.js';

const enwikiXml = join(sharedData, 'enwiki-history-sample.xml');
const enwikiBz2 = join(sharedData, 'enwiki-history-sample.xml.bz2');
const frwikiXml = join(sharedData, 'frwiki-history-sample.xml');
const tinyGz = join(sharedData, 'enwiki-20140102-tiny-history.xml.gz');
const anarchismLzma = join(sharedData, 'anarchism-history-2001-2010.xml.lzma');

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(join(tmpdir(), 'wikidelta-dump-'));
});
afterAll(async () => {
  await rm(tempDir, { recursive: true, force: true });
});




function pageEnds(events: DumpEvent[]) {
  return events.flatMap((event) => (event.kind === 'pageEnd' ? [event.page] : []));
}


async function writeTemp(name: string, content: Buffer | string): Promise<string> {
  const path = join(tempDir, name);
  await writeFile(path, content);
  return path;
}

describe('readDump on the English history sample (schema 0.10)', () => {
  let events: DumpEvent[];
  beforeAll(async () => {
    events = await collect(enwikiXml);
  });

  it('reads the 30 pages and 209 revisions the data README announces', () => {
    expect(pageEnds(events)).toHaveLength(30);
    expect(revisions(events)).toHaveLength(209);
  });

  it('yields each page end after all of its revisions, each revision with its own page', () => {
    expect(events).toHaveLength(209 + 30);
    let open: number | null = null;
    for (const event of events) {
      if (open === null) open = event.page.pageId;
      expect(event.page.pageId).toBe(open);
      if (event.kind === 'pageEnd') open = null;
    }
    expect(open).toBeNull();
  });

  it('reads page headers, namespaces from <ns>, and revision fields', () => {
    const berlin = pageEnds(events).find((page) => page.title === 'Berlin');
    expect(berlin).toEqual({ pageId: 3354, title: 'Berlin', namespace: 0, redirect: false });
    expect(pageEnds(events).find((page) => page.title.startsWith('Category:'))).toMatchObject({ namespace: 14 });
    const first = revisions(events)[0]!.revision;
    expect(first).toMatchObject({
      revId: 909235319,
      parentId: 908852159,
      timestamp: '2019-08-04T02:20:44Z',
      sha1: 's7eftnzrmyk58xrfdvyzctbivf6hjk8',
      user: 'Modulus12',
      minor: false,
    });
    expect(first.comment).toMatch(/^Undid revision 908852159 by \[\[Special:Contributions\/InternetArchiveBot\|/);
    expect(first.text).toMatch(/^\{\{short description\|2011 Indonesian film/);
    expect(Buffer.byteLength(first.text!, 'utf8')).toBe(47220);
  });

  it('counts minor edits, anonymous editors and missing comments as the XML has them', () => {
    const all = revisions(events).map((event) => event.revision);
    expect(all.filter((revision) => revision.minor)).toHaveLength(71);
    expect(all.filter((revision) => /^\d+\.\d+\.\d+\.\d+$|:/.test(revision.user))).toHaveLength(42);
    expect(all.filter((revision) => revision.comment === '')).toHaveLength(209 - 177);
  });

  it('decodes entities: the text holds raw markup such as <ref>', () => {
    const texts = revisions(events).map((event) => event.revision.text ?? '');
    expect(texts.some((text) => text.includes('<ref>'))).toBe(true);
    expect(texts.some((text) => text.includes('&lt;'))).toBe(false);
  });

  it('gives the same events from the .bz2 file as from the plain file', async () => {
    expect(await collect(enwikiBz2)).toEqual(events);
  });

  it('gives the same events when the bytes arrive in tiny chunks', async () => {
    const bytes = await readFile(enwikiXml);
    const firstPages = bytes.subarray(0, bytes.indexOf('<page>', 3_000_000));
    const tail = Buffer.from('</mediawiki>');
    const whole = await collect(inChunksOf(Buffer.concat([firstPages, tail]), 1 << 20));
    expect(pageEnds(whole).length).toBeGreaterThanOrEqual(3);
    expect(await collect(inChunksOf(Buffer.concat([firstPages, tail]), 7))).toEqual(whole);
  });

  it('leaves text null, without failing, for revisions wantText declines, and shows it the full metadata', async () => {
    const asked: Array<{ title: string; sha1: string | null }> = [];
    const berlinOnly = await collect(enwikiXml, {
      wantText: (page, meta) => {
        asked.push({ title: page.title, sha1: meta.sha1 });
        return page.title === 'Berlin';
      },
    });
    expect(asked).toHaveLength(209);
    expect(asked.every((entry) => entry.sha1 !== null)).toBe(true);
    for (const { page, revision } of revisions(berlinOnly)) {
      expect(revision.text === null).toBe(page.title !== 'Berlin');
    }
    const withText = revisions(events).map((event) => ({ ...event.revision, text: null }));
    expect(revisions(berlinOnly).map((event) => ({ ...event.revision, text: null }))).toEqual(withText);
  });
  it('asks wantText only after the consumer handled every earlier event, even when one chunk holds the whole dump', async () => {
    const whole = await readFile(enwikiXml);
    let handled = 0;
    const handledWhenAsked: number[] = [];
    const revisionPositions: number[] = [];
    const events: DumpEvent[] = [];
    for await (const event of readDump(Readable.from([whole]), { wantText: () => (handledWhenAsked.push(handled), true) })) {
      if (event.kind === 'revision') revisionPositions.push(handled);
      events.push(event);
      handled++;
    }
    expect(handledWhenAsked).toHaveLength(209);
    // Each revision was asked about just before it arrived, when every event ahead of it was handled.
    expect(handledWhenAsked).toEqual(revisionPositions);
    expect(events).toEqual(await collect(enwikiXml));
  });
});

describe('readDump on other real dumps', () => {
  it('reads the French sample: 2 pages, 83 revisions, accented text decoded across 5-byte chunks', async () => {
    const bytes = await readFile(frwikiXml);
    const events = await collect(inChunksOf(bytes, 5));
    expect(pageEnds(events).map((page) => page.title)).toEqual(['Hôtes de passage', 'Raymond Beaudet']);
    expect(revisions(events)).toHaveLength(83);
    const first = revisions(events)[0]!.revision;
    expect(first).toMatchObject({ revId: 36815850, parentId: null, timestamp: '2009-01-06T16:56:57Z', user: '82.244.44.195' });
    expect(first.text).toMatch(/^''Hôtes de passage'' appartient/);
    expect(events).toEqual(await collect(frwikiXml));
  });

  it('reads the gzip tiny history (schema 0.8): 2 pages, 106 revisions, the redirect flagged', async () => {
    const events = await collect(tinyGz);
    expect(pageEnds(events)).toEqual([
      { pageId: 10, title: 'AccessibleComputing', namespace: 0, redirect: true },
      { pageId: 12, title: 'Anarchism', namespace: 0, redirect: false },
    ]);
    expect(revisions(events)).toHaveLength(106);
  });

  it('reads schema 0.4 (no <ns>) from the Anarchism history streamed out of xz, and stops the pipe early', async () => {
    const xz = spawn('xz', ['--format=lzma', '-dc', anarchismLzma], { stdio: ['ignore', 'pipe', 'ignore'] });
    const seen: DumpEvent[] = [];
    for await (const event of readDump(openDumpInput('-', { stdin: xz.stdout }))) {
      seen.push(event);
      if (seen.length === 3) break;
    }
    xz.kill();
    const first = revisions(seen)[0]!;
    expect(first.page).toEqual({ pageId: 12, title: 'Anarchism', namespace: 0, redirect: false });
    expect(first.revision).toMatchObject({ revId: 233194, parentId: null, timestamp: '2001-10-11T20:18:47Z', user: 'The Cunctator', sha1: null });
    expect(first.revision.text).toContain('Greek roots <i>an</i> (no) and <i>archos</i> (ruler)');
    expect(first.revision.text).toContain('"[[libertarian socialism|Libertarian socialists]]"');
  });

  it('derives the namespace of a 0.4 page from its title prefix and <siteinfo>', async () => {
    const xml = export04([
      page04('Talk:Anarchism', 13, '<revision><id>1</id><timestamp>2005-01-01T00:00:00Z</timestamp><text>x</text></revision>'),
      page04('Anarchism: A Documentary', 14, '<revision><id>2</id><timestamp>2005-01-01T00:00:00Z</timestamp><text>y</text></revision>'),
      page04('Portal:Anarchism', 15, '<revision><id>3</id><timestamp>2005-01-01T00:00:00Z</timestamp><text>z</text></revision>'),
    ]);
    const pages = pageEnds(await collect(inChunksOf(Buffer.from(xml), 64)));
    expect(pages.map((page) => [page.title, page.namespace])).toEqual([
      ['Talk:Anarchism', 1],
      ['Anarchism: A Documentary', 0],
      ['Portal:Anarchism', 100],
    ]);
  });

  it('distinguishes deleted, stub, blanked and absent text, and reads deleted contributors and comments as empty', async () => {
    const xml = `<mediawiki version="0.11"><page><title>T</title><ns>0</ns><id>5</id>
      <revision><id>1</id><timestamp>2020-01-01T00:00:00Z</timestamp><contributor deleted="deleted"/><comment deleted="deleted"/><text deleted="deleted"/><sha1/></revision>
      <revision><id>2</id><timestamp>2020-01-02T00:00:00Z</timestamp><text bytes="120" id="77"/><sha1>abc</sha1></revision>
      <revision><id>3</id><timestamp>2020-01-03T00:00:00Z</timestamp><contributor><ip>10.0.0.1</ip></contributor><minor/><text bytes="0"/></revision>
      <revision><id>4</id><timestamp>2020-01-04T00:00:00.000Z</timestamp><contributor><username>A &amp; B</username><id>9</id></contributor></revision>
      <revision><id>5</id><parentid>4</parentid><timestamp>2020-01-05T00:00:00Z</timestamp>
        <content><role>mediainfo</role><text>other slot</text></content><text xml:space="preserve">main&#10;&#x263A;<![CDATA[<raw>]]></text></revision>
    </page></mediawiki>`;
    const revs = revisions(await collect(inChunksOf(Buffer.from(xml), 3))).map((event) => event.revision);
    expect(revs.map((revision) => revision.text)).toEqual([null, null, '', null, 'main\n☺<raw>']);
    expect(revs[0]).toMatchObject({ user: '', comment: '', sha1: null });
    expect(revs[1]!.sha1).toBe('abc');
    expect(revs[2]).toMatchObject({ user: '10.0.0.1', minor: true });
    expect(revs[3]).toMatchObject({ user: 'A & B', timestamp: '2020-01-04T00:00:00Z', minor: false });
    expect(revs[4]!.parentId).toBe(4);
  });
});

describe('readDump errors', () => {
  it('reports an empty file', async () => {
    const path = await writeTemp('empty.xml', '');
    await expect(collect(path)).rejects.toThrow(withCode('E_DUMP_EMPTY'));
  });

  it('reports a file that is not XML, naming what it starts with', async () => {
    const { error } = await collectUntilError(join(sharedData, 'api-responses/api/INDEX.json'));
    expect(error).toMatchObject({ name: 'InputError', code: 'E_DUMP_NOT_MEDIAWIKI' });
    expect((error as Error).message).toBe('dump is not a MediaWiki XML export: it is not XML (it starts with "[ { \\"file\\": \\"en_Ronnie_Spector_query_rev…")');
  });

  it('reports an HTML page and an XML document of another kind by what they are', async () => {
    const html = await writeTemp('page.html', '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Wikipedia</title></head><body></body></html>\n');
    await expect(collect(html)).rejects.toThrow(new InputError('E_DUMP_NOT_MEDIAWIKI', 'dump is not a MediaWiki XML export (root element <html>)'));
    const lowercaseHtml = await writeTemp('page2.html', '<!doctype html>\n<html><body><p>Not found</body></html>');
    await expect(collect(lowercaseHtml)).rejects.toThrow(new InputError('E_DUMP_NOT_MEDIAWIKI', 'dump is not a MediaWiki XML export (it is an HTML page)'));
    const feed = await writeTemp('feed.xml', '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>');
    await expect(collect(feed)).rejects.toThrow(new InputError('E_DUMP_NOT_MEDIAWIKI', 'dump is not a MediaWiki XML export (root element <feed>)'));
  });

  describe('a dump cut off inside the page "Berlin"', () => {
    let bytes: Buffer;
    let berlinStart: number;
    let berlinEnd: number;
    beforeAll(async () => {
      bytes = await readFile(enwikiXml);
      berlinStart = bytes.lastIndexOf('<page>', bytes.indexOf('<title>Berlin</title>'));
      berlinEnd = bytes.indexOf('</page>', berlinStart) + '</page>'.length;
    });

    it.each([
      ['in the middle of its text', () => Math.floor((berlinStart + berlinEnd) / 2)],
      ['inside its closing tag', () => berlinEnd - 2],
    ])('%s: yields the revisions read, no page end for Berlin, then a truncation error', async (_, cutAt) => {
      const cut = bytes.subarray(0, cutAt());
      const path = await writeTemp('truncated.xml', cut);
      const { events, error } = await collectUntilError(path);
      expect(error).toEqual(new InputError('E_DUMP_TRUNCATED', 'dump is truncated inside page "Berlin" (page id 3354)'));
      expect(pageEnds(events).map((page) => page.title)).not.toContain('Berlin');
      expect(pageEnds(events)).toHaveLength(countOccurrences(bytes.subarray(0, berlinStart), '</page>'));
      const berlinRevisions = revisions(events).filter((event) => event.page.title === 'Berlin');
      expect(berlinRevisions).toHaveLength(countOccurrences(cut.subarray(berlinStart), '</revision>'));
    });

    it('just after its </page>: Berlin is complete, the dump is not', async () => {
      const path = await writeTemp('truncated-after.xml', bytes.subarray(0, berlinEnd));
      const { events, error } = await collectUntilError(path);
      expect(pageEnds(events).at(-1)?.title).toBe('Berlin');
      expect(error).toEqual(new InputError('E_DUMP_TRUNCATED', 'dump is truncated after page "Berlin" (page id 3354): no closing </mediawiki>'));
    });

    it('in a truncated .bz2: the decompressor failure surfaces, and no page end for the cut page', async () => {
      const compressed = await readFile(enwikiBz2);
      const path = await writeTemp('truncated.xml.bz2', compressed.subarray(0, Math.floor(compressed.length / 2)));
      const { events, error } = await collectUntilError(path);
      expect(error).toMatchObject({ name: 'InputError', code: 'E_DUMP_CORRUPT' });
      expect((error as Error).message).toMatch(/^dump .*truncated\.xml\.bz2 is not valid bzip2 data or is truncated \(bzip2: Compressed file ends unexpectedly/);
      const ended = new Set(pageEnds(events).map((page) => page.pageId));
      const cutPage = revisions(events).at(-1)!.page;
      expect(ended.has(cutPage.pageId)).toBe(false);
      expect(ended.size).toBeLessThan(30);
    });
  });

  it('reports malformed XML with its line', async () => {
    const bytes = await readFile(frwikiXml, 'utf8');
    const broken = bytes.replace('</title>', '</titel>');
    const { error } = await collectUntilError(inChunksOf(Buffer.from(broken), 1 << 16));
    expect(error).toMatchObject({ name: 'InputError', code: 'E_DUMP_MALFORMED' });
    expect((error as Error).message).toMatch(/^dump is malformed XML \(line \d+, column \d+: unexpected close tag/);
  });

  it('rejects undefined entities', async () => {
    const xml = '<mediawiki><page><title>T&nbsp;</title></page></mediawiki>';
    await expect(collect(Readable.from([xml]))).rejects.toThrow(withCode('E_DUMP_MALFORMED'));
  });

  describe('a DTD in the export', () => {
    const exportWith = (doctype: string, title: string, text: string) =>
      `<?xml version="1.0"?>\n${doctype}\n<mediawiki><page><title>${title}</title><ns>0</ns><id>1</id>` +
      `<revision><id>1</id><timestamp>2020-01-01T00:00:00Z</timestamp><text>${text}</text></revision></page></mediawiki>`;
    const laughs = ['<!DOCTYPE mediawiki [', '<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`), ']>'].join('\n');

    it('expands no entity it declares: a billion laughs is an undefined entity, in a title or in a text', async () => {
      await expect(collect(Readable.from([exportWith(laughs, '&lol9;', 'x')]))).rejects.toThrow(withCode('E_DUMP_MALFORMED', /^dump is malformed XML \(line 14, column \d+: undefined entity, inside a page\)$/));
      await expect(collect(Readable.from([exportWith(laughs, 'T', '&lol9;')]))).rejects.toThrow(withCode('E_DUMP_MALFORMED', /^dump is malformed XML \(line 14, column \d+: undefined entity, inside page "T" \(page id 1\)\)$/));
    });

    it('fetches no external entity nor external DTD', async () => {
      const external = '<!DOCTYPE mediawiki [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';
      await expect(collect(Readable.from([exportWith(external, 'T', '&xxe;')]))).rejects.toThrow(withCode('E_DUMP_MALFORMED', /undefined entity, inside page "T"/));
      const events = await collect(Readable.from([exportWith('<!DOCTYPE mediawiki SYSTEM "http://127.0.0.1:9/export.dtd">', 'A &amp; B', 'x &lt; y')]));
      expect(revisions(events).map((event) => [event.page.title, event.revision.text])).toEqual([['A & B', 'x < y']]);
    });
  });

  it('refuses characters XML does not allow, and text outside the root', async () => {
    await expect(collect(Readable.from(['<mediawiki><page><title>a\u0001b</title></page></mediawiki>']))).rejects.toThrow(withCode('E_DUMP_MALFORMED'));
    await expect(collect(Readable.from(['<mediawiki><page><title>&#0;</title></page></mediawiki>']))).rejects.toThrow(withCode('E_DUMP_MALFORMED'));
    await expect(collect(Readable.from(['<mediawiki></mediawiki>junk']))).rejects.toThrow(withCode('E_DUMP_MALFORMED'));
  });

  it('decodes only the texts asked for: a bad reference in a text nobody reads is never seen', async () => {
    const xml = `<mediawiki><page><title>T</title><ns>0</ns><id>1</id>
      <revision><id>1</id><timestamp>2020-01-01T00:00:00Z</timestamp><text>bad &nbsp; here</text></revision>
      <revision><id>2</id><timestamp>2020-01-02T00:00:00Z</timestamp><text>fine</text></revision></page></mediawiki>`;
    const second = await collect(Readable.from([xml]), { wantText: (_page, meta) => meta.revId === 2 });
    expect(revisions(second).map((event) => event.revision.text)).toEqual([null, 'fine']);
    await expect(collect(Readable.from([xml]))).rejects.toThrow(withCode('E_DUMP_MALFORMED', /^dump is malformed XML \(line 2, column \d+: undefined entity, inside page "T" \(page id 1\)\)$/));
  });

  it("reads a text asked for 'later' when the consumer reads it, as it would have read it at once", async () => {
    const now = revisions(await collect(frwikiXml));
    const later = revisions(await collect(inChunksOf(await readFile(frwikiXml), 4093), { wantText: () => 'later' }));
    expect(later.map((event) => event.revision.text)).toEqual(now.map(() => null));
    expect(later.map((event) => event.readText?.())).toEqual(now.map((event) => event.revision.text));
  });

  it('names a missing file, and a missing bzip2 program', async () => {
    const missing = join(tempDir, 'no-such-dump.xml.bz2');
    const missingError = await collect(missing).catch((error: unknown) => error);
    expect(missingError).toMatchObject({ code: 'E_FILE_UNREADABLE' });
    expect((missingError as Error).message).toBe(`dump file not found: ${missing}`);
    const noBzip2 = readDump(openDumpInput(enwikiBz2, { bzip2Command: join(tempDir, 'bzip2') }));
    await expect(noBzip2.next()).rejects.toThrow(
      new InputError(
        'E_DECOMPRESSOR_MISSING',
        `cannot read bzip2 dump ${enwikiBz2}: the ${join(tempDir, 'bzip2')} program is not installed (install the bzip2 package), ` +
          `or decompress it yourself into standard input: ${join(tempDir, 'bzip2')} -dc FILE | wikidelta … --dump -`,
      ),
    );
  });
});

describe('standard input', () => {
  async function pipedFrom(command: string, args: string[]): Promise<DumpEvent[]> {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    return collect(openDumpInput('-', { stdin: child.stdout }));
  }

  it('recognises plain, gzip and bzip2 data by their first bytes', async () => {
    const plain = await collect(enwikiXml);
    expect(await pipedFrom('cat', [enwikiXml])).toEqual(plain);
    expect(await pipedFrom('cat', [enwikiBz2])).toEqual(plain);
    expect(revisions(await pipedFrom('cat', [tinyGz]))).toHaveLength(106);
  });

  it('reads process.stdin of a real child process', async () => {
    const script = [
      `import { openDumpInput } from ${JSON.stringify(join(repoRoot, 'src/sources/dumpInput.ts'))};`,
      `import { readDump } from ${JSON.stringify(join(repoRoot, 'src/sources/dumpReader.ts'))};`,
      `let revisions = 0; for await (const e of readDump(openDumpInput('-'))) if (e.kind === 'revision') revisions++;`,
      `console.log(revisions);`,
    ].join('\n');
    const scriptPath = await writeTemp('count.mts', script);
    const child = spawn(process.execPath, ['--import', 'tsx', scriptPath], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
    createReadStream(tinyGz).pipe(child.stdin);
    let output = '';
    for await (const chunk of child.stdout) output += String(chunk);
    expect(output.trim()).toBe('106');
  });
});

function countOccurrences(bytes: Buffer, needle: string): number {
  let count = 0;
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) count++;
  return count;
}

function export04(pages: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.4/" version="0.4" xml:lang="en">
  <siteinfo><sitename>Wikipedia</sitename><case>first-letter</case>
    <namespaces><namespace key="-1">Special</namespace><namespace key="0"/><namespace key="1">Talk</namespace><namespace key="100">Portal</namespace></namespaces>
  </siteinfo>
${pages.join('\n')}
</mediawiki>`;
}

function page04(title: string, id: number, revisionsXml: string): string {
  return `<page><title>${title}</title><id>${id}</id>${revisionsXml}</page>`;
}

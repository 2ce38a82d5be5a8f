import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { collect, collectUntilError, inChunksOf, revisions } from '../../support/dumpEvents.js';

/** The bytes in two chunks, cut at `at`. */
async function* cutAt(bytes: Buffer, at: number): AsyncGenerator<Buffer> {
  yield bytes.subarray(0, at);
  yield bytes.subarray(at);
}

describe('readDump on markup cut by the chunks', () => {
  it('reads a comment, a CDATA section and a DOCTYPE wherever a chunk ends inside their opening', async () => {
    const xml = Buffer.from(
      '<!DOCTYPE mediawiki>\n<mediawiki><!-- a comment --><page><title>T</title><ns>0</ns><id>1</id>' +
        '<revision><id>1</id><timestamp>2020-01-01T00:00:00Z</timestamp><text>a<!-- inside -->b<![CDATA[<c>]]></text></revision></page></mediawiki>',
    );
    const whole = await collect(cutAt(xml, xml.length));
    expect(revisions(whole).map((event) => event.revision.text)).toEqual(['ab<c>']);
    for (const opening of ['<!DOCTYPE', '<!-- a', '<!-- inside', '<![CDATA[']) {
      const start = xml.indexOf(opening);
      for (let at = start + 1; at < start + opening.length; at++) {
        const { events, error } = await collectUntilError(cutAt(xml, at));
        const cut = `cut after ${xml.toString('latin1', start, at)}`;
        expect(error, cut).toBeNull();
        expect(events, cut).toEqual(whole);
      }
    }
  });
});

describe('readDump errors', () => {
  /** Line and column (1-based) of the first occurrence of `what` in an ASCII export. */
  function positionOf(xml: string, what: string): string {
    const at = xml.indexOf(what);
    const before = xml.slice(0, at).split('\n');
    return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
  }

  it('names the line and column of a character XML does not allow, in a text or a title', async () => {
    const text = '<mediawiki><page><title>T</title><ns>0</ns><id>1</id><revision><id>1</id><timestamp>2020-01-01T00:00:00Z</timestamp>' +
      '<text>ab\u0001cd\nsecond line\nthird</text></revision></page></mediawiki>';
    const inText = await collectUntilError(cutAt(Buffer.from(text), 100));
    expect(inText.error).toEqual(new InputError('E_DUMP_MALFORMED', `dump is malformed XML (${positionOf(text, '\u0001')}: disallowed character, inside page "T" (page id 1))`));
    const title = '<mediawiki>\n  <page>\n    <title>A &amp; B\u001f</title>\n  </page>\n</mediawiki>';
    const inTitle = await collectUntilError(cutAt(Buffer.from(title), 30));
    expect(inTitle.error).toEqual(new InputError('E_DUMP_MALFORMED', `dump is malformed XML (${positionOf(title, '\u001f')}: disallowed character, inside a page)`));
    const noncharacter = text.replace('\u0001', '').replace('second', 'sec\uffffond');
    const inNoncharacter = await collectUntilError(cutAt(Buffer.from(noncharacter), 130));
    expect(inNoncharacter.error).toEqual(new InputError('E_DUMP_MALFORMED', `dump is malformed XML (${positionOf(noncharacter, '\uffff')}: disallowed character, inside page "T" (page id 1))`));
  });

  it('names the page of a text read later with its own page, however far the reader has moved on', async () => {
    const page = (id: number, text: string) =>
      `<page><title>P${id}</title><ns>0</ns><id>${id}</id><revision><id>${id}</id><timestamp>2020-01-01T00:00:00Z</timestamp><text>${text}</text></revision></page>\n`;
    const xml = `<mediawiki>\n${page(1, 'bad &nbsp; here')}${page(2, 'fine')}</mediawiki>`;
    const events = await collect(inChunksOf(Buffer.from(xml), 16), { wantText: () => 'later' });
    expect(revisions(events)[1]!.readText?.()).toBe('fine');
    expect(() => revisions(events)[0]!.readText?.()).toThrow(new InputError('E_DUMP_MALFORMED', `dump is malformed XML (${positionOf(xml, '&nbsp;')}: undefined entity, inside page "P1" (page id 1))`));
  });
});

describe('readDump on revision fields MediaWiki never writes', () => {
  const dump = (revId: string, timestamp: string) =>
    `<mediawiki><page><title>T</title><ns>0</ns><id>1</id><revision><id>${revId}</id><timestamp>${timestamp}</timestamp><text>a</text></revision></page></mediawiki>`;

  it('refuses an id past 2^53, where two ids would be one number, as a malformed dump', async () => {
    const { error } = await collectUntilError(cutAt(Buffer.from(dump('99999999999999999999', '2025-01-14T10:00:00Z')), 10));
    expect(error).toEqual(new InputError('E_DUMP_MALFORMED', 'dump has a revision <id> in page "T" (page id 1) too large to be an id: "99999999999999999999"'));
  });

  it('refuses a revision or page id of 0, which MediaWiki never gives, as a malformed dump; reads a <parentid> of 0 as no parent', async () => {
    const revision = await collectUntilError(cutAt(Buffer.from(dump('0', '2025-01-14T10:00:00Z')), 10));
    expect(revision.error).toEqual(new InputError('E_DUMP_MALFORMED', 'dump gives 0 as the revision <id> in page "T" (page id 1): MediaWiki\'s ids start at 1'));
    const page = await collectUntilError(cutAt(Buffer.from(dump('10', '2025-01-14T10:00:00Z').replace('<id>1</id>', '<id> 0 </id>')), 10));
    expect(page.error).toEqual(new InputError('E_DUMP_MALFORMED', 'dump gives 0 as the <id> of page "T": MediaWiki\'s ids start at 1'));
    const first = dump('10', '2025-01-14T10:00:00Z').replace('<timestamp>', '<parentid>0</parentid><timestamp>');
    expect(revisions(await collect(cutAt(Buffer.from(first), 10))).map((event) => event.revision.parentId)).toEqual([null]);
  });

  it.each(['2025-02-30T10:00:00Z', '2025-01-19 22:00:00', '2025-01-19T22:00:00', '2025-01-19T24:00:00Z', 'Sun Jan 19 2025', '2025'])(
    'refuses the timestamp %j, which Date.parse would roll over or read in the machine time zone',
    async (timestamp) => {
      const { error } = await collectUntilError(cutAt(Buffer.from(dump('10', timestamp)), 10));
      expect(error).toEqual(new InputError('E_DUMP_MALFORMED', `dump has revision 10 with invalid timestamp "${timestamp}" in page "T" (page id 1)`));
    },
  );

  it('refuses a page whose title is blank: it would become a question about nothing', async () => {
    const blank = dump('10', '2025-01-14T10:00:00Z').replace('<title>T</title>', '<title>  </title>');
    const { error } = await collectUntilError(cutAt(Buffer.from(blank), 10));
    expect(error).toMatchObject({ code: 'E_DUMP_MALFORMED', message: expect.stringMatching(/^dump has a page with a blank <title>/) });
  });

  it('reads a timestamp with a fraction of a second to the second', async () => {
    const events = await collect(cutAt(Buffer.from(dump('10', '2025-01-19T22:00:05.250Z')), 10));
    expect(revisions(events).map((event) => event.revision.timestamp)).toEqual(['2025-01-19T22:00:05Z']);
  });
});

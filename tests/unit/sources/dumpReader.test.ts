import { describe, expect, it } from 'vitest';
import { collect, collectUntilError, revisions } from '../../support/dumpEvents.js';

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

/**
 * A snapshot's dump page whose bytes are not UTF-8 is stored as read (each sequence as U+FFFD), as
 * the weekly collect does, and, as there, said: one warning naming the page and a count, never silence.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSnapshot } from '../../../../pipelines/monthly/snapshot.js';
import { RecordingReporter } from '../../../../src/runs/progress.js';
import { dumpSnapshotArticles } from '../../../../src/sources/snapshotSources.js';
import { Store } from '../../../../src/store/store.js';

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(join(tmpdir(), 'wikidelta-snapshot-utf8-'));
});
afterAll(async () => {
  await rm(tempDir, { recursive: true, force: true });
});

/** An export of three articles: the first's latest text broken, the second's only an older revision's, the third clean. */
function dump(): Buffer {
  const revision = (id: number, day: string, text: Buffer) =>
    Buffer.concat([Buffer.from(`<revision><id>${id}</id><timestamp>2021-01-${day}T00:00:00Z</timestamp><text>`), text, Buffer.from('</text></revision>')]);
  const page = (id: number, title: string, ...revisions: Buffer[]) =>
    Buffer.concat([Buffer.from(`<page><title>${title}</title><ns>0</ns><id>${id}</id>`), ...revisions, Buffer.from('</page>')]);
  const text = (words: string) => Buffer.from(`${words} The town lies on the river. It has a bridge.`);
  return Buffer.concat([
    Buffer.from('<mediawiki>'),
    page(1, 'Broken', revision(11, '01', Buffer.concat([text('Broken'), Buffer.from([0xff, 0xfe]), Buffer.from(' end.')]))),
    page(2, 'Mended', revision(21, '01', Buffer.concat([text('Mended'), Buffer.from([0x80])])), revision(22, '02', text('Mended'))),
    page(3, 'Clean', revision(31, '01', text('Clean'))),
    Buffer.from('</mediawiki>'),
  ]);
}

describe('a snapshot from a dump with invalid UTF-8', () => {
  it('warns once per article whose stored text holds the replaced bytes, and counts them', async () => {
    const path = join(tempDir, 'broken.xml');
    await writeFile(path, dump());
    const store = Store.open(':memory:');
    const reporter = new RecordingReporter();
    const asOf = '2021-02-01T00:00:00Z';
    const outcome = await runSnapshot({
      store,
      reporter,
      input: { snapshot: { name: 's', wiki: 'dump', source: path, asOf }, articles: () => dumpSnapshotArticles(path, asOf) },
    });
    expect(outcome.run.status).toBe('done');
    const warnings = reporter.lines.filter((line) => line.level === 'warn');
    expect(warnings).toEqual([{ level: 'warn', message: 'invalid UTF-8 in the dump, replaced by U+FFFD', page: 'Broken', page_id: 1, sequences: 2 }]);
    const done = reporter.lines.find((line) => line.message === 'stage done') as { counts: Record<string, unknown> };
    expect(done.counts).toMatchObject({ articles: 3, invalid_utf8_pages: 1 });
    store.close();
  });
});

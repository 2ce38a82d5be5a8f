import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDumpInput } from '../../../src/sources/dumpInput.js';
import type { DumpEvent } from '../../../src/sources/dumpReader.js';
import { collect, collectUntilError, inChunksOf, revisions } from '../../support/dumpEvents.js';
import { repoRoot } from '../../../testkit/cli.js';

const sampleXml = join(repoRoot, 'data/sample/sample-history.xml');

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(join(tmpdir(), 'wikidelta-encodings-'));
});
afterAll(async () => {
  await rm(tempDir, { recursive: true, force: true });
});





async function writeTemp(name: string, content: Buffer | string): Promise<string> {
  const path = join(tempDir, name);
  await writeFile(path, content);
  return path;
}

/** Runs a system compressor in the temporary directory; returns the file it wrote (its standard output, unless it names the file itself). */
async function compressed(command: string, args: string[], output: string): Promise<string> {
  const child = spawn(command, args, { cwd: tempDir, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  for await (const chunk of child.stdout) chunks.push(chunk as Buffer);
  const code = await new Promise((resolveExit) => child.on('close', resolveExit));
  expect(code).toBe(0);
  if (!args.includes(output)) await writeFile(join(tempDir, output), Buffer.concat(chunks));
  return join(tempDir, output);
}

describe('dumps compressed as Wikimedia publishes them', () => {
  let plain: DumpEvent[];
  beforeAll(async () => {
    plain = await collect(sampleXml);
  });

  it.each([
    ['xz', 'xz', ['-c', sampleXml], 'sample.xml.xz'],
    ['lzma', 'xz', ['--format=lzma', '-c', sampleXml], 'sample.xml.lzma'],
    ['7z', '7z', ['a', '-bd', 'sample.7z', sampleXml], 'sample.7z'],
  ])('reads a %s file as the plain file, recognised by its first bytes only', async (_format, command, args, output) => {
    const path = await compressed(command, args, output);
    const misnamed = await writeTemp(`${output}-misnamed.xml`, await readFile(path));
    expect(revisions(plain).length).toBeGreaterThan(50);
    expect(await collect(path)).toEqual(plain);
    expect(await collect(misnamed)).toEqual(plain);
  });

  it.each([
    ['xz', ['-c', sampleXml]],
    ['xz', ['--format=lzma', '-c', sampleXml]],
  ])('reads %s %j output on standard input as the plain file', async (command, args) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    expect(await collect(openDumpInput('-', { stdin: child.stdout }))).toEqual(plain);
  });

  it('refuses a 7z archive on standard input with one line naming the command to pipe through', async () => {
    const archive = await compressed('7z', ['a', '-bd', 'piped.7z', sampleXml], 'piped.7z');
    const { events, error } = await collectUntilError(openDumpInput('-', { stdin: createReadStream(archive) }));
    expect(events).toEqual([]);
    expect(error).toMatchObject({ name: 'InputError', code: 'E_DUMP_STDIN_UNUSABLE' });
    expect((error as Error).message).toBe(
      'dump on standard input is a 7z archive, which 7z cannot read from a pipe: give its path to --dump, or pipe 7z x -so FILE.7z into --dump -',
    );
  });

  it.each([
    ['xz', ['-c', sampleXml], 'cut.xml.xz'],
    ['7z', ['a', '-bd', 'cut.7z', sampleXml], 'cut.7z'],
  ])('names a truncated %s file as such, in printable words on one line', async (command, args, output) => {
    const bytes = await readFile(await compressed(command, args, output));
    const cut = await writeTemp(`half-${output}`, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const { error } = await collectUntilError(cut);
    expect(error).toMatchObject({ name: 'InputError', code: 'E_DUMP_CORRUPT' });
    expect((error as Error).message).toMatch(new RegExp(`^dump .*half-${output.replace('.', '\\.')} is not valid ${command} data or is truncated \\([\\x20-\\x7e]+\\)$`));
  });

  it('refuses binary junk with one printable line that echoes none of its bytes', async () => {
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    const { error } = await collectUntilError(await writeTemp('junk.bin', junk));
    expect(error).toMatchObject({ name: 'InputError', code: 'E_DUMP_NOT_MEDIAWIKI' });
    expect((error as Error).message).toBe('dump is not a MediaWiki XML export: it is binary data, neither XML nor compressed as gzip, bzip2, 7z, xz or lzma');
    const oddText = Buffer.concat([Buffer.from('hello \u202e dlrow \u0085 '), Buffer.from([0xc3, 0x28, 0x41])]);
    const { error: textError } = await collectUntilError(await writeTemp('odd.txt', oddText));
    expect((textError as Error).message).toBe('dump is not a MediaWiki XML export: it is not XML (it starts with "hello ? dlrow ?")');
  });

  it('refuses binary junk bigger than the reader\'s 1 MiB chunks with the same line (hundreds of thousands of invalid UTF-8 sequences in one chunk)', async () => {
    // Random bytes, whose first byte opens no compression format nor markup.
    let state = 12345;
    const junk = Buffer.from(Array.from({ length: 3 << 20 }, () => (state = (state * 1103515245 + 12345) >>> 0) >>> 24));
    junk[0] = 0x80;
    const { error } = await collectUntilError(await writeTemp('junk-3mib.bin', junk));
    expect((error as Error).message).toBe('dump is not a MediaWiki XML export: it is binary data, neither XML nor compressed as gzip, bzip2, 7z, xz or lzma');
    expect(error).toMatchObject({ name: 'InputError', code: 'E_DUMP_NOT_MEDIAWIKI' });
  });
});

describe('invalid UTF-8 in a dump', () => {
  /** A two-page export whose revision texts are the given raw bytes. */
  function exportWith(first: Buffer, second: Buffer): Buffer {
    const page = (id: number, text: Buffer) =>
      Buffer.concat([
        Buffer.from(`<page><title>Page ${id}</title><ns>0</ns><id>${id}</id><revision><id>${id}0</id><timestamp>2021-01-0${id}T00:00:00Z</timestamp><text>`),
        text,
        Buffer.from('</text></revision></page>'),
      ]);
    return Buffer.concat([Buffer.from('<mediawiki>'), page(1, first), page(2, second), Buffer.from('</mediawiki>')]);
  }

  // A lone continuation byte, a cut-off 3-byte sequence, an encoded surrogate (3 invalid bytes).
  const broken = Buffer.concat([Buffer.from('a'), Buffer.from([0x80]), Buffer.from('b'), Buffer.from([0xe4, 0xb8]), Buffer.from('c'), Buffer.from([0xed, 0xa0, 0x80])]);

  it('is counted against its page, a literal U+FFFD is not, however chunks cut the bytes', async () => {
    const dump = exportWith(Buffer.from('caf\u00e9 \ufffd \u4e2d \u{1f600}', 'utf8'), broken);
    for (const size of [dump.length, 1, 2, 3, 7]) {
      const events = await collect(inChunksOf(dump, size));
      expect(events.flatMap((event) => (event.kind === 'pageEnd' ? [[event.page.pageId, event.invalidUtf8]] : []))).toEqual([
        [1, 0],
        [2, 5],
      ]);
      // Each invalid sequence reads as U+FFFD, exactly as the standard decoder reads it.
      expect(revisions(events).map((event) => event.revision.text)).toEqual(['caf\u00e9 \ufffd \u4e2d \u{1f600}', new TextDecoder().decode(broken)]);
    }
  });

  it('is counted when a page ends on a cut-off character', async () => {
    const events = await collect(inChunksOf(exportWith(Buffer.from([0xf0, 0x9f]), Buffer.from('ok')), 5));
    expect(events.flatMap((event) => (event.kind === 'pageEnd' ? [event.invalidUtf8] : []))).toEqual([1, 0]);
  });
});

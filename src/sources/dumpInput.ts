/**
 * Opens a dump as a stream of uncompressed XML bytes: a file or standard input (`-`), plain or
 * compressed as Wikimedia publishes dumps (gzip, bzip2, 7z, xz, lzma). The format is recognised by
 * its magic bytes, never by the file name, so a misnamed file still opens and standard input needs
 * no flag. Only gzip is decompressed in-process; the others go through the system's decompressors
 * (bzip2, xz-utils, p7zip-full), which are faster than any JavaScript port and already installed
 * wherever dumps are handled; a missing one is named with the command to pipe the dump through.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InputError, UserError } from '../errors.js';

/** A stream of dump bytes (or text), as `openDumpInput` and the readers accept it. */
export type DumpStream = NodeJS.ReadableStream | AsyncIterable<Buffer | string>;

/** Substitutes for the process's standard input and for the bzip2 on the PATH, for tests and callers that hold a stream. */
export interface DumpInputOptions {
  /** What `-` reads: process.stdin unless a caller substitutes an already open stream. */
  stdin?: DumpStream;
  /** The bzip2 executable; bzip2 on the PATH unless a caller substitutes one. */
  bzip2Command?: string;
}

type Compression = 'none' | 'gzip' | 'bzip2' | 'xz' | 'lzma' | '7z';

/** Enough leading bytes to tell every format below apart. */
const MAGIC_LENGTH = 6;

const MAGIC: Array<[Compression, Buffer]> = [
  ['gzip', Buffer.from([0x1f, 0x8b])],
  ['bzip2', Buffer.from('BZh', 'latin1')],
  ['xz', Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])],
  ['7z', Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])],
  // An lzma-alone header: the properties byte every encoder writes (lc=3, lp=0, pb=2), then a
  // dictionary size whose two low bytes are zero (every size xz and lzma write, 64 KiB and up).
  ['lzma', Buffer.from([0x5d, 0x00, 0x00])],
];

/** How a system decompressor is run, and what to tell a user who lacks it. */
interface Decompressor {
  format: string;
  command: string;
  /** Arguments when the compressed bytes come on its standard input. */
  args: string[];
  /** The package that installs `command`. */
  packageName: string;
}

/** The dump "path" that means standard input. */
export const STDIN_SOURCE = '-';

/**
 * The uncompressed bytes of a dump, whatever its compression (told by its magic bytes).
 *
 * @param source - a file path, or `-` for standard input
 * @returns the XML bytes, in chunks, as they are decompressed
 * @throws UserError for a file that is missing or a directory, or `-` on a terminal; InputError for
 *   data that is broken or truncated, a 7z archive on standard input, or a decompressor that is not
 *   installed (named with the command to pipe the dump through instead)
 * @example for await (const event of readDump(openDumpInput('enwiki-pages-meta-history1.xml.bz2'))) use(event);
 */
export async function* openDumpInput(source: string, options: DumpInputOptions = {}): AsyncGenerator<Buffer> {
  const name = source === STDIN_SOURCE ? 'standard input' : source;
  if (source === STDIN_SOURCE && !options.stdin && process.stdin.isTTY) {
    // Reading a terminal would wait for typed XML: almost surely a forgotten pipe.
    throw new UserError('E_DUMP_STDIN_UNUSABLE', 'dump "-" reads standard input, which is a terminal: pipe a dump into it');
  }
  const raw = source === STDIN_SOURCE ? (options.stdin ?? process.stdin) : await openFile(source);
  const chunks = (raw as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  try {
    let head = Buffer.alloc(0);
    while (head.length < MAGIC_LENGTH) {
      const next = await chunks.next();
      if (next.done) break;
      head = Buffer.concat([head, toBuffer(next.value)]);
    }
    const compressed = replay(head, chunks);
    const compression = compressionOf(head);
    if (compression === 'none') yield* compressed;
    else if (compression === 'gzip') yield* gunzip(compressed, name);
    else if (compression === 'bzip2') yield* decompress(compressed, name, { format: 'bzip2', command: options.bzip2Command ?? 'bzip2', args: ['-dc'], packageName: 'bzip2' });
    else if (compression === 'xz') yield* decompress(compressed, name, { format: 'xz', command: 'xz', args: ['-dc'], packageName: 'xz-utils' });
    else if (compression === 'lzma') yield* decompress(compressed, name, { format: 'lzma', command: 'xz', args: ['--format=lzma', '-dc'], packageName: 'xz-utils' });
    else {
      // 7z reads an archive by seeking in it: it takes the file itself, never a stream.
      if (source === STDIN_SOURCE) {
        throw new InputError('E_DUMP_STDIN_UNUSABLE', 'dump on standard input is a 7z archive, which 7z cannot read from a pipe: give its path to --dump, or pipe 7z x -so FILE.7z into --dump -');
      }
      yield* decompress(null, name, { format: '7z', command: '7z', args: ['x', '-so', source], packageName: 'p7zip-full' });
    }
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new InputError('E_FILE_UNREADABLE', `cannot read dump ${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    await chunks.return?.();
  }
}

async function openFile(path: string): Promise<Readable> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UserError('E_FILE_UNREADABLE', `dump path is a directory, not a file: ${path}`);
  } catch (error) {
    if (error instanceof UserError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError('E_FILE_UNREADABLE', `dump file not found: ${path}`);
    throw new UserError('E_FILE_UNREADABLE', `cannot open dump file ${path}: ${code ?? String(error)}`);
  }
  return createReadStream(path, { highWaterMark: 1 << 20 });
}

function compressionOf(head: Buffer): Compression {
  return MAGIC.find(([, magic]) => head.subarray(0, magic.length).equals(magic))?.[0] ?? 'none';
}

/** The bytes already read to sniff the format, then the rest of the stream. */
async function* replay(head: Buffer, rest: AsyncIterator<Buffer | string>): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield toBuffer(next.value);
}

async function* gunzip(compressed: AsyncIterable<Buffer>, name: string): AsyncGenerator<Buffer> {
  const output = pipeline(Readable.from(compressed), createGunzip(), () => {
    // Failures reach the consumer through the iteration of `output` below.
  });
  try {
    yield* output as AsyncIterable<Buffer>;
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new InputError('E_DUMP_CORRUPT', `dump ${name} is not valid gzip data or is truncated (${(error as Error).message})`, { cause: error });
  }
}

/**
 * The output of a system decompressor, fed `compressed` on its standard input (or, when null,
 * reading the file named in its arguments); its exit status tells corrupt or truncated data.
 */
async function* decompress(compressed: AsyncIterable<Buffer> | null, name: string, program: Decompressor): AsyncGenerator<Buffer> {
  const { format, command } = program;
  const child = spawn(command, program.args, { stdio: [compressed ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < 2000) stderr += text;
  });
  let feedError: NodeJS.ErrnoException | null = null;
  if (compressed && child.stdin) {
    pipeline(Readable.from(compressed), child.stdin, (error) => {
      feedError = error ?? null;
    });
  }
  try {
    yield* child.stdout as AsyncIterable<Buffer>;
    const { code, error } = await exited;
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      throw new InputError(
        'E_DECOMPRESSOR_MISSING',
        `cannot read ${format} dump ${name}: the ${command} program is not installed (install the ${program.packageName} package), ` +
          `or decompress it yourself into standard input: ${pipeCommand(program)} | wikidelta … --dump -`,
      );
    }
    if (error) throw new InputError('E_DECOMPRESSOR_MISSING', `cannot read ${format} dump ${name}: ${command} failed to start (${error.message})`);
    // A decompressor stops reading when the data is corrupt: its exit status reports that, not the broken pipe it leaves.
    const readError = feedError as NodeJS.ErrnoException | null;
    if (readError && readError.code !== 'EPIPE') throw new InputError('E_FILE_UNREADABLE', `cannot read dump ${name}: ${readError.message}`, { cause: readError });
    if (code !== 0) {
      const reason = stderr.split('\n').find((line) => /[a-z]/i.test(line) && !/^(7-Zip|p7zip)/.test(line.trim())) ?? `exit status ${code}`;
      throw new InputError('E_DUMP_CORRUPT', `dump ${name} is not valid ${format} data or is truncated (${printable(reason.trim())})`);
    }
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

/** The command that decompresses a file of this format to standard output. */
function pipeCommand(program: Decompressor): string {
  if (program.format === '7z') return '7z x -so FILE';
  return [program.command, ...program.args, 'FILE'].join(' ');
}

/** A decompressor's message as one printable line: it may quote bytes of the data. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}

function toBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

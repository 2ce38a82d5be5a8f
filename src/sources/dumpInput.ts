/**
 * Opens a dump as a stream of uncompressed XML bytes: a file or standard input (`-`), plain,
 * gzip or bzip2. The format is recognised by its magic bytes, never by the file name, so a
 * misnamed file still opens and standard input needs no flag.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InputError, UserError } from '../errors.js';

export type DumpStream = NodeJS.ReadableStream | AsyncIterable<Buffer | string>;

export interface DumpInputOptions {
  /** What `-` reads: process.stdin unless a caller substitutes an already open stream. */
  stdin?: DumpStream;
  /** The bzip2 executable; bzip2 on the PATH unless a caller substitutes one. */
  bzip2Command?: string;
}

type Compression = 'none' | 'gzip' | 'bzip2';

/** Enough leading bytes to tell every format below apart. */
const MAGIC_LENGTH = 6;

export const STDIN_SOURCE = '-';

/** `source` is a file path or `-` for standard input; yields uncompressed XML bytes. */
export async function* openDumpInput(source: string, options: DumpInputOptions = {}): AsyncGenerator<Buffer> {
  const name = source === STDIN_SOURCE ? 'standard input' : source;
  if (source === STDIN_SOURCE && !options.stdin && process.stdin.isTTY) {
    // Reading a terminal would wait for typed XML: almost surely a forgotten pipe.
    throw new UserError('dump "-" reads standard input, which is a terminal: pipe a dump into it');
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
    const compression = compressionOf(head, name);
    if (compression === 'none') yield* compressed;
    else if (compression === 'gzip') yield* gunzip(compressed, name);
    else yield* bunzip2(compressed, name, options.bzip2Command ?? 'bzip2');
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new InputError(`cannot read dump ${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    await chunks.return?.();
  }
}

async function openFile(path: string): Promise<Readable> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UserError(`dump path is a directory, not a file: ${path}`);
  } catch (error) {
    if (error instanceof UserError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`dump file not found: ${path}`);
    throw new UserError(`cannot open dump file ${path}: ${code ?? String(error)}`);
  }
  return createReadStream(path, { highWaterMark: 1 << 20 });
}

function compressionOf(head: Buffer, name: string): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.subarray(0, 3).toString('latin1') === 'BZh') return 'bzip2';
  if (head.equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) {
    throw new InputError(`dump ${name} is xz-compressed: decompress it into standard input, e.g. xz -dc FILE | wikidelta … --dump -`);
  }
  if (head.equals(Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]))) {
    throw new InputError(`dump ${name} is a 7z archive: decompress it into standard input, e.g. 7z e -so FILE | wikidelta … --dump -`);
  }
  return 'none';
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
    throw new InputError(`dump ${name} is not valid gzip data or is truncated (${(error as Error).message})`, { cause: error });
  }
}

async function* bunzip2(compressed: AsyncIterable<Buffer>, name: string, command: string): AsyncGenerator<Buffer> {
  const child = spawn(command, ['-dc'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < 2000) stderr += text;
  });
  let feedError: NodeJS.ErrnoException | null = null;
  pipeline(Readable.from(compressed), child.stdin, (error) => {
    feedError = error ?? null;
  });
  try {
    yield* child.stdout as AsyncIterable<Buffer>;
    const { code, error } = await exited;
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      throw new InputError(`cannot read bzip2 dump ${name}: the ${command} program is not installed (install the bzip2 package)`);
    }
    if (error) throw new InputError(`cannot read bzip2 dump ${name}: ${command} failed to start (${error.message})`);
    // bzip2 stops reading when the data is corrupt: its exit status reports that, not the broken pipe it leaves.
    const readError = feedError as NodeJS.ErrnoException | null;
    if (readError && readError.code !== 'EPIPE') throw new InputError(`cannot read dump ${name}: ${readError.message}`, { cause: readError });
    if (code !== 0) {
      const reason = stderr.split('\n').find((line) => line.trim() !== '') ?? `exit status ${code}`;
      throw new InputError(`dump ${name} is not valid bzip2 data or is truncated (${reason.trim()})`);
    }
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

function toBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

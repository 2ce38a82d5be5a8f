/**
 * Streaming dump reader throughput: the 1.05 GB Anarchism history (schema 0.4, 15,180 revisions)
 * decompressed by xz and piped in as `--dump -` would receive it. xz alone is timed too, so that
 * the figure is known to measure parsing, not decompression.
 */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDumpInput } from '../../src/sources/dumpInput.js';
import { readDump } from '../../src/sources/dumpReader.js';
import { peakRssMb, report } from './report.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dump = resolve(repoRoot, '../shared/data/anarchism-history-2001-2010.xml.lzma');

interface Pipe {
  stdout: AsyncIterable<Buffer>;
  bytes: () => number;
  finished: Promise<void>;
}

function xzPipe(): Pipe {
  const child = spawn('xz', ['--format=lzma', '-dc', dump], { stdio: ['ignore', 'pipe', 'inherit'] });
  let bytes = 0;
  const finished = new Promise<void>((resolveExit, reject) => {
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolveExit() : reject(new Error(`xz exited with ${code}`))));
  });
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      yield chunk;
    }
  }
  return { stdout: counted(), bytes: () => bytes, finished };
}

function megabytesPerSecond(bytes: number, seconds: number): number {
  return bytes / 1e6 / seconds;
}

async function timeXzAlone(): Promise<number> {
  const pipe = xzPipe();
  const started = performance.now();
  for await (const chunk of pipe.stdout) void chunk;
  await pipe.finished;
  return megabytesPerSecond(pipe.bytes(), (performance.now() - started) / 1000);
}

async function timeReader(wantText: boolean): Promise<{ bytes: number; revisions: number; seconds: number }> {
  const pipe = xzPipe();
  const started = performance.now();
  let revisions = 0;
  for await (const event of readDump(openDumpInput('-', { stdin: pipe.stdout }), { wantText: () => wantText })) {
    if (event.kind === 'revision') revisions++;
  }
  await pipe.finished;
  return { bytes: pipe.bytes(), revisions, seconds: (performance.now() - started) / 1000 };
}

const xzOnly = await timeXzAlone();
const full = await timeReader(true);
const fullRate = megabytesPerSecond(full.bytes, full.seconds);
const skipped = await timeReader(false);
report('dump_stream', fullRate, 'MB/s', {
  bytes: full.bytes,
  revisions: full.revisions,
  seconds: Number(full.seconds.toFixed(2)),
  xz_only_mb_s: Number(xzOnly.toFixed(1)),
  without_text_mb_s: Number(megabytesPerSecond(skipped.bytes, skipped.seconds).toFixed(1)),
  limited_by: xzOnly < fullRate * 1.5 ? 'xz decompression' : 'parsing',
});
report('dump_stream_peak_rss', peakRssMb(), 'MB');

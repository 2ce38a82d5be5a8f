/**
 * Streaming dump reader throughput: the 1.05 GB Anarchism history (schema 0.4, 15,180 revisions)
 * decompressed by xz and piped in as `--dump -` would receive it. xz alone is timed too, so that
 * the figure is known to measure parsing, not decompression. The whole-history window (every
 * revision's text kept and stored, as the collect stage does) runs first, so that the peak RSS it
 * reports is its own: it must stay bounded by a part of revisions, not grow with the history.
 */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDumpInput } from '../../src/sources/dumpInput.js';
import { DumpRevisionSource } from '../../src/sources/dumpSource.js';
import { openDatabase } from '../../src/store/database.js';
import { RevisionStore } from '../../src/store/revisionStore.js';
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

/** The collect stage's work over 2001-2010: every revision in the window, stored part by part. */
async function timeWholeHistory(): Promise<{ bytes: number; revisions: number; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-'));
  const db = openDatabase(join(dir, 'bench.sqlite'));
  try {
    const store = new RevisionStore(db, 'bench');
    const window = { start: '2001-01-01T00:00:00Z', end: '2011-01-01T00:00:00Z' };
    const pipe = xzPipe();
    const started = performance.now();
    let revisions = 0;
    for await (const part of DumpRevisionSource.fromStream(pipe.stdout).pagesChangedIn(window)) {
      if (part.kind === 'end') store.finishPage(window, part.page, part);
      else {
        store.saveRevisions(part.page, part.revisions, window);
        revisions += part.revisions.length;
      }
    }
    await pipe.finished;
    return { bytes: pipe.bytes(), revisions, seconds: (performance.now() - started) / 1000 };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const whole = await timeWholeHistory();
report('dump_stream_whole_history', megabytesPerSecond(whole.bytes, whole.seconds), 'MB/s', {
  bytes: whole.bytes,
  revisions: whole.revisions,
  seconds: Number(whole.seconds.toFixed(2)),
});
report('dump_stream_whole_history_peak_rss', peakRssMb(), 'MB');

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

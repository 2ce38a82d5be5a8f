/**
 * Dump reading on the 1.05 GB Anarchism history (schema 0.4, 15,180 revisions), decompressed by xz
 * once into a file (xz alone timed too, so the figures are known to measure reading):
 * - `dump_stream_whole_history`: every revision of 2001-2010 read and stored part by part, as the
 *   collect stage stores them, first, so that the peak RSS it reports is its own: it must stay
 *   bounded by a part of revisions, not grow with the history;
 * - `dump_stream`: the reader alone, every text decoded; without texts; and as the collect stage
 *   reads it for a week (DumpRevisionSource: the window's texts decoded, the one before it kept
 *   undecoded until known to be the last);
 * - `anarchism_collect_to_select`: `wikidelta weekly --stages collect,parse,diff,select` over the
 *   week of 2005-12-05 (336 revisions, the history's busiest), the built command, its own peak RSS.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { windowFrom } from '../../src/dates.js';
import { readDump } from '../../src/sources/dumpReader.js';
import { DumpRevisionSource } from '../../src/sources/dumpSource.js';
import { openDatabase } from '../../src/store/database.js';
import { RevisionStore } from '../../src/store/revisionStore.js';
import { measureCommand, peakRssMb, report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const compressed = join(sharedData, 'anarchism-history-2001-2010.xml.lzma');
const WEEK = windowFrom('2005-12-05', 7);

const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-dump-'));
const dump = join(dir, 'anarchism.xml');

function megabytesPerSecond(bytes: number, seconds: number): number {
  return bytes / 1e6 / seconds;
}

/** Wall and CPU seconds of `work` (this process, all its threads): on a shared machine the wall time measures the neighbours too. */
async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; cpuSeconds: number; result: T }> {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const result = await work();
  const { user, system } = process.cpuUsage(cpuStarted);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (user + system) / 1e6, result };
}

/** Decompresses the history into `dump`; returns xz's rate of output. */
async function decompress(): Promise<number> {
  const xz = spawn('xz', ['--format=lzma', '-dc', compressed], { stdio: ['ignore', 'pipe', 'inherit'] });
  const { seconds } = await timed(() => pipeline(xz.stdout, createWriteStream(dump)));
  return megabytesPerSecond(statSync(dump).size, seconds);
}

function input() {
  return createReadStream(dump, { highWaterMark: 1 << 20 });
}

async function readAll(wantText: boolean): Promise<number> {
  let revisions = 0;
  for await (const event of readDump(input(), { wantText: () => wantText })) if (event.kind === 'revision') revisions++;
  return revisions;
}

/** The collect stage's work over 2001-2010: every revision in the window, stored part by part. */
async function storeWholeHistory(): Promise<number> {
  const db = openDatabase(join(dir, 'whole.sqlite'));
  try {
    const store = new RevisionStore(db, 'bench');
    const window = { start: '2001-01-01T00:00:00Z', end: '2011-01-01T00:00:00Z' };
    let revisions = 0;
    for await (const part of DumpRevisionSource.fromStream(input()).pagesChangedIn(window)) {
      if (part.kind === 'end') store.finishPage(window, part.page, part);
      else {
        store.saveRevisions(part.page, part.revisions, window);
        revisions += part.revisions.length;
      }
    }
    return revisions;
  } finally {
    db.close();
  }
}

/** What the collect stage reads of the history for one week. */
async function readWeek(): Promise<number> {
  let revisions = 0;
  for await (const part of new DumpRevisionSource(dump).pagesChangedIn(WEEK, { followHours: 48 })) {
    if (part.kind === 'revisions') revisions += part.revisions.length;
  }
  return revisions;
}

try {
  const xzRate = await decompress();
  const bytes = statSync(dump).size;
  const load = () => Number((loadavg()[0] ?? 0).toFixed(2));

  const whole = await timed(storeWholeHistory);
  report('dump_stream_whole_history', megabytesPerSecond(bytes, whole.seconds), 'MB/s', { bytes, revisions: whole.result, seconds: Number(whole.seconds.toFixed(2)), cpu_seconds: Number(whole.cpuSeconds.toFixed(2)), mb_per_cpu_s: Number(megabytesPerSecond(bytes, whole.cpuSeconds).toFixed(1)), load: load() });
  report('dump_stream_whole_history_peak_rss', peakRssMb(), 'MB');

  const full = await timed(() => readAll(true));
  const withoutText = await timed(() => readAll(false));
  const week = await timed(readWeek);
  report('dump_stream', megabytesPerSecond(bytes, full.seconds), 'MB/s', {
    bytes,
    revisions: full.result,
    seconds: Number(full.seconds.toFixed(2)),
    cpu_seconds: Number(full.cpuSeconds.toFixed(2)),
    mb_per_cpu_s: Number(megabytesPerSecond(bytes, full.cpuSeconds).toFixed(1)),
    xz_only_mb_s: Number(xzRate.toFixed(1)),
    without_text_mb_s: Number(megabytesPerSecond(bytes, withoutText.seconds).toFixed(1)),
    without_text_mb_per_cpu_s: Number(megabytesPerSecond(bytes, withoutText.cpuSeconds).toFixed(1)),
    week_mb_s: Number(megabytesPerSecond(bytes, week.seconds).toFixed(1)),
    week_mb_per_cpu_s: Number(megabytesPerSecond(bytes, week.cpuSeconds).toFixed(1)),
    week_revisions: week.result,
    load: load(),
    target_mb_s: 100,
  });

  const db = join(dir, 'week.sqlite');
  const args = [join(repoRoot, 'bin/wikidelta.js'), '--db', db, 'weekly', '--start', '2005-12-05', '--dump', dump, '--stages', 'collect,parse,diff,select', '--llm', 'offline'];
  const loadBefore = load();
  const command = await measureCommand(process.execPath, args);
  report('anarchism_collect_to_select', command.seconds, 's', {
    cpu_seconds: Number(command.cpuSeconds.toFixed(1)),
    peak_rss_mb: Math.round(command.peakRssMb),
    load_before: loadBefore,
    load_after: load(),
    limit_s: 15,
    limit_mb: 500,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

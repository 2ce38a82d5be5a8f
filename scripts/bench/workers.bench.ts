/**
 * The work queue's speedup: the same work run by `--queue` with one `wikidelta worker` process and
 * then with two, each from a fresh copy of the store and fresh workers (so each pays its own model
 * loading, as a real run does). The two sides alternate for ROUNDS rounds (1, 2, 1, 2, …) so that
 * a change in the machine's load falls on both; each side's figure is its fastest round, the one
 * least disturbed by other processes. The load average is reported with every figure.
 * - workers_label_speedup: `label --queue`, one-worker time over two-worker time; pages of the
 *   shared sample below 130,000 characters as of 2021-01-01 and 2021-07-01 (19 article pairs; not
 *   copied like the weekly history: a worker labeling several copies reuses its caches for the
 *   sentences they share, which favours one worker); the serial part is estimated as
 *   2 × two-worker time − one-worker time;
 * - workers_label_throughput: article pairs labeled per second per worker, with one worker;
 * - workers_weekly_speedup: `weekly --stages parse,diff --queue` over the sample's history copied
 *   COPIES times under other page and revision ids (collected once, beforehand, in process);
 * - workers_weekly_parse_throughput: revisions parsed and diffed per second per worker, one worker.
 * - machine_parallel_capacity: the same CPU loop in one process twice over against two processes
 *   once each, beside each speedup: what a second process could get of the machine at that time
 *   (2 on an idle 2-core machine), the ceiling any two-worker speedup measured then had.
 * `tsx scripts/bench/workers.bench.ts label` (or `weekly`) measures one of the two only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { SnapshotStore } from '../../src/store/snapshotStore.js';
import { cliPath } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { startRedis } from '../../testkit/redis.js';
import { report } from './report.js';

const [OLD, NEW] = ['2021-01-01', '2021-07-01'];
const MAX_PAGE_CHARS = 130_000;
const ROUNDS = 2;
const COPIES = 4;
const WEEK = ['--start', '2019-06-01', '--days', '1000'];
const parts = (process.argv[2] ?? 'label,weekly').split(',');

function wikidelta(args: string[]): string {
  const result = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`wikidelta ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** A worker process, resolved once it takes jobs. */
function startWorker(queueUrl: string): Promise<ChildProcess> {
  const worker = spawn(process.execPath, [cliPath, 'worker', '--queue', queueUrl], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolveReady, reject) => {
    let stderr = '';
    worker.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('taking jobs')) resolveReady(worker);
    });
    worker.once('exit', () => reject(new Error(`worker exited: ${stderr}`)));
  });
}

/** Times `args` on a fresh copy of `template` with `count` fresh workers; returns seconds and what it printed. */
async function timed(template: string, db: string, count: number, queueUrl: string, args: string[]): Promise<{ seconds: number; printed: string }> {
  copyFileSync(template, db);
  const workers = await Promise.all(Array.from({ length: count }, () => startWorker(queueUrl)));
  try {
    const started = performance.now();
    const printed = wikidelta(['--db', db, '--json', ...args, '--queue', queueUrl]);
    return { seconds: (performance.now() - started) / 1000, printed };
  } finally {
    for (const worker of workers) worker.kill('SIGTERM');
  }
}

/** Seconds for `processes` processes each spinning `units` units of CPU work at once. */
function spin(processes: number, units: number): Promise<number> {
  const loop = `let x = 0; for (let i = 0; i < ${units} * 150_000_000; i++) x = (x + i) % 1_000_003; if (x < 0) console.log(x);`;
  const started = performance.now();
  return Promise.all(
    Array.from({ length: processes }, () => new Promise((resolveExit) => spawn(process.execPath, ['-e', loop], { stdio: 'ignore' }).once('exit', resolveExit))),
  ).then(() => (performance.now() - started) / 1000);
}

/** One process doing two units against two doing one each: how much of a second core there is now. */
async function parallelCapacity(): Promise<number> {
  const one = await spin(1, 2);
  const two = await spin(2, 1);
  return Number((one / two).toFixed(2));
}

/** Each side's fastest round, the sides alternating, and the load averages seen at each run's start. */
async function sideBySide(run: (count: number) => Promise<number>): Promise<{ one: number; two: number; rounds: number[][]; load: number[]; capacity: number[] }> {
  const rounds: number[][] = [];
  const load: number[] = [];
  const capacity: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    capacity.push(await parallelCapacity());
    const times: number[] = [];
    for (const count of [1, 2]) {
      load.push(Number((loadavg()[0] ?? 0).toFixed(2)));
      times.push(Number((await run(count)).toFixed(1)));
    }
    rounds.push(times);
  }
  return { one: Math.min(...rounds.map((r) => r[0] ?? Infinity)), two: Math.min(...rounds.map((r) => r[1] ?? Infinity)), rounds, load, capacity };
}

/** One worker's time over two workers' time, with the rounds, the load and the machine's capacity beside it. */
function reportSpeedup(name: string, side: Awaited<ReturnType<typeof sideBySide>>, extra: Record<string, unknown>): void {
  report(name, side.one / side.two, 'x', {
    one_worker_seconds: side.one,
    two_workers_seconds: side.two,
    serial_seconds: Number((2 * side.two - side.one).toFixed(1)),
    rounds_seconds: side.rounds,
    load_average: side.load,
    machine_parallel_capacity: side.capacity,
    ...extra,
  });
}

/** The sample's history as other pages: every id moved by a copy's offset, every title marked. */
function copiedHistory(pages: readonly string[], copy: number): string[] {
  const offset = copy * 1_000_000_000;
  return pages.map((page) =>
    page
      .replace(/<(id|parentid)>(\d+)<\/\1>/g, (_, tag: string, id: string) => `<${tag}>${Number(id) + offset}</${tag}>`)
      .replace(/<title>([^<]*)<\/title>/, (_, title: string) => `<title>${title} (copy ${copy})</title>`),
  );
}

const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-workers-'));
const redis = await startRedis();
try {
  const xml = readFileSync(join(sharedData, 'enwiki-history-sample.xml'), 'utf8');
  const pages = xml.match(/<page>[\s\S]*?<\/page>/g) ?? [];

  if (parts.includes('label')) await labelSpeedup(pages);
  if (parts.includes('weekly')) await weeklySpeedup(pages);
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}

async function labelSpeedup(pages: readonly string[]): Promise<void> {
  const largestText = (page: string) => Math.max(0, ...[...page.matchAll(/<text[^>]*>([\s\S]*?)<\/text>/g)].map((match) => (match[1] ?? '').length));
  const kept = pages.filter((page) => largestText(page) < MAX_PAGE_CHARS);
  const dump = join(dir, 'pages.xml');
  writeFileSync(dump, `<mediawiki>\n${kept.join('\n')}\n</mediawiki>\n`);
  const template = join(dir, 'template.sqlite');
  for (const date of [OLD, NEW]) wikidelta(['--db', template, 'snapshot', '--name', date, '--dump', dump, '--as-of', date]);
  const store = new Sqlite(template, { readonly: true });
  const pairs = new SnapshotStore(store).pairs(OLD, NEW).length;
  store.close();
  const label = await sideBySide(async (count) => {
    const { seconds, printed } = await timed(template, join(dir, `label-${count}.sqlite`), count, redis.url, ['label', '--old', OLD, '--new', NEW]);
    process.stderr.write(`label, ${count} worker(s): ${seconds.toFixed(1)} s, ${JSON.stringify((JSON.parse(printed) as { counts: unknown }).counts)}\n`);
    return seconds;
  });
  reportSpeedup('workers_label_speedup', label, {
    pages: kept.length,
    article_pairs: pairs,
    old: OLD,
    new: NEW,
  });
  report('workers_label_throughput', pairs / label.one, 'article pairs/s per worker', { article_pairs: pairs });
}

async function weeklySpeedup(pages: readonly string[]): Promise<void> {
  const history = join(dir, 'history.xml');
  writeFileSync(history, `<mediawiki>\n${Array.from({ length: COPIES }, (_, copy) => copiedHistory(pages, copy).join('\n')).join('\n')}\n</mediawiki>\n`);
  const collected = join(dir, 'collected.sqlite');
  wikidelta(['--db', collected, 'weekly', ...WEEK, '--dump', history, '--stages', 'collect']);
  let revisions = 0;
  const weekly = await sideBySide(async (count) => {
    const { seconds, printed } = await timed(collected, join(dir, `weekly-${count}.sqlite`), count, redis.url, ['weekly', ...WEEK, '--stages', 'parse,diff']);
    const stages = (JSON.parse(printed) as { stages: Array<{ stage: string; counts: Record<string, number> }> }).stages;
    revisions = stages.find((stage) => stage.stage === 'parse')?.counts.revisions ?? 0;
    process.stderr.write(`weekly parse and diff, ${count} worker(s): ${seconds.toFixed(1)} s, ${JSON.stringify(stages.map((stage) => [stage.stage, stage.counts]))}\n`);
    return seconds;
  });
  reportSpeedup('workers_weekly_speedup', weekly, {
    revisions,
    copies_of_the_sample: COPIES,
  });
  report('workers_weekly_parse_throughput', revisions / weekly.one, 'revisions/s per worker (parse and diff)', { revisions });
}

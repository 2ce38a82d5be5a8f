/**
 * Labeling on the queue's workers: the same snapshot pair labeled by `label --queue` with one
 * `wikidelta worker` process, then with two, each from a fresh copy of the store and fresh workers
 * (so each pays its own model loading, as a real run does). Figures:
 * - workers_label_speedup: the one-worker time over the two-worker time;
 * - workers_label_throughput: article pairs labeled per second per worker, with one worker.
 * Pages of the shared sample below 130,000 characters, as of 2021-01-01 and 2021-07-01.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { SnapshotStore } from '../../src/store/snapshotStore.js';
import { cliPath, sharedData } from '../../testkit/cli.js';
import { startRedis } from '../../testkit/redis.js';
import { report } from './report.js';

const [OLD, NEW] = ['2021-01-01', '2021-07-01'];
const MAX_PAGE_CHARS = 130_000;

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

const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-workers-'));
const redis = await startRedis();
try {
  const xml = readFileSync(join(sharedData, 'enwiki-history-sample.xml'), 'utf8');
  const pages = xml.match(/<page>[\s\S]*?<\/page>/g) ?? [];
  const largestText = (page: string) => Math.max(0, ...[...page.matchAll(/<text[^>]*>([\s\S]*?)<\/text>/g)].map((match) => (match[1] ?? '').length));
  const kept = pages.filter((page) => largestText(page) < MAX_PAGE_CHARS);
  const dump = join(dir, 'pages.xml');
  writeFileSync(dump, `<mediawiki>\n${kept.join('\n')}\n</mediawiki>\n`);
  const template = join(dir, 'template.sqlite');
  for (const date of [OLD, NEW]) wikidelta(['--db', template, 'snapshot', '--name', date, '--dump', dump, '--as-of', date]);

  const seconds: Record<number, number> = {};
  let pairs = 0;
  for (const count of [1, 2]) {
    const db = join(dir, `store-${count}.sqlite`);
    copyFileSync(template, db);
    const workers = await Promise.all(Array.from({ length: count }, () => startWorker(redis.url)));
    const started = performance.now();
    const printed = wikidelta(['--db', db, '--json', 'label', '--old', OLD, '--new', NEW, '--queue', redis.url]);
    seconds[count] = (performance.now() - started) / 1000;
    const counts = (JSON.parse(printed) as { counts: Record<string, number> }).counts;
    const store = new Sqlite(db, { readonly: true });
    pairs = new SnapshotStore(store).pairs(OLD, NEW).length;
    store.close();
    for (const worker of workers) worker.kill('SIGTERM');
    process.stderr.write(`${count} worker(s): ${seconds[count]?.toFixed(1)} s, ${JSON.stringify(counts)}\n`);
  }
  const one = seconds[1] ?? Number.NaN;
  const two = seconds[2] ?? Number.NaN;
  report('workers_label_speedup', one / two, 'x', { one_worker_seconds: Number(one.toFixed(1)), two_workers_seconds: Number(two.toFixed(1)), pages: kept.length, article_pairs: pairs, old: OLD, new: NEW });
  report('workers_label_throughput', pairs / one, 'article pairs/s per worker', { article_pairs: pairs });
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Labeling, monthly item generation, and weekly parse and diff, spread over two `wikidelta worker` processes through a real
 * redis-server: one worker is killed (SIGKILL) in the middle of a job, stalled-job detection hands
 * that job to the other, and the store ends exactly as a single-process run leaves it (byte-equal
 * label exports; every weekly and GrowOVER table row for row).
 */
import Sqlite from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, jsonLines, runCli, runCliOk, startCli, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { startOpenAiServer } from '../../testkit/openaiServer.js';
import { startRedis, type RedisServer } from '../../testkit/redis.js';
import { snapshotStore } from '../support/storeSnapshot.js';

/** Pages of the sample edited in January 2021: one long (the job to kill) and a few short ones. */
const TITLES = ['Asda', 'Jim Pewter', 'Kerala Agricultural University', 'Dahlak SC'];
const [OLD, NEW] = ['2021-01-01', '2021-02-01'];
/** Short, so the killed worker's job is taken again within seconds. */
const LOCK_MS = '1500';

let redis: RedisServer;
let dir: string;
const workers: ChildProcess[] = [];

function storedLabels(db: string): unknown[] {
  const store = new Sqlite(db, { readonly: true });
  try {
    return store
      .prepare('SELECT new_page_id, side, idx, label, old_indices, similarity, nli, step, backend, evidence FROM sentence_labels ORDER BY new_page_id, side, idx')
      .all();
  } finally {
    store.close();
  }
}

/** The sample's pages with these titles only, as a dump of its own. */
function writeSubsetDump(target: string): void {
  const xml = readFileSync(join(sharedData, 'enwiki-history-sample.xml'), 'utf8');
  const kept = xml.replace(/<page>[\s\S]*?<\/page>\s*/g, (page) => {
    const title = /<title>([^<]*)<\/title>/.exec(page)?.[1] ?? '';
    return TITLES.includes(title) ? page : '';
  });
  writeFileSync(target, kept);
}

/** Starts a worker whose JSON events (stderr) are collected as they come. */
function startWorker(events: Array<{ event: string; job: string }>, lockMs = LOCK_MS): ChildProcess {
  const worker = startCli(['--json', 'worker', '--queue', redis.url, '--lock-ms', lockMs]);
  let pending = '';
  worker.stderr?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('{')) events.push(JSON.parse(line) as { event: string; job: string });
  });
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  redis = await startRedis();
  dir = tempDir();
  const dump = join(dir, 'subset.xml');
  writeSubsetDump(dump);
  const template = join(dir, 'template.sqlite');
  for (const date of [OLD, NEW]) await runCliOk(['--db', template, 'snapshot', '--name', date, '--dump', dump, '--as-of', date]);
  for (const name of ['single.sqlite', 'queued.sqlite', 'monthly-single.sqlite', 'monthly-queued.sqlite', 'llm-single.sqlite', 'llm-queued.sqlite']) {
    copyFileSync(template, join(dir, name));
  }
}, 60_000);

/** Stops every worker still running and waits for it, so the next test's jobs go to its own workers only. */
async function stopWorkers(): Promise<void> {
  const running = workers.filter((worker) => worker.exitCode === null && worker.signalCode === null);
  await Promise.all(
    running.map((worker) => {
      const exited = new Promise<void>((resolveExit) => worker.once('exit', () => resolveExit()));
      worker.kill('SIGTERM');
      return exited;
    }),
  );
}

afterAll(async () => {
  await stopWorkers();
  await redis?.stop();
});

describe('label --queue with two workers, one killed mid-job', () => {
  it('ends with the labels of a single-process run, the killed job done by the other worker', async () => {
    const single = join(dir, 'single.sqlite');
    const queued = join(dir, 'queued.sqlite');
    await runCliOk(['--db', single, 'label', '--old', OLD, '--new', NEW]);

    const events: Array<Array<{ event: string; job: string }>> = [[], []];
    const started = events.map((workerEvents) => startWorker(workerEvents));
    const exits = started.map((worker) => collect(worker));
    const labeling = runCli(['--db', queued, 'label', '--old', OLD, '--new', NEW, '--queue', redis.url]);

    // The worker that has been on one labeling job for a while without finishing it is killed: mid-job for sure.
    const onLongJob = async (workerEvents: Array<{ event: string; job: string }>): Promise<string | undefined> => {
      const current = workerEvents.filter((event) => event.event === 'job active' && event.job.startsWith('label-articles')).at(-1)?.job;
      if (!current) return undefined;
      await new Promise((resolveWait) => setTimeout(resolveWait, 300));
      return workerEvents.some((event) => event.event === 'job completed' && event.job === current) ? undefined : current;
    };
    let doomed = -1;
    let killedJob: string | undefined;
    while (killedJob === undefined) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
      for (const [index, workerEvents] of events.entries()) {
        killedJob = await onLongJob(workerEvents);
        if (killedJob !== undefined) {
          started[index]?.kill('SIGKILL');
          doomed = index;
          break;
        }
      }
    }
    const survivor = 1 - doomed;
    expect((await exits[doomed])?.signal).toBe('SIGKILL');
    expect(events[doomed]?.some((event) => event.event === 'job completed' && event.job === killedJob)).toBe(false);

    const result = await labeling;
    expect(result.code, result.stderr).toBe(0);
    expect(events[survivor]?.some((event) => event.event === 'job completed' && event.job === killedJob)).toBe(true);

    const fromSingle = await runCliOk(['--db', single, 'export', 'labels', '--old', OLD, '--new', NEW]);
    const fromQueue = await runCliOk(['--db', queued, 'export', 'labels', '--old', OLD, '--new', NEW]);
    expect(fromSingle.stdout.split('\n').length).toBeGreaterThan(300);
    expect(fromSingle.stdout).toMatch(/"label":"(changed|new)"/);
    expect(fromQueue.stdout).toBe(fromSingle.stdout);
    // Beyond the export: every stored label, with how it was reached and its evidence.
    expect(storedLabels(queued)).toEqual(storedLabels(single));
  }, 240_000);

  it('refuses a queue that is not a redis URL or not there with one line, before touching the store', async () => {
    const db = join(dir, 'refused.sqlite');
    for (const [args, code] of [
      [['label', '--old', OLD, '--new', NEW, '--queue', 'http://127.0.0.1:6379'], 'E_FLAG_INVALID'],
      [['monthly', '--old', OLD, '--new', NEW, '--queue', 'redis://127.0.0.1:1'], 'E_QUEUE_UNREACHABLE'],
      [['worker', '--queue', 'redis://127.0.0.1:1'], 'E_QUEUE_UNREACHABLE'],
    ] as const) {
      const result = await runCli(['--db', db, ...args]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.errorCode).toBe(code);
    }
    expect(existsSync(db)).toBe(false);
  }, 60_000);
});


type WorkerEvent = { event: string; job: string };

const sleep = (ms: number) => new Promise((resolveWait) => setTimeout(resolveWait, ms));

/**
 * Kills (SIGKILL) the first worker seen on a job of one of these kinds that it has not finished:
 * the worker is frozen first (SIGSTOP), so it cannot finish the job between the check and the kill,
 * and let go again when its events show the job done after all. Returns the worker's index and the job.
 */
async function killMidJob(started: ChildProcess[], events: WorkerEvent[][], kinds: readonly string[]): Promise<{ doomed: number; job: string }> {
  for (;;) {
    await sleep(50);
    for (const [index, workerEvents] of events.entries()) {
      const worker = started[index] as ChildProcess;
      const current = workerEvents.filter((event) => event.event === 'job active' && kinds.some((kind) => event.job.startsWith(`${kind} `))).at(-1)?.job;
      const finished = () => workerEvents.some((event) => event.event !== 'job active' && event.job === current);
      if (current === undefined || finished()) continue;
      worker.kill('SIGSTOP');
      // Events written before the freeze are read by now.
      await sleep(200);
      if (finished()) {
        worker.kill('SIGCONT');
        continue;
      }
      worker.kill('SIGKILL');
      return { doomed: index, job: current };
    }
  }
}

describe('weekly --queue with two workers, one killed mid-job', () => {
  it('parses and diffs on the workers and ends with the store of a single-process run', async () => {
    await stopWorkers();
    const weekly = ['weekly', '--start', '2019-06-01', '--days', '1000', '--dump', join(sharedData, 'enwiki-history-sample.xml'), '--stages', 'collect,parse,diff,select,timeline'];
    const single = join(dir, 'weekly-single.sqlite');
    const queued = join(dir, 'weekly-queued.sqlite');
    await runCliOk(['--db', single, ...weekly]);

    const events: WorkerEvent[][] = [[], []];
    const started = events.map((workerEvents) => startWorker(workerEvents));
    const exits = started.map((worker) => collect(worker));
    const running = runCli(['--db', queued, ...weekly, '--queue', redis.url]);
    const { doomed, job } = await killMidJob(started, events, ['parse-revisions']);
    const survivor = 1 - doomed;
    expect((await exits[doomed])?.signal).toBe('SIGKILL');

    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    const done = (kind: string) => (events[survivor] ?? []).filter((event) => event.event === 'job completed' && event.job.startsWith(`${kind} `));
    expect(done('parse-revisions').map((event) => event.job)).toContain(job);
    expect(done('diff-pages').length).toBeGreaterThan(0);

    const fromSingle = snapshotStore(single);
    expect(fromSingle.infoboxes?.length).toBeGreaterThan(100);
    expect(fromSingle.infobox_changes?.length).toBeGreaterThan(50);
    expect(snapshotStore(queued)).toEqual(fromSingle);
  }, 240_000);
});

/** The sample's pages dealt into three files, alternately, each a dump of its own. */
function splitSample(target: string): string[] {
  const pages = readFileSync(join(sharedData, 'enwiki-history-sample.xml'), 'utf8').match(/<page>[\s\S]*?<\/page>/g) ?? [];
  return [0, 1, 2].map((part) => {
    const file = join(target, `history${part + 1}.xml`);
    writeFileSync(file, `<mediawiki>\n${pages.filter((_, k) => k % 3 === part).join('\n')}\n</mediawiki>\n`);
    return file;
  });
}

describe('weekly --queue over several dump files with two workers', () => {
  const stages = ['--start', '2019-06-01', '--days', '1000', '--stages', 'collect,parse,diff,select,timeline'];
  const weeklyOver = (files: readonly string[]) => ['weekly', ...stages, ...files.flatMap((file) => ['--dump', file])];
  let single: Promise<Record<string, unknown[]>> | undefined;
  /** The store of a run without the queue over the files: made once, for both tests. */
  const singleStore = (files: readonly string[]) =>
    (single ??= runCliOk(['--db', join(dir, 'files-single.sqlite'), ...weeklyOver(files)]).then(() => snapshotStore(join(dir, 'files-single.sqlite'))));

  it('reads each file on a worker, one killed mid-job, and ends with the store of a single-process run', async () => {
    await stopWorkers();
    const files = splitSample(dir);
    const weekly = weeklyOver(files);
    const queued = join(dir, 'files-queued.sqlite');
    const fromSingle = await singleStore(files);

    const events: WorkerEvent[][] = [[], []];
    const started = events.map((workerEvents) => startWorker(workerEvents));
    const exits = started.map((worker) => collect(worker));
    const running = runCli(['--db', queued, ...weekly, '--queue', redis.url]);
    const { doomed, job } = await killMidJob(started, events, ['read-dump']);
    const survivor = 1 - doomed;
    expect((await exits[doomed])?.signal).toBe('SIGKILL');

    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    const ran = (kind: string) => events.flat().filter((event) => event.event === 'job completed' && event.job.startsWith(`${kind} `));
    expect((events[survivor] ?? []).filter((event) => event.event === 'job completed').map((event) => event.job)).toContain(job);
    expect(ran('read-dump')).toHaveLength(files.length);
    // Every revision came back parsed: no parse job was left to queue.
    expect(ran('parse-revisions')).toEqual([]);
    expect(ran('diff-pages').length).toBeGreaterThan(0);

    expect(fromSingle.window_pages?.length).toBeGreaterThan(20);
    expect(fromSingle.infoboxes?.length).toBeGreaterThan(100);
    expect(fromSingle.infobox_changes?.length).toBeGreaterThan(50);
    expect(snapshotStore(queued)).toEqual(fromSingle);
  }, 240_000);

  it("stops at a broken file with one line naming it and the failed job's code, keeps what was written, and a run once it is mended ends the same", async () => {
    await stopWorkers();
    const files = splitSample(dir);
    const fromSingle = await singleStore(files);
    const broken = files[2] as string;
    const whole = readFileSync(broken, 'utf8');
    writeFileSync(broken, whole.slice(0, Math.floor(whole.length / 2)));
    const weekly = weeklyOver(files);
    const queued = join(dir, 'files-broken.sqlite');
    type Event = WorkerEvent & { code?: string; final?: boolean; completed?: number; failed_jobs?: Array<{ code: string; count: number }> };
    const events: Event[][] = [[], []];
    const ended = events.map((workerEvents) => collect(startWorker(workerEvents)));
    const failed = await runCli(['--db', queued, ...weekly, '--queue', redis.url]);
    expect(failed.code).toBe(1);
    // The last line is the one a user reads (the lines before it are the log of a command not on a terminal):
    // the stage's code, and the failed job's own code counted.
    expect(failed.stderr.trim().split('\n').at(-1)).toMatch(
      new RegExp(`^wikidelta: E_QUEUE_JOBS_FAILED: 1 read-dump job failed \\(E_DUMP_TRUNCATED 1\\) for good; the first: E_DUMP_TRUNCATED: ${broken}: dump is truncated`),
    );
    const kept = snapshotStore(queued).window_pages ?? [];
    expect(kept.length).toBeGreaterThan(0);
    // The store keeps the stage's failure with its code, the job's code in its line.
    type Shown = { runs: Array<{ errorCode: string; stages: Array<{ stage: string; errorCode: string | null; error: string | null }> }> };
    const shown = JSON.parse((await runCliOk(['--db', queued, '--json', 'status'])).stdout) as Shown;
    expect(shown.runs[0]?.errorCode).toBe('E_QUEUE_JOBS_FAILED');
    const collectStage = shown.runs[0]?.stages.find((stage) => stage.stage === 'collect');
    expect(collectStage?.errorCode).toBe('E_QUEUE_JOBS_FAILED');
    expect(collectStage?.error).toMatch(/^1 read-dump job failed \(E_DUMP_TRUNCATED 1\)/);

    // Under --json the error line lists the failed jobs' codes.
    const inJson = await runCli(['--db', join(dir, 'files-broken-json.sqlite'), '--json', ...weekly, '--queue', redis.url]);
    expect(inJson.code).toBe(1);
    const errorLine = jsonLines(inJson.stderr).at(-1);
    expect(errorLine).toMatchObject({ level: 'error', code: 'E_QUEUE_JOBS_FAILED', failed_jobs: [{ code: 'E_DUMP_TRUNCATED', count: 1 }] });

    writeFileSync(broken, whole);
    const mended = await runCliOk(['--db', queued, ...weekly, '--queue', redis.url]);
    // The pages written before the failure stay, and the mended run skips them.
    expect(mended.stdout).toMatch(new RegExp(`collect +done .*skipped_pages=${kept.length}\\b`));
    expect(snapshotStore(queued).window_pages).toEqual(fromSingle.window_pages);

    // The workers said each failed attempt's code, and stopped with a summary that counts the jobs
    // failed for good (one per failed run) by code.
    await stopWorkers();
    await Promise.all(ended);
    const attempts = events.flat().filter((event) => event.event === 'job failed' && event.job.startsWith('read-dump '));
    // A broken dump fails the same way however often it is read: one attempt per run, failed for good at once.
    expect(attempts).toHaveLength(2);
    expect(attempts.every((event) => event.code === 'E_DUMP_TRUNCATED' && event.final)).toBe(true);
    const summaries = events.map((workerEvents) => workerEvents.find((event) => event.event === 'worker stopped'));
    expect(summaries.every((summary) => summary !== undefined)).toBe(true);
    const failedForGood = summaries.flatMap((summary) => summary?.failed_jobs ?? []);
    expect(failedForGood.every((count) => count.code === 'E_DUMP_TRUNCATED')).toBe(true);
    expect(failedForGood.reduce((sum, count) => sum + count.count, 0)).toBe(2);
    expect(summaries.reduce((sum, summary) => sum + (summary?.completed ?? 0), 0)).toBeGreaterThan(files.length);
    expect(snapshotStore(queued)).toEqual(fromSingle);
  }, 240_000);
});

/** Every row of these tables, sorted, to compare two stores exactly. */
function tableRows(db: string, tables: readonly string[]): Record<string, string[]> {
  const store = new Sqlite(db, { readonly: true });
  try {
    return Object.fromEntries(tables.map((table) => [table, store.prepare(`SELECT * FROM ${table}`).all().map((row) => JSON.stringify(row)).sort()]));
  } finally {
    store.close();
  }
}

const GROWOVER_TABLES = ['sentence_labels', 'growover_qa', 'growover_dialogues', 'growover_turns', 'growover_evidence', 'growover_rejects', 'growover_done'];

describe('monthly --queue with two workers, one killed mid-job', () => {
  it('labels and generates items on the workers and ends with the items of a single-process run', async () => {
    await stopWorkers();
    const single = join(dir, 'monthly-single.sqlite');
    const queued = join(dir, 'monthly-queued.sqlite');
    await runCliOk(['--db', single, 'monthly', '--old', OLD, '--new', NEW]);

    const events: WorkerEvent[][] = [[], []];
    const started = events.map((workerEvents) => startWorker(workerEvents));
    const exits = started.map((worker) => collect(worker));
    const running = runCli(['--db', queued, 'monthly', '--old', OLD, '--new', NEW, '--queue', redis.url]);
    const { doomed, job } = await killMidJob(started, events, ['label-articles', 'generate-article']);
    const survivor = 1 - doomed;
    expect((await exits[doomed])?.signal).toBe('SIGKILL');

    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    const completed = (events[survivor] ?? []).filter((event) => event.event === 'job completed').map((event) => event.job);
    expect(completed).toContain(job);
    expect(completed.filter((name) => name.startsWith('generate-article ')).length).toBeGreaterThan(0);

    const fromSingle = tableRows(single, GROWOVER_TABLES);
    expect(fromSingle.growover_qa?.length).toBeGreaterThan(5);
    expect(fromSingle.growover_dialogues?.length).toBeGreaterThan(0);
    expect(tableRows(queued, GROWOVER_TABLES)).toEqual(fromSingle);
  }, 300_000);
});

/** What a store's labeling and generation runs spent through the LLM, as `status` reports it. */
async function llmUsage(db: string): Promise<Record<string, Record<string, number | string> | undefined>> {
  const status = JSON.parse((await runCliOk(['--db', db, '--json', 'status'])).stdout) as { runs: Array<{ pipeline: string; llm_usage: Array<Record<string, number | string>> }> };
  const of = (pipeline: string) => status.runs.find((run) => run.pipeline === pipeline)?.llm_usage[0];
  return { label: of('monthly-label'), generation: of('monthly') };
}

describe('monthly --queue with an LLM behind a server', () => {
  it('asks the server from the workers, which know it only from the jobs, and counts what they spent in the runs', async () => {
    await stopWorkers();
    const server = await startOpenAiServer();
    try {
      const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key', WIKIDELTA_LLM_MODEL: 'test-model' };
      const single = join(dir, 'llm-single.sqlite');
      const queued = join(dir, 'llm-queued.sqlite');
      const monthly = ['monthly', '--old', OLD, '--new', NEW, '--llm', 'openai'];
      await runCliOk(['--db', single, ...monthly], { env });
      const askedAlone = server.requests.length;

      // The workers' environment names no server: the jobs carry it. Their locks are long: a job
      // taken again from a busy worker would ask the server twice, and no worker is killed here.
      const started = [startWorker([], '30000'), startWorker([], '30000')];
      await runCliOk(['--db', queued, ...monthly, '--queue', redis.url], { env });
      expect(server.requests.length).toBe(2 * askedAlone);
      expect(started.every((worker) => worker.exitCode === null)).toBe(true);

      const fromSingle = tableRows(single, GROWOVER_TABLES);
      expect(fromSingle.growover_rejects?.length ?? 0).toBeGreaterThan(0);
      expect(tableRows(queued, GROWOVER_TABLES)).toEqual(fromSingle);
      // The judge's calls on the workers are counted in the labeling run, the generation's in the monthly run.
      const spent = await llmUsage(single);
      for (const usage of [spent.label, spent.generation]) {
        expect(usage).toMatchObject({ provider: 'openai', model: 'test-model' });
        expect(Number(usage?.requests)).toBeGreaterThan(0);
      }
      expect(await llmUsage(queued)).toEqual(spent);
    } finally {
      await server.stop();
    }
  }, 300_000);
});

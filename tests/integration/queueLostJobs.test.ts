/**
 * A Redis that restarts without its data while the owner of a `--queue` run waits for its jobs: the
 * owner sees the jobs are gone and ends with one line (it used to wait for ever while workers
 * logged "Missing key for job"), and the command started again, with a worker this time, resumes
 * the run and finishes it. The check itself counts a batch whose job is gone, and never one that
 * completes (and is removed) while it looks.
 */
import { FlowProducer, Queue, Worker, type Job } from 'bullmq';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, errorOf, runCli, runCliOk, startCli, tempDir, waitForOutput } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { startRedis, type RedisServer } from '../../testkit/redis.js';
import { missingJobs } from '../../src/queue/bullmqRunner.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => redis.stop());

/** The keys of the queue's jobs in Redis. */
function queueKeys(): string[] {
  return redis.cli('--scan', '--pattern', 'bull:wikidelta:*').split('\n').filter((key) => key !== '');
}

describe('jobs lost by the queue', () => {
  it('are detected in one line while the owner waits, and the run resumes when started again', async () => {
    const db = join(tempDir(), 'w.sqlite');
    const week = ['weekly', '--start', '2021-01-04', '--dump', join(sharedData, 'enwiki-history-sample.xml'), '--llm', 'offline', '--stages', 'collect,parse', '--queue', redis.url];
    // No worker: the parse jobs wait in Redis.
    const owner = startCli(['--db', db, '--json', ...week]);
    const ended = collect(owner);
    await waitForOutput(owner, 'stderr', /"message":"stage started","stage":"parse"/);
    for (let waited = 0; queueKeys().length === 0; waited += 100) {
      expect(waited, 'the parse jobs never reached Redis').toBeLessThan(20_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await redis.restartEmpty();
    const lost = await ended;
    expect(lost.code, lost.stderr).toBe(1);
    const errors = lost.stderr.split('\n').filter((line) => line.startsWith('wikidelta:') || (line.includes('"level":"error"') && line.includes('"code":')));
    expect(errors).toHaveLength(1);
    expect(errorOf(lost.stderr)).toEqual({
      code: 'E_QUEUE_JOBS_LOST',
      message: expect.stringMatching(/^the queue at redis:\/\/127\.0\.0\.1:\d+ lost the parse-revisions jobs of this stage \(Redis restarted without its data, or was emptied\): run the command again to queue the work left$/),
    });
    const check = await runCli(['--db', db, 'status', '--check']);
    expect(check.code).toBe(1);
    expect([check.errorCode, check.stderr]).toEqual(['E_STATUS_UNHEALTHY', expect.stringMatching(/run 1 weekly failed.*parse: the queue at .* lost the parse-revisions jobs/)]);

    const worker = startCli(['worker', '--queue', redis.url]);
    const workerEnded = collect(worker);
    try {
      const resumed = await runCliOk(['--db', db, ...week]);
      expect(resumed.stdout).toMatch(/^run 1 \(partial\) .*, continued/);
      expect(resumed.stdout).toMatch(/parse +done +revisions=\d+ infoboxes=\d+/);
      expect(resumed.stdout).toMatch(/collect +done .*\(already done, skipped\)/);
    } finally {
      worker.kill('SIGTERM');
      await workerEnded;
    }
  }, 120_000);
});

describe('a job no worker can read', () => {
  it("fails for good the first time a worker takes it, the stage with it in one line, and the worker's log stays one JSON object per line", async () => {
    const db = join(tempDir(), 'damaged.sqlite');
    const week = ['weekly', '--start', '2021-01-04', '--dump', join(sharedData, 'enwiki-history-sample.xml'), '--llm', 'offline', '--stages', 'collect,parse', '--queue', redis.url];
    // No worker yet: the parse jobs wait in Redis, and one has its data damaged there (not JSON).
    const owner = startCli(['--db', db, '--json', ...week]);
    const ended = collect(owner);
    let batch: string | undefined;
    for (let waited = 0; batch === undefined; waited += 100) {
      expect(waited, 'the parse jobs never reached Redis').toBeLessThan(20_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      batch = queueKeys().find((key) => /-batch-\d+$/.test(key));
    }
    redis.cli('HSET', batch, 'data', '{"index":0,"batch":{"revis');
    // BullMQ used to fail to read it before the worker's code saw it, and gave it back after each
    // lock: the owner waited for ever, and the worker printed a stack trace each time.
    const worker = startCli(['--json', 'worker', '--queue', redis.url, '--lock-ms', '300']);
    const workerEnded = collect(worker);
    try {
      const failed = await ended;
      expect(failed.code, failed.stderr).toBe(1);
      expect(errorOf(failed.stderr)).toEqual({
        code: 'E_QUEUE_JOBS_FAILED',
        message: expect.stringMatching(/^1 parse-revisions job failed \(E_QUEUE_JOB_INVALID 1\) for good; the first: E_QUEUE_JOB_INVALID: job \S+-batch-\d+ of kind parse-revisions holds malformed data$/),
      });
      // The damaged job failed for good with its stage, whose jobs then left Redis: no worker takes it again.
      expect(redis.cli('EXISTS', batch)).toBe('0');
      expect(redis.cli('LPOS', 'bull:wikidelta:wait', batch.replace('bull:wikidelta:', ''))).toBe('');
    } finally {
      worker.kill('SIGTERM');
      const { stderr } = await workerEnded;
      // The worker's log stays one JSON object per line.
      const lines = stderr.split('\n').filter((line) => line !== '' && !line.startsWith('wikidelta worker:'));
      expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
      expect(lines.filter((line) => line.includes('"event":"worker error"'))).toEqual([]);
    }
  }, 120_000);

  it('fails for good once when pushed by hand with no stage and no retries, instead of coming back after each lock', async () => {
    const queue = new Queue('wikidelta', { connection: { url: redis.url } });
    const pushed = await Promise.all(['label-articles', 'no-such-kind'].map((name) => queue.add(name, {})));
    await queue.close();
    for (const job of pushed) redis.cli('HSET', `bull:wikidelta:${job.id ?? ''}`, 'data', 'not json{');
    const worker = startCli(['worker', '--queue', redis.url, '--lock-ms', '300']);
    const workerEnded = collect(worker);
    await waitForOutput(worker, 'stderr', /no-such-kind/);
    // Ten locks' time: a job given back would have been taken, and logged, again.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    worker.kill('SIGTERM');
    const { stderr } = await workerEnded;
    expect(stderr.split('\n').filter((line) => line.includes('failed'))).toEqual([
      `wikidelta worker: job label-articles ${pushed[0]?.id ?? ''} failed: E_QUEUE_JOB_INVALID: job ${pushed[0]?.id ?? ''} of kind label-articles holds malformed data`,
      `wikidelta worker: job no-such-kind ${pushed[1]?.id ?? ''} failed: E_QUEUE_JOB_INVALID: job ${pushed[1]?.id ?? ''} is of kind no-such-kind, which this worker does not run`,
      'wikidelta worker: stopped; 0 jobs done, 2 jobs failed (E_QUEUE_JOB_INVALID 2)',
    ]);
    expect(redis.cli('ZCARD', 'bull:wikidelta:failed')).toBe('2');
  }, 60_000);
});

describe('the check for lost jobs', () => {
  /** A stage of `count` batches on a queue of its own, its batches removed once complete as the runner's are. */
  async function stage(queueName: string, count: number): Promise<{ queue: Queue; job: Job; close(): Promise<void> }> {
    const connection = { url: redis.url, maxRetriesPerRequest: null };
    const flows = new FlowProducer({ connection });
    const queue = new Queue(queueName, { connection });
    const tree = await flows.add({
      name: 'stage',
      queueName,
      opts: { jobId: 'stage' },
      children: Array.from({ length: count }, (_, index) => ({ name: 'batch', queueName, data: { index }, opts: { jobId: `batch-${index}`, removeOnComplete: true } })),
    });
    return { queue, job: tree.job, close: async () => void (await Promise.all([flows.close(), queue.close()])) };
  }

  it('counts the batches whose jobs are gone, and the stage as lost once its own job is', async () => {
    const { queue, job, close } = await stage('lost-check-gone', 5);
    try {
      expect(await missingJobs(queue, job)).toBe(0);
      const client = await queue.client;
      await client.del(queue.toKey('batch-1'), queue.toKey('batch-3'));
      expect(await missingJobs(queue, job)).toBe(2);
      await client.del(queue.toKey('stage'));
      expect(await missingJobs(queue, job)).toBe(Infinity);
    } finally {
      await close();
    }
  });

  it('never counts a batch that completes while it looks', async () => {
    const { queue, job, close } = await stage('lost-check-race', 2000);
    const worker = new Worker('lost-check-race', async () => 'done', { connection: { url: redis.url, maxRetriesPerRequest: null }, concurrency: 50 });
    try {
      const counts: number[] = [];
      while ((await job.getState()) === 'waiting-children') counts.push(await missingJobs(queue, job));
      expect(counts.length).toBeGreaterThan(3);
      expect(counts.filter((count) => count !== 0)).toEqual([]);
    } finally {
      await worker.close();
      await close();
    }
  }, 60_000);
});

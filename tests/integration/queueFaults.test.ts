/**
 * Faults of the queue's other parts seen by the owner of a `--queue` run. A worker of another
 * wikidelta version answers the owner's jobs with results this one cannot read: the owner used to
 * count such a batch as handed on while its error went to the queue events' emitter, so the stage
 * ended done without the batch's work (a parse of 0 revisions, a labeling without labels) and the
 * run could not be resumed. A Redis full at its `maxmemory` refuses the owner's jobs: that ended
 * as an internal error (exit 70). Both fail the stage with one line, and the command started again
 * once the fault is mended does the work. A Redis that stops for good while the owner waits: the
 * owner decided its one line after 30 s, then waited for ever to close its connections.
 */
import { Worker } from 'bullmq';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, errorOf, runCli, runCliOk, startCli, tempDir, waitForOutput } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { startRedis, type RedisServer } from '../../testkit/redis.js';
import { QUEUE_NAME } from '../../src/queue/connection.js';
import { STAGE_JOB } from '../../src/queue/bullmqRunner.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => redis.stop());

/** A week's collect and parse on the queue, into the store `db`. */
function queuedWeek(db: string): string[] {
  return ['--db', db, 'weekly', '--start', '2021-01-04', '--dump', join(sharedData, 'enwiki-history-sample.xml'), '--llm', 'offline', '--stages', 'collect,parse', '--queue', redis.url];
}

/** The jobs of the owners' flows still in Redis (a stage's job or its batches), by key. */
function flowKeys(): string[] {
  return redis.cli('--scan', '--pattern', 'bull:wikidelta:*-*').split('\n').filter((key) => /-(stage|batch-\d+)$/.test(key));
}

/** Runs the queued week with a worker of this version, and says the parse stage parsed something. */
async function resumeWithWorker(db: string): Promise<void> {
  const worker = startCli(['worker', '--queue', redis.url]);
  const workerEnded = collect(worker);
  try {
    const resumed = await runCliOk(queuedWeek(db));
    expect(resumed.stdout).toMatch(/parse +done +revisions=[1-9]\d* infoboxes=[1-9]\d*/);
  } finally {
    worker.kill('SIGTERM');
    await workerEnded;
  }
}

describe('a batch result the owner cannot read', () => {
  it('fails the stage with one line naming the job, and the command started again with a worker of its version finishes the run', async () => {
    const db = join(tempDir(), 'w.sqlite');
    // Another version's worker: its results have another shape.
    const other = new Worker(QUEUE_NAME, async (job) => (job.name === STAGE_JOB ? { done: true } : { revisions: 'parsed elsewhere' }), {
      connection: { url: redis.url, maxRetriesPerRequest: null },
    });
    try {
      const failed = await runCli(queuedWeek(db));
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stderr.split('\n').filter((line) => line.startsWith('wikidelta:'))).toHaveLength(1);
      expect(failed.stderr).not.toMatch(/ZodError|^\s+at /m);
      expect(errorOf(failed.stderr)).toEqual({
        code: 'E_QUEUE_RESULT_INVALID',
        message: expect.stringMatching(/^job \S+-batch-\d+: a worker returned a parse-revisions result this wikidelta cannot read \(.+\); run workers of this version and run the command again$/),
      });
      // The failed stage's jobs are gone from Redis with their batches' texts: they stayed there for good.
      expect(flowKeys()).toEqual([]);
    } finally {
      await other.close();
    }
    const check = await runCli(['--db', db, 'status', '--check']);
    expect(check.errorCode).toBe('E_STATUS_UNHEALTHY');
    await resumeWithWorker(db);
  }, 120_000);
});

describe('a well-formed batch result that does not answer its batch', () => {
  it('fails the stage with one line naming what it leaves out, instead of a stage done without those revisions', async () => {
    const db = join(tempDir(), 'empty.sqlite');
    // A worker that answers every parse job with no revisions at all: read as it was, the stage ended done with revisions=0.
    const rogue = new Worker(QUEUE_NAME, async (job) => (job.name === STAGE_JOB ? { done: true } : { revisions: [] }), {
      connection: { url: redis.url, maxRetriesPerRequest: null },
    });
    try {
      const failed = await runCli(queuedWeek(db));
      expect(failed.code, failed.stderr).toBe(1);
      expect(errorOf(failed.stderr)).toEqual({
        code: 'E_QUEUE_RESULT_INVALID',
        message: expect.stringMatching(/^job \S+-batch-\d+: a worker returned a parse-revisions result that does not answer its batch \(revision \d+ of page \d+ missing\); run workers of this version and run the command again$/),
      });
      expect(flowKeys()).toEqual([]);
    } finally {
      await rogue.close();
    }
    await resumeWithWorker(db);
  }, 120_000);
});

describe('a queue server full at its maxmemory', () => {
  it('fails the stage with one line naming the server, not as an internal error, and the command started again once it has room finishes the run', async () => {
    const db = join(tempDir(), 'full.sqlite');
    redis.cli('CONFIG', 'SET', 'maxmemory', '1');
    try {
      const refused = await runCli(queuedWeek(db));
      expect(refused.code, refused.stderr).toBe(1);
      expect(errorOf(refused.stderr)).toEqual({
        code: 'E_QUEUE_UNREACHABLE',
        message: expect.stringMatching(/^the queue at redis:\/\/127\.0\.0\.1:\d+ refuses its commands: OOM command not allowed when used memory > 'maxmemory'\.$/),
      });
    } finally {
      redis.cli('CONFIG', 'SET', 'maxmemory', '0');
    }
    await resumeWithWorker(db);
  }, 120_000);
});

describe('a queue server that stops for good while the owner waits', () => {
  it('ends the command with one line once it has not answered for 30 s', async () => {
    const gone = await startRedis();
    const db = join(tempDir(), 'gone.sqlite');
    // No worker: the parse jobs wait in Redis until it stops.
    const owner = startCli(['--db', db, '--json', 'weekly', '--start', '2021-01-04', '--dump', join(sharedData, 'enwiki-history-sample.xml'), '--llm', 'offline', '--stages', 'collect,parse', '--queue', gone.url]);
    const ended = collect(owner);
    try {
      await waitForOutput(owner, 'stderr', /"message":"stage started","stage":"parse"/);
      for (let waited = 0; gone.cli('--scan', '--pattern', 'bull:wikidelta:*-batch-*') === ''; waited += 100) {
        expect(waited, 'the parse jobs never reached Redis').toBeLessThan(20_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await gone.stop();
      const stopped = Date.now();
      const failed = await Promise.race([ended, new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000))]);
      expect(failed, 'the owner still waits a minute after its queue stopped').not.toBeNull();
      expect(Date.now() - stopped).toBeGreaterThanOrEqual(30_000);
      expect(failed?.code, failed?.stderr).toBe(1);
      expect(errorOf(failed?.stderr ?? '')).toEqual({
        code: 'E_QUEUE_UNREACHABLE',
        message: expect.stringMatching(/^the queue at redis:\/\/127\.0\.0\.1:\d+ has not answered for 30 s while the parse-revisions jobs were under way; run the command again once it answers$/),
      });
    } finally {
      owner.kill('SIGKILL');
      await gone.stop();
    }
  }, 120_000);
});

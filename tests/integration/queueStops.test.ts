/**
 * The ends of a queue's processes. A worker stopped while its Redis is gone: BullMQ's own close
 * waits for the server for ever, so the worker used to ignore SIGTERM until Redis came back; it
 * stops at the first signal, with its one-line summary, because a result could not be handed back
 * anyway. An owner killed while its jobs wait: the workers used to compute every one of them for
 * nobody; they fail them for good at once, and the command started again does the work.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, runCliOk, startCli, tempDir, waitForOutput } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { startRedis, type RedisServer } from '../../testkit/redis.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => redis.stop());

describe('an owner killed while its jobs wait in the queue', () => {
  it('leaves jobs that workers fail for good without computing them, and the command started again finishes the run', async () => {
    const db = join(tempDir(), 'w.sqlite');
    const week = ['weekly', '--start', '2021-01-04', '--dump', join(sharedData, 'enwiki-history-sample.xml'), '--llm', 'offline', '--stages', 'collect,parse', '--queue', redis.url];
    // No worker yet: the parse jobs wait in Redis.
    const owner = startCli(['--db', db, '--json', ...week]);
    const ownerEnded = collect(owner);
    await waitForOutput(owner, 'stderr', /"message":"stage started","stage":"parse"/);
    let owners: string[] = [];
    for (let waited = 0; owners.length === 0 || redis.cli('--scan', '--pattern', 'bull:wikidelta:*-batch-*') === ''; waited += 100) {
      expect(waited, 'the parse jobs never reached Redis').toBeLessThan(20_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      owners = redis.cli('--scan', '--pattern', 'bull:wikidelta:owner:*').split('\n').filter((key) => key !== '');
    }
    expect(owners).toHaveLength(1);
    const ownerKey = owners[0] ?? '';
    expect(Number(redis.cli('PTTL', ownerKey))).toBeGreaterThan(0);
    owner.kill('SIGKILL');
    await ownerEnded;
    // What the key's expiry does a minute later.
    redis.cli('DEL', ownerKey);

    const events: Array<{ event: string; job: string; code?: string; final?: boolean }> = [];
    const worker = startCli(['--json', 'worker', '--queue', redis.url]);
    const workerEnded = collect(worker);
    try {
      await waitForOutput(worker, 'stderr', /"event":"job failed".*"event":"job failed"/s);
      for (let waited = 0; redis.cli('LLEN', 'bull:wikidelta:wait') !== '0'; waited += 100) {
        expect(waited, 'the dead owner’s jobs are still waiting').toBeLessThan(30_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const resumed = await runCliOk(['--db', db, ...week.filter((arg) => arg !== '--json')]);
      expect(resumed.stdout).toMatch(/parse +done +revisions=\d+ infoboxes=\d+/);
    } finally {
      worker.kill('SIGTERM');
    }
    const { stderr } = await workerEnded;
    for (const line of stderr.split('\n')) if (line.startsWith('{')) events.push(JSON.parse(line) as (typeof events)[number]);
    const failed = events.filter((event) => event.event === 'job failed' && !event.job.startsWith('stage'));
    expect(failed.length).toBeGreaterThan(0);
    expect(new Set(failed.map((event) => `${event.code} ${event.final}`))).toEqual(new Set(['E_QUEUE_OWNER_GONE true']));
    const dead = new Set(failed.map((event) => event.job.replace(/-batch-\d+$/, '')));
    const completedForTheDead = events.filter((event) => event.event === 'job completed' && dead.has(event.job.replace(/-batch-\d+$/, '')));
    expect(completedForTheDead).toEqual([]);
    expect(stderr).toMatch(/"event":"worker stopped","completed":\d+,"failed_jobs":\[\{"code":"E_QUEUE_OWNER_GONE","count":\d+\}\]/);
  }, 180_000);

  it('leaves no stage behind for ever when its batches were computed after the owner was killed', async () => {
    const db = join(tempDir(), 'w.sqlite');
    const week = ['weekly', '--start', '2021-01-04', '--dump', join(sharedData, 'enwiki-history-sample.xml'), '--llm', 'offline', '--stages', 'collect,parse', '--queue', redis.url];
    const stages = () => redis.cli('--scan', '--pattern', 'bull:wikidelta:*-stage').split('\n').filter((key) => key !== '');
    const before = new Set(stages());
    const owner = startCli(['--db', db, '--json', ...week]);
    const ownerEnded = collect(owner);
    await waitForOutput(owner, 'stderr', /"message":"stage started","stage":"parse"/);
    let stage = '';
    for (let waited = 0; stage === '' || redis.cli('--scan', '--pattern', 'bull:wikidelta:*-batch-*') === ''; waited += 100) {
      expect(waited, 'the parse jobs never reached Redis').toBeLessThan(20_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      stage = stages().find((key) => !before.has(key)) ?? '';
    }
    // Killed now, its key still says it lives for a minute: a worker computes its batches, and the stage finishes for nobody.
    owner.kill('SIGKILL');
    await ownerEnded;
    const worker = startCli(['worker', '--queue', redis.url]);
    const workerEnded = collect(worker);
    try {
      for (let waited = 0; redis.cli('ZSCORE', 'bull:wikidelta:completed', stage.replace('bull:wikidelta:', '')) === ''; waited += 100) {
        expect(waited, 'the dead owner’s stage never finished').toBeLessThan(60_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(redis.cli('HLEN', `${stage}:processed`)).not.toBe('0');
      // Two days later, another stage finishes: the one left by the dead owner goes, with its results.
      redis.cli('ZADD', 'bull:wikidelta:completed', String(Date.now() - 2 * 86_400_000), stage.replace('bull:wikidelta:', ''));
      redis.cli('DEL', ...redis.cli('--scan', '--pattern', 'bull:wikidelta:owner:*').split('\n').filter((key) => key !== ''));
      await runCliOk(['--db', db, ...week]);
      expect(redis.cli('EXISTS', stage, `${stage}:processed`)).toBe('0');
    } finally {
      worker.kill('SIGTERM');
      await workerEnded;
    }
  }, 180_000);
});

describe('a worker whose queue server is gone', () => {
  it('stops at the first SIGTERM and says what it did', async () => {
    const worker = startCli(['worker', '--queue', redis.url]);
    const ended = collect(worker);
    await waitForOutput(worker, 'stderr', /taking jobs from/);
    await redis.stop();
    await waitForOutput(worker, 'stderr', /ECONNREFUSED/);
    worker.kill('SIGTERM');
    const result = await ended;
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(result.stderr.trim().split('\n').at(-1)).toBe('wikidelta worker: stopped; 0 jobs done, none failed');
  }, 60_000);
});

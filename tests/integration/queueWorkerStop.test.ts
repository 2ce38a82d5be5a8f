/**
 * A worker stopped while its Redis is gone: BullMQ's own close waits for the server for ever, so
 * the worker used to ignore SIGTERM until Redis came back. It stops at the first signal, with its
 * one-line summary, because a result could not be handed back anyway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, startCli, waitForOutput } from '../../testkit/cli.js';
import { startRedis, type RedisServer } from '../../testkit/redis.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => redis.stop());

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

import { describe, expect, it } from 'vitest';
import { RemoteError } from '../../../src/errors.js';
import { MAX_RETRY_AFTER_MS, parseRetryAfter, RequestQueue, type Failure } from '../../../src/net/retry.js';

/** Fails with each of `failures` in turn, then answers "done"; counts its attempts. */
function failingThen(failures: Failure[]): { attempt: () => Promise<string>; attempts: () => number } {
  let count = 0;
  return {
    attempt: async () => {
      const failure = failures[count++];
      if (failure !== undefined) throw failure;
      return 'done';
    },
    attempts: () => count,
  };
}

const readFailure = (error: unknown): Failure => error as Failure;

function queue(maxRetries: number): RequestQueue {
  return new RequestQueue({ service: 'test service', failureCode: 'E_WIKI_UNREACHABLE', maxInFlight: 2, maxRetries, retryBaseMs: 1 });
}

describe('the retry policy every client shares', () => {
  it.each([408, 409, 429, 500, 502, 503, 504])('retries HTTP %i', async (httpStatus) => {
    const service = failingThen([{ status: `HTTP ${httpStatus}`, httpStatus }]);
    await expect(queue(1).run(service.attempt, readFailure)).resolves.toBe('done');
    expect(service.attempts()).toBe(2);
  });

  it.each([400, 401, 403, 404, 501])('gives up on HTTP %i at once', async (httpStatus) => {
    const service = failingThen([{ status: `HTTP ${httpStatus}`, httpStatus }]);
    await expect(queue(3).run(service.attempt, readFailure, 'action=query')).rejects.toThrow(
      new RemoteError('E_WIKI_UNREACHABLE', `test service failed: HTTP ${httpStatus} for action=query`),
    );
    expect(service.attempts()).toBe(1);
  });

  it('retries a transient failure without a status, not a permanent one', async () => {
    const transient = failingThen([{ status: 'ECONNRESET', transient: true }]);
    await expect(queue(1).run(transient.attempt, readFailure)).resolves.toBe('done');
    const permanent = failingThen([{ status: 'ENOTFOUND', transient: false }]);
    await expect(queue(1).run(permanent.attempt, readFailure)).rejects.toThrow('test service failed: ENOTFOUND');
    expect(permanent.attempts()).toBe(1);
  });

  it('names the retries spent and the last failure once they run out', async () => {
    const service = failingThen([1, 2, 3].map(() => ({ status: 'HTTP 503', httpStatus: 503 })));
    await expect(queue(2).run(service.attempt, readFailure)).rejects.toThrow('test service failed after 2 retries: HTTP 503');
    expect(service.attempts()).toBe(3);
  });

  it('waits for Retry-After, and every request of the queue waits with it', async () => {
    const service = failingThen([{ status: 'HTTP 429', httpStatus: 429, retryAfterMs: 300 }]);
    const requests = queue(1);
    const started = Date.now();
    const first = requests.run(service.attempt, readFailure);
    await new Promise((resolve) => setTimeout(resolve, 50));
    let otherStartedAt = 0;
    const other = requests.run(async () => {
      otherStartedAt = Date.now();
      return 'other';
    }, readFailure);
    await expect(Promise.all([first, other])).resolves.toEqual(['done', 'other']);
    expect(otherStartedAt - started).toBeGreaterThanOrEqual(290);
  });

  it('takes a Retry-After beyond the cap for a refusal, reported at once in one line', async () => {
    const service = failingThen([{ status: 'HTTP 429', httpStatus: 429, retryAfterMs: MAX_RETRY_AFTER_MS + 1000 }]);
    const failure = await queue(5).run(service.attempt, readFailure).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RemoteError);
    expect((failure as Error).message).toBe(
      `test service failed: HTTP 429 (asked to wait ${MAX_RETRY_AFTER_MS / 1000 + 1} s, more than the ${MAX_RETRY_AFTER_MS / 1000} s a client waits)`,
    );
    expect(service.attempts()).toBe(1);
  });

  it('rethrows as it is an error its client does not read as the service failing', async () => {
    const signal = new Error('a signal for the caller');
    const failure = await queue(3)
      .run(async () => Promise.reject(signal), () => undefined)
      .catch((error: unknown) => error);
    expect(failure).toBe(signal);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(2)).toBe(2000);
    const inAMinute = parseRetryAfter(new Date(Date.now() + 60_000).toUTCString()) as number;
    expect(inAMinute).toBeGreaterThan(58_000);
    expect(inAMinute).toBeLessThanOrEqual(60_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

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

/** The error a request failed with. */
function failureOf(run: Promise<string>): Promise<RemoteError> {
  return run.then(
    (reply) => {
      throw new Error(`answered ${reply}`);
    },
    (error: unknown) => error as RemoteError,
  );
}

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

  it('fails the other requests at their next attempt once one failed past its retries, and tries again after a while', async () => {
    const requests = new RequestQueue({ service: 'test service', failureCode: 'E_LLM_UNREACHABLE', maxInFlight: 1, maxRetries: 2, retryBaseMs: 1, downForMs: 300 });
    let attempts = 0;
    const down = async (): Promise<string> => {
      attempts++;
      throw { status: 'HTTP 503', httpStatus: 503 } satisfies Failure;
    };
    const first = await failureOf(requests.run(down, readFailure, 'item 0'));
    expect([first.code, first.message, attempts]).toEqual(['E_LLM_UNREACHABLE', 'test service failed after 2 retries: HTTP 503 for item 0', 3]);
    const later = await failureOf(requests.run(down, readFailure, 'item 1'));
    expect([later.code, later.message, attempts]).toEqual([
      'E_LLM_UNREACHABLE',
      'test service failed after 2 retries: HTTP 503 for item 0 (item 1 not tried: the service failed so less than 1 s ago)',
      3,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 350));
    // Five at once: once the first has spent its retries, the others stop at their next attempt (15 attempts without it).
    attempts = 0;
    const outcomes = await Promise.all(Array.from({ length: 5 }, (_, item) => failureOf(requests.run(down, readFailure, `item ${item}`))));
    expect(outcomes.map((error) => error.code)).toEqual(Array(5).fill('E_LLM_UNREACHABLE'));
    expect(attempts).toBeLessThan(15);
    await new Promise((resolve) => setTimeout(resolve, 350));
    await expect(requests.run(async () => 'back', readFailure)).resolves.toBe('back');
  });

  it('stops a batch against a hung service once one request spent its retries, before every request was tried once', async () => {
    // Each attempt hangs until its timeout, then fails as a passing failure. A retry waiting behind the
    // batch's first attempts would let every request spend its retries but the last (121 attempts here,
    // each a timeout: hours at the default 60 s) before one spent them all.
    const requests = new RequestQueue({ service: 'test service', failureCode: 'E_LLM_UNREACHABLE', maxInFlight: 4, maxRetries: 3, retryBaseMs: 1 });
    let attempts = 0;
    const hung = async (): Promise<string> => {
      attempts++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw { status: 'no complete reply within 60 s', transient: true } satisfies Failure;
    };
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, item) => failureOf(requests.run(hung, readFailure, `item ${item}`))));
    expect(outcomes.map((error) => error.code)).toEqual(Array(40).fill('E_LLM_UNREACHABLE'));
    expect(attempts).toBeLessThan(40);
  });

  it('lets the other requests go on after one the service refused as such (a 400 is that request\'s verdict)', async () => {
    const requests = queue(3);
    await expect(requests.run(failingThen([{ status: 'HTTP 400', httpStatus: 400 }]).attempt, readFailure)).rejects.toThrow('test service failed: HTTP 400');
    await expect(requests.run(async () => 'next', readFailure)).resolves.toBe('next');
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

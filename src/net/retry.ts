/**
 * How every client talks to a remote service (the wiki, the LLM server): its requests pass one
 * queue (requests in flight, an optional per-minute cap) and a failed attempt is retried under one
 * policy. A client says only how to read a failure from its own error type; which failures are
 * retried, how long a Retry-After may ask us to wait and how the backoff grows are decided here.
 */
import PQueue from 'p-queue';
import { RemoteError, type UserErrorCode } from '../errors.js';

/** 408 timeout, 409 conflict (a lock that timed out), 429 too many requests, and the server errors that pass. */
const RETRYABLE_STATUSES = new Set([408, 409, 429, 500, 502, 503, 504]);
/** A Retry-After longer than this is a service telling us to go away, not to wait: a refusal. */
export const MAX_RETRY_AFTER_MS = 300_000;
const MAX_BACKOFF_MS = 60_000;
/** How long a service that failed a request past its retries is taken for down. */
const DOWN_FOR_MS = 60_000;

/** One failed attempt, as its client reads it. */
export interface Failure {
  /** One line for the error message, e.g. "HTTP 503", "maxlag (7 s lagged)", "ECONNRESET". */
  status: string;
  /** The HTTP status when the service answered with one; whether it is retried is decided here. */
  httpStatus?: number;
  /** Without an HTTP status: whether the failure passes (a timeout, a dropped connection, maxlag). */
  transient?: boolean;
  /** What the service asked us to wait before the next request. */
  retryAfterMs?: number;
}

/** A failure as its client reads it; `undefined` for an error that is not the service's (rethrown as it is). */
export type FailureReader = (error: unknown) => Failure | undefined;

/** A queue's limits and retry policy. */
export interface RequestQueueOptions {
  /** The service as errors name it, e.g. "wiki https://en.wikipedia.org/w/api.php". */
  service: string;
  /** The code of the error that ends the retries, e.g. `E_WIKI_UNREACHABLE` (src/errors.ts). */
  failureCode: UserErrorCode;
  maxInFlight: number;
  /** Requests started per rolling minute; unlimited when absent. */
  perMinute?: number;
  /** Retries of one request after a retryable failure before giving up. */
  maxRetries: number;
  /** First backoff delay in ms, doubled per retry. */
  retryBaseMs: number;
  /** How long the other requests fail at once after one failed past its retries (60 s by default). */
  downForMs?: number;
}

/** What a queued request gets instead of its attempt while the service is taken for down. */
const DOWN = Symbol('service down');

/**
 * One remote service's requests: at most `maxInFlight` at once (and `perMinute`), each attempt retried
 * on a retryable failure with exponential backoff and jitter, a Retry-After pausing every request of
 * the queue. The wiki client and the LLM client each hold one.
 *
 * @example
 * const queue = new RequestQueue({ service: 'LLM http://localhost:8000/v1', maxInFlight: 3, maxRetries: 5, retryBaseMs: 1000 });
 * const reply = await queue.run(() => fetch(url), (error) => ({ status: String(error), transient: true }), 'chat completion');
 */
export class RequestQueue {
  private readonly queue: PQueue;
  /** Set by a Retry-After: no request of this queue starts before then. */
  private pausedUntil = 0;
  /**
   * Set by a request that failed past its retries (or was refused by a Retry-After): until then, the
   * next attempt of any request fails at once with that error, instead of its own retries. A stage
   * hands the service its whole batch at once; with the server down or hung, each of 64 items would
   * otherwise spend its own retries and timeouts before the stage could say so.
   */
  private down: { until: number; error: RemoteError } | undefined;

  constructor(private readonly options: RequestQueueOptions) {
    this.queue =
      options.perMinute === undefined
        ? new PQueue({ concurrency: options.maxInFlight })
        : new PQueue({ concurrency: options.maxInFlight, intervalCap: options.perMinute, interval: 60_000, strict: true });
  }

  /**
   * `attempt` until it succeeds, its failure is not retryable or the retries are spent; then a
   * one-line RemoteError naming the service, the retries, the last failure and `request` if given.
   */
  async run<T>(attempt: () => Promise<T>, read: FailureReader, request?: string): Promise<T> {
    for (let retry = 0; ; retry++) {
      let reply: T | typeof DOWN;
      try {
        // A retry goes before the first attempts still waiting (p-queue runs higher priorities first):
        // behind them, with the service down or hung, every request of a batch would spend its first
        // retries (each a timeout) before any spent them all and the others could stop at once.
        reply = await this.queue.add(
          async () => {
            const wait = this.pausedUntil - Date.now();
            if (wait > 0) await sleep(wait);
            if (this.down !== undefined && Date.now() < this.down.until) return DOWN;
            return attempt();
          },
          { priority: retry },
        );
      } catch (error) {
        const failure = read(error);
        if (failure === undefined) throw error;
        const refusal = failure.retryAfterMs !== undefined && failure.retryAfterMs > MAX_RETRY_AFTER_MS;
        if (!retryable(failure) || refusal || retry >= this.options.maxRetries) {
          const tries = retry > 0 ? ` after ${retry} ${retry === 1 ? 'retry' : 'retries'}` : '';
          const why = refusal
            ? ` (asked to wait ${Math.round((failure.retryAfterMs as number) / 1000)} s, more than the ${MAX_RETRY_AFTER_MS / 1000} s a client waits)`
            : '';
          const failed = new RemoteError(this.options.failureCode, `${this.options.service} failed${tries}: ${failure.status}${why}${what(request)}`, { cause: error });
          // A request the service refused as such (400, 404) says nothing of the others.
          if (retryable(failure) || refusal) this.down = { until: Date.now() + this.downForMs, error: failed };
          throw failed;
        }
        if (failure.retryAfterMs !== undefined) {
          this.pausedUntil = Math.max(this.pausedUntil, Date.now() + failure.retryAfterMs);
          await sleep(failure.retryAfterMs);
        } else {
          await sleep(backoff(this.options.retryBaseMs, retry));
        }
        continue;
      }
      if (reply !== DOWN) return reply;
      const down = this.down as { error: RemoteError };
      throw new RemoteError(
        this.options.failureCode,
        `${down.error.message} (${request ?? 'this request'} not tried: the service failed so less than ${Math.ceil(this.downForMs / 1000)} s ago)`,
        { cause: down.error },
      );
    }
  }

  private get downForMs(): number {
    return this.options.downForMs ?? DOWN_FOR_MS;
  }
}

/** The request a line names, when it names one. */
function what(request: string | undefined): string {
  return request === undefined ? '' : ` for ${request}`;
}

function retryable(failure: Failure): boolean {
  return failure.httpStatus !== undefined ? RETRYABLE_STATUSES.has(failure.httpStatus) : failure.transient === true;
}

/**
 * A Retry-After header's wait in milliseconds: it is seconds or an HTTP date; undefined when absent or unreadable.
 *
 * @example parseRetryAfter('120') === 120_000
 */
export function parseRetryAfter(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(String(value));
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Exponential backoff with jitter, so that clients failing together do not retry together. */
function backoff(baseMs: number, retry: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retry) * (0.5 + Math.random() / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The polite MediaWiki Action API client shared by everything that talks to a wiki (the revision
 * source, the search backend): a descriptive User-Agent, `maxlag=5`, at most 3 requests in flight
 * and an optional per-minute cap, 429 and maxlag answers pausing every request for their
 * Retry-After, 5xx and network errors backed off exponentially with jitter, zod-validated replies
 * and one-line RemoteErrors. mwn's own retries are disabled (they ignore Retry-After on 429 and
 * never back off), so each failure is retried exactly once per attempt, here.
 */
import { Mwn, type ApiParams, type MwnOptions } from 'mwn';
import PQueue from 'p-queue';
import { z } from 'zod';
import { RemoteError, UserError } from '../errors.js';
import { backoff, parseRetryAfter, sleep } from '../net/retry.js';

export interface WikiClientOptions {
  /** e.g. https://en.wikipedia.org/w/api.php */
  apiUrl: string;
  /** Tool name, version and contact, as Wikimedia's User-Agent policy asks. */
  userAgent: string;
  /** Requests in flight at once: 1 to 3, default 3. */
  maxInFlight?: number;
  /** Requests started per rolling minute; unlimited by default. */
  perMinute?: number;
  /** Retries of one request after 429, maxlag, 5xx or network failures before giving up; default 5. */
  maxRetries?: number;
  /** First backoff delay for 5xx and network failures, doubled per retry; default 1000 ms. */
  retryBaseMs?: number;
}

const MAX_IN_FLIGHT = 3;
const DEFAULT_MAX_RETRIES = 5;
const DEFAULT_RETRY_BASE_MS = 1000;
/** A Retry-After longer than this is a wiki telling us to go away, not to wait. */
const MAX_RETRY_AFTER_MS = 300_000;
const REQUEST_TIMEOUT_MS = 120_000;

/** Every request mwn makes, continuations included, goes through `send`. */
class QueuedMwn extends Mwn {
  constructor(
    options: MwnOptions,
    private readonly send: (params: ApiParams, attempt: () => Promise<unknown>) => Promise<unknown>,
  ) {
    super(options);
  }

  override request(params: ApiParams, customRequestOptions?: Parameters<Mwn['request']>[1]): ReturnType<Mwn['request']> {
    return this.send(params, () => super.request(params, customRequestOptions)) as ReturnType<Mwn['request']>;
  }
}

export class WikiClient {
  private readonly apiUrl: string;
  private readonly bot: QueuedMwn;
  private readonly queue: PQueue;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  /** Set by a Retry-After: no request of this source starts before then. */
  private pausedUntil = 0;

  constructor(options: WikiClientOptions) {
    if (!options.userAgent?.trim()) {
      throw new UserError('a descriptive User-Agent is required for the MediaWiki API (tool name/version and a contact)');
    }
    const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    if (!Number.isInteger(maxInFlight) || maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT) {
      throw new UserError(`invalid maxInFlight ${maxInFlight}: expected 1 to ${MAX_IN_FLIGHT} requests in flight`);
    }
    this.apiUrl = options.apiUrl;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(this.maxRetries) || this.maxRetries < 0) {
      throw new UserError(`invalid maxRetries ${this.maxRetries}: expected a whole number ≥ 0`);
    }
    this.retryBaseMs = positive(options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS, 'retryBaseMs');
    this.queue =
      options.perMinute === undefined
        ? new PQueue({ concurrency: maxInFlight })
        : new PQueue({
            concurrency: maxInFlight,
            intervalCap: Math.floor(positive(options.perMinute, 'perMinute')),
            interval: 60_000,
            strict: true,
          });
    this.bot = new QueuedMwn(
      {
        apiUrl: options.apiUrl,
        userAgent: options.userAgent,
        maxRetries: 0,
        // mwn logs to standard output, which belongs to the command (JSON lines, progress).
        silent: true,
        suppressAPIWarnings: true,
        defaultParams: { format: 'json', formatversion: '2', maxlag: 5 },
      },
      (params, attempt) => this.send(params, attempt),
    );
    this.bot.setRequestOptions({ timeout: REQUEST_TIMEOUT_MS });
  }

  async read<T>(params: ApiParams, schema: z.ZodType<T>): Promise<T> {
    return this.validated(params, await this.bot.request(params), schema);
  }

  /** Every page of a continued query, each validated; the caller may stop early. */
  async *continued<T>(params: ApiParams, schema: z.ZodType<T>): AsyncIterable<T> {
    for await (const reply of this.bot.continuedQueryGen(params)) yield this.validated(params, reply, schema);
  }

  private validated<T>(params: ApiParams, reply: unknown, schema: z.ZodType<T>): T {
    const result = schema.safeParse(reply);
    if (result.success) return result.data;
    const what = result.error.issues.map((issue) => `${issue.path.join('.') || 'reply'}: ${issue.message}`).join('; ');
    throw new RemoteError(`wiki ${this.apiUrl} sent a malformed reply (${what}) to ${describe(params)}`);
  }

  private async send(params: ApiParams, attempt: () => Promise<unknown>): Promise<unknown> {
    for (let retry = 0; ; retry++) {
      try {
        return await this.queue.add(async () => {
          const wait = this.pausedUntil - Date.now();
          if (wait > 0) await sleep(wait);
          return attempt();
        });
      } catch (error) {
        const failure = classify(error);
        if (!failure.retryable || retry >= this.maxRetries) {
          const tries = retry > 0 ? ` after ${retry} ${retry === 1 ? 'retry' : 'retries'}` : '';
          throw new RemoteError(`wiki ${this.apiUrl} failed${tries}: ${failure.status} for ${describe(params)}`, {
            cause: error,
          });
        }
        if (failure.retryAfterMs !== undefined) {
          this.pausedUntil = Math.max(this.pausedUntil, Date.now() + failure.retryAfterMs);
          await sleep(failure.retryAfterMs);
        } else {
          await sleep(backoff(this.retryBaseMs, retry));
        }
      }
    }
  }
}

interface Failure {
  /** e.g. "HTTP 503", "maxlag (7 s lagged)", "ECONNRESET", "API error badvalue: …" */
  status: string;
  retryable: boolean;
  retryAfterMs?: number;
}

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** What mwn rejected with (an axios error for HTTP and network failures, an MwnError for API errors). */
function classify(error: unknown): Failure {
  const details = error as {
    code?: string;
    info?: string;
    lag?: number;
    message?: string;
    response?: { status?: number; headers?: Record<string, unknown> };
  };
  const retryAfterMs = parseRetryAfter(details.response?.headers?.['retry-after']);
  if (details.code === 'maxlag') {
    const retryable = retryAfterMs === undefined || retryAfterMs <= MAX_RETRY_AFTER_MS;
    return { status: `maxlag (${details.lag ?? '?'} s lagged)`, retryable, retryAfterMs: retryAfterMs ?? undefined };
  }
  const httpStatus = details.response?.status;
  if (httpStatus !== undefined && httpStatus !== 200) {
    const retryable =
      RETRYABLE_STATUSES.has(httpStatus) && (retryAfterMs === undefined || retryAfterMs <= MAX_RETRY_AFTER_MS);
    return { status: `HTTP ${httpStatus}`, retryable, retryAfterMs };
  }
  // An API error, or mwn's "invalidjson" for a reply that is not JSON.
  if (details.info !== undefined) return { status: `API error ${details.code ?? ''}: ${details.info}`, retryable: false };
  // No HTTP answer at all: connection refused or reset, timeout; a host that does not resolve is a
  // wrong apiUrl, not a passing failure.
  return { status: details.code ?? details.message ?? String(error), retryable: details.code !== 'ENOTFOUND' };
}

/** The request as one short line: its parameters, long id lists shortened. */
function describe(params: ApiParams): string {
  return Object.entries(params)
    .map(([key, value]) => {
      const text = String(value);
      return `${key}=${text.length > 60 ? `${text.slice(0, 57)}…` : text}`;
    })
    .join('&');
}

export function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new UserError(`invalid ${name} ${value}: expected a positive number`);
  return value;
}

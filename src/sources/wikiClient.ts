/**
 * The polite MediaWiki Action API client shared by everything that talks to a wiki (the revision
 * source, the snapshot source, the search backend): a descriptive User-Agent, `maxlag=5`, at most 3
 * requests in flight and an optional per-minute cap, failures retried under the one policy of
 * src/net/retry.ts (429 and maxlag pause every request for their Retry-After), zod-validated
 * replies and one-line RemoteErrors. mwn's own retries are disabled (they ignore Retry-After on 429
 * and never back off), so each failure is retried exactly once per attempt, there.
 */
import type { ApiParams, Mwn, MwnOptions } from 'mwn';
import { z } from 'zod';
import { RemoteError, UserError } from '../errors.js';
import { parseRetryAfter, RequestQueue, type Failure } from '../net/retry.js';
import type { Settings } from '../settings.js';

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

/** The client options the settings give for the wiki at `apiUrl`: the one place they are read. */
export function wikiClientOptions(
  settings: Pick<Settings, 'userAgent' | 'maxInFlight' | 'perMinute' | 'maxRetries' | 'retryBaseMs'>,
  apiUrl: string,
): WikiClientOptions {
  return {
    apiUrl,
    userAgent: settings.userAgent,
    maxInFlight: settings.maxInFlight,
    perMinute: settings.perMinute,
    maxRetries: settings.maxRetries,
    retryBaseMs: settings.retryBaseMs,
  };
}

/** The most ids (page, revision, title) a client without apihighlimits may send per request. */
export const IDS_PER_REQUEST = 50;
const MAX_IN_FLIGHT = 3;
const DEFAULT_MAX_RETRIES = 5;
const DEFAULT_RETRY_BASE_MS = 1000;
const REQUEST_TIMEOUT_MS = 120_000;

type Send = (params: ApiParams, attempt: () => Promise<unknown>) => Promise<unknown>;

/**
 * An mwn bot whose every request, continuations included, goes through `send`. mwn is loaded here,
 * on the first request, not at start-up: it is slow to load and most commands never reach a wiki.
 */
async function queuedMwn(options: MwnOptions, send: Send): Promise<Mwn> {
  const { Mwn } = await import('mwn');
  class QueuedMwn extends Mwn {
    override request(params: ApiParams, customRequestOptions?: Parameters<Mwn['request']>[1]): ReturnType<Mwn['request']> {
      return send(params, () => super.request(params, customRequestOptions)) as ReturnType<Mwn['request']>;
    }
  }
  const bot = new QueuedMwn(options);
  bot.setRequestOptions({ timeout: REQUEST_TIMEOUT_MS });
  return bot;
}

/** The continue parameters of a continued query (`continue` and a module's own, e.g. `rccontinue`). */
export type Continuation = Record<string, string>;
const ContinuedReply = z.object({ continue: z.record(z.string(), z.coerce.string()).optional() });

export class WikiClient {
  private readonly apiUrl: string;
  private readonly bot: Promise<Mwn>;
  private readonly requests: RequestQueue;

  constructor(options: WikiClientOptions) {
    if (!options.userAgent?.trim()) {
      throw new UserError('a descriptive User-Agent is required for the MediaWiki API (tool name/version and a contact)');
    }
    const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    if (!Number.isInteger(maxInFlight) || maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT) {
      throw new UserError(`invalid maxInFlight ${maxInFlight}: expected 1 to ${MAX_IN_FLIGHT} requests in flight`);
    }
    this.apiUrl = options.apiUrl;
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new UserError(`invalid maxRetries ${maxRetries}: expected a whole number ≥ 0`);
    }
    this.requests = new RequestQueue({
      service: `wiki ${options.apiUrl}`,
      maxInFlight,
      ...(options.perMinute === undefined ? {} : { perMinute: Math.floor(positive(options.perMinute, 'perMinute')) }),
      maxRetries,
      retryBaseMs: positive(options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS, 'retryBaseMs'),
    });
    this.bot = queuedMwn(
      {
        apiUrl: options.apiUrl,
        userAgent: options.userAgent,
        maxRetries: 0,
        // mwn logs to standard output, which belongs to the command (JSON lines, progress).
        silent: true,
        suppressAPIWarnings: true,
        defaultParams: { format: 'json', formatversion: '2', maxlag: 5 },
      },
      (params, attempt) => this.requests.run(attempt, readFailure, describe(params)),
    );
  }

  async read<T>(params: ApiParams, schema: z.ZodType<T>): Promise<T> {
    return this.validated(params, await (await this.bot).request(params), schema);
  }

  /** Every page of a continued query, each validated; the caller may stop early. */
  async *continued<T>(params: ApiParams, schema: z.ZodType<T>): AsyncIterable<T> {
    for await (const { reply } of this.continuedFrom(params, schema, null)) yield reply;
  }

  /**
   * A continued query from a continuation a caller kept (null: from the beginning), each page with
   * the continuation that follows it (null after the last), so a listing can resume after a crash.
   */
  async *continuedFrom<T>(params: ApiParams, schema: z.ZodType<T>, from: Continuation | null): AsyncIterable<{ reply: T; next: Continuation | null }> {
    const bot = await this.bot;
    let at: Continuation = from ?? {};
    for (;;) {
      const request = { ...params, ...at };
      const raw: unknown = await bot.request(request);
      const parsed = ContinuedReply.safeParse(raw);
      const next = parsed.success && parsed.data.continue ? parsed.data.continue : null;
      yield { reply: this.validated(request, raw, schema), next };
      if (!next) return;
      at = next;
    }
  }

  private validated<T>(params: ApiParams, reply: unknown, schema: z.ZodType<T>): T {
    const result = schema.safeParse(reply);
    if (result.success) return result.data;
    const what = result.error.issues.map((issue) => `${issue.path.join('.') || 'reply'}: ${issue.message}`).join('; ');
    throw new RemoteError(`wiki ${this.apiUrl} sent a malformed reply (${what}) to ${describe(params)}`);
  }
}

/** What mwn rejected with (an axios error for HTTP and network failures, an MwnError for API errors). */
function readFailure(error: unknown): Failure {
  const details = error as {
    code?: string;
    info?: string;
    lag?: number;
    message?: string;
    response?: { status?: number; headers?: Record<string, unknown> };
  };
  const retryAfterMs = parseRetryAfter(details.response?.headers?.['retry-after']);
  const waits = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (details.code === 'maxlag') return { status: `maxlag (${details.lag ?? '?'} s lagged)`, transient: true, ...waits };
  const httpStatus = details.response?.status;
  if (httpStatus !== undefined && httpStatus !== 200) return { status: `HTTP ${httpStatus}`, httpStatus, ...waits };
  // An API error, or mwn's "invalidjson" for a reply that is not JSON.
  if (details.info !== undefined) return { status: `API error ${details.code ?? ''}: ${details.info}`, transient: false };
  // No HTTP answer at all: connection refused or reset, timeout; a host that does not resolve is a
  // wrong apiUrl, not a passing failure.
  return { status: details.code ?? details.message ?? String(error), transient: details.code !== 'ENOTFOUND' };
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

/**
 * The polite MediaWiki Action API client shared by everything that talks to a wiki (the revision
 * source, the snapshot source, the search backend): a descriptive User-Agent, `maxlag=5`, at most 3
 * requests in flight and an optional per-minute cap, failures retried under the one policy of
 * src/net/retry.ts (429 and maxlag pause every request for their Retry-After), zod-validated
 * replies and one-line RemoteErrors. mwn's own retries are disabled (they ignore Retry-After on 429
 * and never back off), so each failure is retried exactly once per attempt, there.
 *
 * A wiki is not trusted to end what it starts: every request has one deadline from sending it to
 * the reply's last byte (a socket timeout never fires on a reply that drips a byte at a time), a
 * reply larger than `maxReplyBytes` is refused as it arrives and not asked again, a redirect to
 * another host is refused rather than followed (its replies would be stored under this wiki's
 * name), and a continued query whose continuation comes back a second time ends with an error
 * naming the request, instead of reading the same page for ever.
 */
import { createHash } from 'node:crypto';
import type { ApiParams, Mwn, MwnOptions } from 'mwn';
import { z } from 'zod';
import { RemoteError, UserError } from '../errors.js';
import { ReplyTooLarge, RequestTimedOut, withDeadline } from '../net/boundedFetch.js';
import { parseRetryAfter, RequestQueue, type Failure } from '../net/retry.js';
import { WIKI_DEFAULTS, type Settings } from '../settings.js';

/** Where a wiki is and how politely to ask it; everything but the URL and User-Agent has a default. */
export interface WikiClientOptions {
  /** e.g. https://en.wikipedia.org/w/api.php */
  apiUrl: string;
  /** Tool name, version and contact, as Wikimedia's User-Agent policy asks. */
  userAgent: string;
  /** Requests in flight at once: 1 to 3, default 3. */
  maxInFlight?: number;
  /** Requests started per rolling minute; unlimited by default. */
  perMinute?: number;
  /** Retries of one request after 429, maxlag, 5xx or network failures before giving up; default 6 (`WIKI_DEFAULTS`). */
  maxRetries?: number;
  /** First backoff delay for 5xx and network failures, doubled per retry; default 1000 ms. */
  retryBaseMs?: number;
  /** One request, to the last byte of its reply; default 120 s. */
  requestTimeoutMs?: number;
  /** A reply larger than this is refused; default 64 MB. */
  maxReplyBytes?: number;
}

/** The settings a wiki client is made from. */
export type WikiClientSettings = Pick<Settings, 'userAgent' | 'maxInFlight' | 'perMinute' | 'maxRetries' | 'retryBaseMs' | 'requestTimeoutSeconds' | 'maxReplyMb'>;

/**
 * The client options the settings give for the wiki at `apiUrl`: the one place they are read.
 *
 * @example new WikiClient(wikiClientOptions(settings, 'https://en.wikipedia.org/w/api.php'))
 */
export function wikiClientOptions(
  settings: WikiClientSettings,
  apiUrl: string,
): WikiClientOptions {
  return {
    apiUrl,
    userAgent: settings.userAgent,
    maxInFlight: settings.maxInFlight,
    perMinute: settings.perMinute,
    maxRetries: settings.maxRetries,
    retryBaseMs: settings.retryBaseMs,
    requestTimeoutMs: settings.requestTimeoutSeconds * 1000,
    maxReplyBytes: Math.round(settings.maxReplyMb * (1 << 20)),
  };
}

/** The most ids (page, revision, title) a client without apihighlimits may send per request. */
export const IDS_PER_REQUEST = 50;
/** Wikimedia asks for no more in flight. */
const MAX_IN_FLIGHT = 3;
const MAX_REDIRECTS = 5;

/** One attempt of a request, ended by `signal` at its deadline. */
type Attempt = (signal: AbortSignal) => Promise<unknown>;
type Send = (params: ApiParams, attempt: Attempt) => Promise<unknown>;

/** A redirect to a host other than the wiki's. */
class RedirectRefused extends Error {
  constructor(readonly location: string) {
    super(`redirected to another host (${location}): refused`);
  }
}

/**
 * An mwn bot whose every request, continuations included, goes through `send`, with the reply cap
 * and redirect rule of `bounds`. mwn is loaded here, on the first request, not at start-up: it is
 * slow to load and most commands never reach a wiki.
 */
async function queuedMwn(options: MwnOptions, bounds: { apiHost: string; timeoutMs: number; maxReplyBytes: number }, send: Send): Promise<Mwn> {
  const { Mwn } = await import('mwn');
  class QueuedMwn extends Mwn {
    override request(params: ApiParams, customRequestOptions: Parameters<Mwn['request']>[1] = {}): ReturnType<Mwn['request']> {
      return send(params, (signal) => super.request(params, { ...customRequestOptions, signal })) as ReturnType<Mwn['request']>;
    }
  }
  const bot = new QueuedMwn(options);
  bot.setRequestOptions({
    timeout: bounds.timeoutMs,
    maxContentLength: bounds.maxReplyBytes,
    maxRedirects: MAX_REDIRECTS,
    beforeRedirect: (redirect: { href?: string }) => {
      const location = redirect.href ?? '';
      if (hostOf(location) !== bounds.apiHost) throw new RedirectRefused(location);
    },
  });
  return bot;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** The continue parameters of a continued query (`continue` and a module's own, e.g. `rccontinue`). */
export type Continuation = Record<string, string>;
const ContinuedReply = z.object({ continue: z.record(z.string(), z.coerce.string()).optional() });

/**
 * One wiki's Action API, asked politely and under bounds (the module says how); every reply is
 * validated by the zod schema the caller passes, so callers handle typed data only.
 *
 * @example
 * const wiki = new WikiClient({ apiUrl: 'https://en.wikipedia.org/w/api.php', userAgent: 'wikidelta/0.1 (you@example.org)' });
 * const info = await wiki.read({ action: 'query', prop: 'info', titles: 'Paris' }, InfoReply);
 * for await (const page of wiki.continued({ action: 'query', list: 'allpages', aplimit: 500 }, AllPagesReply)) use(page);
 */
export class WikiClient {
  private readonly apiUrl: string;
  private readonly bot: Promise<Mwn>;
  private readonly requests: RequestQueue;
  private readonly timeoutMs: number;
  private readonly maxReplyBytes: number;

  /**
   * Makes the client; mwn is loaded and the first request sent only when a read needs them.
   *
   * @throws UserError for an empty User-Agent, `maxInFlight` outside 1 to 3, a negative or fractional
   *   `maxRetries`, or a non-positive timeout, reply cap, per-minute cap or backoff
   */
  constructor(options: WikiClientOptions) {
    if (!options.userAgent?.trim()) {
      throw new UserError('E_FLAG_MISSING', 'a descriptive User-Agent is required for the MediaWiki API (tool name/version and a contact)');
    }
    const maxInFlight = options.maxInFlight ?? WIKI_DEFAULTS.maxInFlight;
    if (!Number.isInteger(maxInFlight) || maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT) {
      throw new UserError('E_SETTING_INVALID', `invalid maxInFlight ${maxInFlight}: expected 1 to ${MAX_IN_FLIGHT} requests in flight`);
    }
    this.apiUrl = options.apiUrl;
    this.timeoutMs = positive(options.requestTimeoutMs ?? WIKI_DEFAULTS.requestTimeoutSeconds * 1000, 'requestTimeoutMs');
    this.maxReplyBytes = positive(options.maxReplyBytes ?? WIKI_DEFAULTS.maxReplyMb * (1 << 20), 'maxReplyBytes');
    const maxRetries = options.maxRetries ?? WIKI_DEFAULTS.maxRetries;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new UserError('E_SETTING_INVALID', `invalid maxRetries ${maxRetries}: expected a whole number ≥ 0`);
    }
    this.requests = new RequestQueue({
      service: `wiki ${options.apiUrl}`,
      failureCode: 'E_WIKI_UNREACHABLE',
      maxInFlight,
      ...(options.perMinute === undefined ? {} : { perMinute: Math.floor(positive(options.perMinute, 'perMinute')) }),
      maxRetries,
      retryBaseMs: positive(options.retryBaseMs ?? WIKI_DEFAULTS.retryBaseMs, 'retryBaseMs'),
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
      { apiHost: hostOf(options.apiUrl), timeoutMs: this.timeoutMs, maxReplyBytes: this.maxReplyBytes },
      (params, attempt) => this.requests.run(() => this.bounded(attempt, params), readFailure, describe(params)),
    );
  }

  /** One attempt within the deadline, its refusals named: too slow, too large, redirected away, not an API reply. */
  private async bounded(attempt: Attempt, params: ApiParams): Promise<unknown> {
    try {
      return await withDeadline(this.timeoutMs, attempt);
    } catch (error) {
      const redirect = causeOfType(error, RedirectRefused);
      if (redirect) throw redirect;
      if (/maxContentLength size of \d+ exceeded/.test((error as Error | undefined)?.message ?? '')) throw new ReplyTooLarge(this.maxReplyBytes);
      // mwn reads the reply's fields before we see it: JSON that is no object (`null`, a number) fails there as a TypeError.
      if (error instanceof TypeError) throw new RemoteError('E_WIKI_BAD_REPLY', `wiki ${this.apiUrl} sent a reply that is not an API reply (JSON, but no object) to ${describe(params)}`);
      // mwn's "invalidjson": a reply that is not JSON at all (an HTML page, a login form, a body cut short) is no API answer either.
      if ((error as { code?: unknown } | undefined)?.code === 'invalidjson') {
        throw new RemoteError('E_WIKI_BAD_REPLY', `wiki ${this.apiUrl} sent a reply that is not an API reply (not JSON: an HTML page, or a body cut short?) to ${describe(params)}`);
      }
      throw error;
    }
  }

  /**
   * One request (format, formatversion 2 and maxlag are added), retried under the client's policy.
   *
   * @param params - the Action API parameters, e.g. `{ action: 'query', prop: 'info', pageids: '1|2' }`
   * @param schema - the reply's zod schema
   * @returns the validated reply
   * @throws RemoteError for a reply the schema refuses, or a wiki that failed past the retries
   */
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
    const seen = new Set([JSON.stringify(at)]);
    // A listing moves on: results the wiki sent already, under a new continuation, would loop as surely as a repeated one.
    const results = new Set<string>();
    for (;;) {
      const request = { ...params, ...at };
      const raw: unknown = await bot.request(request);
      const parsed = ContinuedReply.safeParse(raw);
      const next = parsed.success && parsed.data.continue ? parsed.data.continue : null;
      yield { reply: this.validated(request, raw, schema), next };
      if (!next) return;
      const key = JSON.stringify(next);
      if (seen.has(key)) {
        throw new RemoteError('E_WIKI_BAD_REPLY', `wiki ${this.apiUrl} sent the continuation ${key} a second time for ${describe(params)}: the listing would never end`);
      }
      const result = createHash('sha256').update(JSON.stringify((raw as { query?: unknown }).query ?? null)).digest('base64');
      if (results.has(result)) {
        throw new RemoteError('E_WIKI_BAD_REPLY', `wiki ${this.apiUrl} sent results it had sent already, under the new continuation ${key}, for ${describe(params)}: the listing would never end`);
      }
      seen.add(key);
      results.add(result);
      at = next;
    }
  }

  private validated<T>(params: ApiParams, reply: unknown, schema: z.ZodType<T>): T {
    const result = schema.safeParse(reply);
    if (result.success) return result.data;
    const what = result.error.issues.map((issue) => `${issue.path.join('.') || 'reply'}: ${issue.message}`).join('; ');
    throw new RemoteError('E_WIKI_BAD_REPLY', `wiki ${this.apiUrl} sent a malformed reply (${what}) to ${describe(params)}`);
  }
}

/** The error or one of its causes that is a `type`. */
function causeOfType<T>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) if (at instanceof type) return at;
  return undefined;
}

/** What mwn rejected with (an axios error for HTTP and network failures, an MwnError for API errors), or a refusal of `bounded`. */
function readFailure(error: unknown): Failure | undefined {
  // Our own verdict on the reply, already one line naming the request.
  if (error instanceof RemoteError) return undefined;
  if (error instanceof RequestTimedOut) return { status: error.message, transient: true };
  if (error instanceof ReplyTooLarge || error instanceof RedirectRefused) return { status: error.message, transient: false };
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

/**
 * `value` itself when it is a positive finite number: options read from settings and callers pass through it.
 *
 * @param name - the option's name, for the error
 * @throws UserError naming the option otherwise
 */
export function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new UserError('E_SETTING_INVALID', `invalid ${name} ${value}: expected a positive number`);
  return value;
}

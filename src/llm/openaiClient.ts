/**
 * Structured calls to any OpenAI-compatible chat-completions server through the `openai` SDK.
 *
 * Requests are retried under the one policy of src/net/retry.ts, which the wiki client shares: the
 * SDK's own retries are off (`maxRetries: 0`), so a request is retried only there, after 429
 * (waiting for Retry-After, which also pauses every other request of this client), 408/409/5xx,
 * timeouts and connection errors, up to `maxRetries` times. Every request passes one queue
 * (concurrency and a per-minute cap), asks for at most the prompt's `max_tokens`, and is bounded as
 * a whole (src/net/boundedFetch.ts): its timeout runs to the reply's last byte, and a reply larger
 * than `maxReplyBytes` is refused.
 *
 * Two kinds of failure, kept apart (docs/ARCHITECTURE.md §6): a verdict on the item (its replies
 * stay invalid after `invalidRetries` repairs, or the server refuses this request as such: 400, 413,
 * 422) is returned as a failed outcome, and the item is marked; a failure of the service (down,
 * 5xx or timeouts past the retries, a Retry-After longer than a client waits, a refused key or
 * model, an oversized reply) is thrown as a RemoteError, so the stage fails and a later run asks
 * again, instead of marking every item of an outage as failed for good. A server that refuses a
 * reply format (a 400 about it) is asked in the next one, and one that refuses `max_tokens` for
 * `max_completion_tokens` gets that; both choices are remembered for the server and model for the
 * rest of the process. Identical calls made while one is being asked (the same question of two queries
 * in one batch) wait for its outcome instead of asking again: the cache answers only once it is written.
 */
import { createRequire } from 'node:module';
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import { oneLine, RemoteError } from '../errors.js';
import { boundedFetch, ReplyTooLarge, RequestTimedOut } from '../net/boundedFetch.js';
import { parseRetryAfter, RequestQueue, type Failure } from '../net/retry.js';
import { formatInstructions, jsonSchemaOf, OUTPUT_MODES, parseReply, responseFormat, type OutputMode, type ReplySchema } from './outputModes.js';
import { renderPrompt, type PromptTemplate } from './prompts.js';
import { cacheKey, type CacheKeyParts, type ResponseCache } from '../store/llmCache.js';
import type { Result } from '../result.js';
import { UsageMeter } from './usage.js';

/** The server, model and limits of a client; `SessionTasks` fills them from the settings. */
export interface OpenAiClientOptions {
  /** Unset: the SDK reads OPENAI_BASE_URL (else api.openai.com). */
  baseURL?: string;
  /** Unset: the SDK reads OPENAI_API_KEY. */
  apiKey?: string;
  model: string;
  concurrency: number;
  perMinute: number;
  maxRetries: number;
  invalidRetries: number;
  /** The whole request, from sending it to the last byte of the reply. */
  timeoutMs: number;
  /** A reply (its HTTP body) larger than this is refused as a failure of the server. */
  maxReplyBytes: number;
  temperature: number;
  seed: number;
  cache: ResponseCache | null;
  /** First backoff delay, doubled per retry; default 1000 ms. */
  retryBaseMs?: number;
}

/** One call: the prompt, the values of its placeholders, and the reply's schema. */
export interface StructuredCall<S extends ReplySchema> {
  prompt: PromptTemplate;
  variables: Record<string, string>;
  schema: S;
}

/** `cached`: the outcome came from the store's cache, not from the server. */
export type CallOutcome<T> = Result<T> & { cached: boolean };

/**
 * The SDK, loaded on first use and not at start-up, where it would cost every command (most never
 * call a model); `require` keeps the client's constructor synchronous.
 */
function openaiSdk(): typeof import('openai') {
  return createRequire(import.meta.url)('openai') as typeof import('openai');
}

/** A 400 about the reply format (not, say, an over-long prompt) means: ask in the next format. */
const FORMAT_COMPLAINT = /response_format|json_schema|json_object|structured|schema|grammar|guided/i;
/** A 400 asking for `max_completion_tokens` instead (OpenAI's reasoning models refuse `max_tokens`). */
const TOKEN_PARAMETER_COMPLAINT = /max_completion_tokens/i;
/** Statuses that refuse this request as such (its prompt too long, its content unacceptable): a verdict on the item. */
const ITEM_REFUSALS = new Set([400, 413, 422]);
/**
 * A 400 refusing a setting every request of the run sends (a sampling parameter a reasoning model
 * does not take): the configuration's failure, thrown, or every item would be marked failed for good.
 */
const SETTING_REFUSALS = new Set(['unsupported_parameter', 'unsupported_value']);
/** The reply format that worked last, per server and model (shared by every client of the process). */
const workingModes = new Map<string, OutputMode>();
/** Servers and models that take the reply budget as `max_completion_tokens`. */
const completionTokenServers = new Set<string>();

/**
 * Structured calls to one model behind an OpenAI-compatible server, under the retry policy and
 * bounds above, replies cached in the store when a cache is given. Task sets hold one and call it
 * through `runPrompt`.
 *
 * @example
 * const client = new OpenAiClient({ baseURL: 'http://localhost:8000/v1', model: 'qwen2.5-7b', concurrency: 3, perMinute: 600,
 *   maxRetries: 5, invalidRetries: 2, timeoutMs: 120_000, maxReplyBytes: 1 << 20, temperature: 0, seed: 1, cache: null });
 * const outcome = await client.call({ prompt: loadPrompt('correctness-answer'), variables, schema: AnswerReply });
 */
export class OpenAiClient {
  readonly provider = 'openai';
  readonly model: string;
  readonly usage: UsageMeter;
  private readonly sdk: OpenAI;
  private readonly requests: RequestQueue;
  private readonly serverKey: string;
  /** The outcome of each call being asked, by cache key, for an identical call made meanwhile. */
  private readonly asking = new Map<string, Promise<Result<unknown>>>();

  constructor(private readonly options: OpenAiClientOptions) {
    this.model = options.model;
    this.usage = new UsageMeter(this.provider, options.model);
    this.sdk = new (openaiSdk().default)({
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs,
      fetch: boundedFetch({ timeoutMs: options.timeoutMs, maxBytes: options.maxReplyBytes }),
    });
    this.serverKey = `${this.sdk.baseURL}|${options.model}`;
    this.requests = new RequestQueue({
      service: `LLM server ${this.sdk.baseURL}`,
      failureCode: 'E_LLM_UNREACHABLE',
      maxInFlight: options.concurrency,
      perMinute: options.perMinute,
      maxRetries: options.maxRetries,
      retryBaseMs: options.retryBaseMs ?? 1000,
    });
  }

  /** The reply format this client currently asks for. */
  get mode(): OutputMode {
    return workingModes.get(this.serverKey) ?? 'json_schema';
  }

  /**
   * Renders the prompt, asks the server (or the cache), and validates the reply against the schema,
   * repairing an invalid reply up to `invalidRetries` times.
   *
   * @returns the reply, or why this item failed (invalid replies past the repairs, a request the server refuses as such)
   * @throws RemoteError for a failure of the service: down, 5xx or timeouts past the retries, a refused key or model, an oversized reply
   */
  async call<S extends ReplySchema>(request: StructuredCall<S>): Promise<CallOutcome<z.infer<S>>> {
    const input = renderPrompt(request.prompt, request.variables);
    const parts = {
      model: this.model,
      prompt: request.prompt.name,
      promptVersion: request.prompt.version,
      input,
      parameters: { temperature: this.options.temperature, seed: this.options.seed, reply: jsonSchemaOf(request.schema) },
    };
    const key = cacheKey(parts);
    const hit = this.options.cache?.get(key);
    if (hit) {
      this.usage.add({ cacheHits: 1 });
      return this.fromCache(hit, request.schema);
    }
    const asked = this.asking.get(key);
    if (asked) {
      // Answered as the cache would answer it once the identical call being asked has written it.
      const outcome = await asked;
      this.usage.add({ cacheHits: 1 });
      return this.fromCache(outcome, request.schema);
    }
    const asking = this.ask(request, input, parts, key);
    this.asking.set(key, asking);
    try {
      return await asking;
    } finally {
      this.asking.delete(key);
    }
  }

  /** Asks the server for a call the cache does not hold, repairing invalid replies; see `call`. */
  private async ask<S extends ReplySchema>(request: StructuredCall<S>, input: string, parts: CacheKeyParts, key: string): Promise<CallOutcome<z.infer<S>>> {
    const tokens = { prompt: 0, completion: 0 };
    const fields = Object.keys(request.schema.shape);
    let repair: ChatCompletionMessageParam[] = [];
    let lastReason = '';
    for (let attempt = 0; attempt <= this.options.invalidRetries; ) {
      const messagesIn = (mode: OutputMode): ChatCompletionMessageParam[] => [{ role: 'user', content: input + formatInstructions(mode, request.schema) }, ...repair];
      let completion: ChatCompletion;
      let mode: OutputMode;
      try {
        ({ completion, mode } = await this.send((sent) => this.body(sent, messagesIn(sent), request.prompt, request.schema)));
      } catch (error) {
        if (error instanceof FormatRefused) {
          repair = [];
          continue;
        }
        if (error instanceof TokenParameterRefused) continue;
        this.usage.add({ failures: 1 });
        if (refusesItem(error)) return { ok: false, reason: oneLine(error), cached: false };
        throw error;
      }
      tokens.prompt += completion.usage?.prompt_tokens ?? 0;
      tokens.completion += completion.usage?.completion_tokens ?? 0;
      this.usage.add({ promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 });
      const content = completion.choices[0]?.message?.content;
      const parsed = parseReply(mode, content, request.schema, fields);
      if (parsed.ok) {
        this.options.cache?.put(key, parts, { ok: true, value: parsed.value }, tokens);
        return { ok: true, value: parsed.value as z.infer<S>, cached: false };
      }
      lastReason = parsed.reason;
      // Show the model what it sent and why it does not do, rather than asking the same thing again.
      repair = [
        { role: 'assistant', content: content ?? '' },
        { role: 'user', content: `That reply cannot be used: ${parsed.reason}. Reply again, in exactly the format asked for.` },
      ];
      attempt++;
    }
    const reason = `invalid reply after ${this.options.invalidRetries + 1} attempts: ${lastReason}`;
    this.options.cache?.put(key, parts, { ok: false, reason }, tokens);
    this.usage.add({ failures: 1 });
    return { ok: false, reason, cached: false };
  }

  private fromCache<S extends ReplySchema>(hit: Result<unknown>, schema: S): CallOutcome<z.infer<S>> {
    if (!hit.ok) {
      this.usage.add({ failures: 1 });
      return { ok: false, reason: hit.reason, cached: true };
    }
    const value = schema.safeParse(hit.value);
    if (value.success) return { ok: true, value: value.data, cached: true };
    return { ok: false, reason: `cached reply no longer matches the schema: ${value.error.issues[0]?.message ?? ''}`, cached: true };
  }

  private body(mode: OutputMode, messages: ChatCompletionMessageParam[], prompt: PromptTemplate, schema: ReplySchema): ChatCompletionCreateParamsNonStreaming {
    const format = responseFormat(mode, prompt.name.replace(/[^a-zA-Z0-9_-]/g, '_'), schema);
    // The budget is not part of the cache key: it bounds how much a reply may cost, not what a valid one says.
    const budget = completionTokenServers.has(this.serverKey) ? { max_completion_tokens: prompt.maxTokens } : { max_tokens: prompt.maxTokens };
    return {
      model: this.model,
      messages,
      temperature: this.options.temperature,
      seed: this.options.seed,
      ...budget,
      ...(format ? { response_format: format as unknown as ChatCompletionCreateParamsNonStreaming['response_format'] } : {}),
    };
  }

  private fallBackFrom(mode: OutputMode): void {
    const next = OUTPUT_MODES[OUTPUT_MODES.indexOf(mode) + 1];
    // Another call may already have moved further down; never move back up.
    if (next !== undefined && OUTPUT_MODES.indexOf(this.mode) < OUTPUT_MODES.indexOf(next)) workingModes.set(this.serverKey, next);
  }

  /**
   * One request, retried under the policy above; a refused reply format or token parameter is
   * remembered and reported as FormatRefused or TokenParameterRefused, for the caller to ask again.
   * The request is made as the client asks when it leaves the queue, not when it joined: the
   * requests of a batch waiting behind one that found a format refused are asked in the next.
   */
  private async send(bodyIn: (mode: OutputMode) => ChatCompletionCreateParamsNonStreaming): Promise<{ completion: ChatCompletion; mode: OutputMode }> {
    return this.requests.run(async () => {
      const mode = this.mode;
      const body = bodyIn(mode);
      this.usage.add({ requests: 1 });
      try {
        const completion: unknown = await this.sdk.chat.completions.create(body, { maxRetries: 0, timeout: this.options.timeoutMs });
        const problem = completionProblem(completion);
        if (problem !== null) throw new NotACompletion(problem);
        return { completion: completion as ChatCompletion, mode };
      } catch (error) {
        if (error instanceof NotACompletion) throw error;
        // Remembered before the queue hands this request's place to the next one.
        if (body.max_tokens !== undefined && refusedFor(error, TOKEN_PARAMETER_COMPLAINT)) {
          completionTokenServers.add(this.serverKey);
          throw new TokenParameterRefused(oneLine(error));
        }
        if (body.response_format !== undefined && refusedFor(error, FORMAT_COMPLAINT)) {
          this.fallBackFrom(mode);
          throw new FormatRefused(oneLine(error));
        }
        throw error;
      }
    }, (error) => (error instanceof FormatRefused || error instanceof TokenParameterRefused ? undefined : readFailure(error, this.options.timeoutMs)));
  }
}

class FormatRefused extends Error {}
/** A reply of status 200 that is not a chat completion (an HTML page, `{}`, no choice, no message): the server's failure, not a verdict on the item. */
class NotACompletion extends Error {}

/**
 * What keeps a 200 reply from being a chat completion the client can read, or null: a body that is
 * not an object, no `choices` array or an empty one, a first choice without a message object, a
 * content that is neither text nor null (null is the model's empty reply, judged as the item's).
 */
export function completionProblem(reply: unknown): string | null {
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) return `the reply is not a chat completion but ${describeValue(reply)}`;
  const choices = (reply as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return `the reply is not a chat completion: its choices are ${describeValue(choices)}`;
  if (choices.length === 0) return 'the reply is not a chat completion: it has no choice';
  const message = (choices[0] as { message?: unknown } | null)?.message;
  if (typeof message !== 'object' || message === null) return `the reply is not a chat completion: its first choice's message is ${describeValue(message)}`;
  const content = (message as { content?: unknown }).content;
  if (content !== undefined && content !== null && typeof content !== 'string') return `the reply is not a chat completion: its message's content is ${describeValue(content)}`;
  return null;
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${String(value)})`;
}
class TokenParameterRefused extends Error {}

/** A 400 (or 422) whose message matches `complaint`: about a parameter, not about, say, an over-long prompt. */
function refusedFor(error: unknown, complaint: RegExp): boolean {
  return error instanceof openaiSdk().APIError && (error.status === 400 || error.status === 422) && complaint.test(error.message);
}

/** The server refused this item's request as such (the failure past the retries wraps the SDK's error). */
function refusesItem(error: unknown): boolean {
  const cause = error instanceof RemoteError ? error.cause : error;
  if (!(cause instanceof openaiSdk().APIError) || cause.status === undefined || !ITEM_REFUSALS.has(cause.status)) return false;
  return !(typeof cause.code === 'string' && SETTING_REFUSALS.has(cause.code));
}

function readFailure(error: unknown, timeoutMs: number): Failure {
  const { APIConnectionError, APIConnectionTimeoutError, APIError } = openaiSdk();
  // A proxy's error page or a wrong base URL passes, like a 502: retried, then thrown.
  if (error instanceof NotACompletion) return { status: error.message, transient: true };
  if (error instanceof APIConnectionTimeoutError) return { status: `no complete reply within ${timeoutMs / 1000} s`, transient: true };
  if (error instanceof APIConnectionError) {
    // boundedFetch's own failures, which the SDK wraps as connection errors.
    if (error.cause instanceof RequestTimedOut) return { status: error.cause.message, transient: true };
    if (error.cause instanceof ReplyTooLarge) return { status: error.cause.message, transient: false };
    return { status: `connection failed: ${oneLine(error.cause ?? error)}`, transient: true };
  }
  if (error instanceof APIError && error.status !== undefined) {
    const retryAfterMs = retryAfter(error.headers);
    const status = `HTTP ${error.status}: ${oneLine(error.message)}`;
    return retryAfterMs === undefined ? { status, httpStatus: error.status } : { status, httpStatus: error.status, retryAfterMs };
  }
  return { status: oneLine(error), transient: false };
}

/** OpenAI's servers send `retry-after-ms` besides the standard `retry-after`. */
function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(headers?.get('retry-after') ?? undefined);
}

/**
 * Structured calls to any OpenAI-compatible chat-completions server through the `openai` SDK.
 *
 * Requests are retried under the one policy of src/net/retry.ts, which the wiki client shares: the
 * SDK's own retries are off (`maxRetries: 0`), so a request is retried only there, after 429
 * (waiting for Retry-After, which also pauses every other request of this client), 408/409/5xx,
 * timeouts and connection errors, up to `maxRetries` times. Every request passes one queue
 * (concurrency and a per-minute cap) and has a timeout. Replies are validated with zod; an invalid one is answered with what was wrong and asked
 * again, `invalidRetries` times, then the call ends with the reason (the item is marked, the run
 * goes on). A server that refuses a reply format (a 400 about it) is asked in the next one, and
 * that choice is remembered for the server and model for the rest of the process.
 */
import { createRequire } from 'node:module';
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import { oneLine } from '../errors.js';
import { parseRetryAfter, RequestQueue, type Failure } from '../net/retry.js';
import { formatInstructions, jsonSchemaOf, OUTPUT_MODES, parseReply, responseFormat, type OutputMode, type ReplySchema } from './outputModes.js';
import { renderPrompt, type PromptTemplate } from './prompts.js';
import { cacheKey, type ResponseCache } from '../store/llmCache.js';
import type { Result } from '../result.js';
import { UsageMeter } from './usage.js';

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
  timeoutMs: number;
  temperature: number;
  seed: number;
  cache: ResponseCache | null;
  /** First backoff delay, doubled per retry; default 1000 ms. */
  retryBaseMs?: number;
}

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
/** The reply format that worked last, per server and model (shared by every client of the process). */
const workingModes = new Map<string, OutputMode>();

export class OpenAiClient {
  readonly provider = 'openai';
  readonly model: string;
  readonly usage: UsageMeter;
  private readonly sdk: OpenAI;
  private readonly requests: RequestQueue;
  private readonly serverKey: string;

  constructor(private readonly options: OpenAiClientOptions) {
    this.model = options.model;
    this.usage = new UsageMeter(this.provider, options.model);
    this.sdk = new (openaiSdk().default)({
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs,
    });
    this.serverKey = `${this.sdk.baseURL}|${options.model}`;
    this.requests = new RequestQueue({
      service: `LLM server ${this.sdk.baseURL}`,
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
    const tokens = { prompt: 0, completion: 0 };
    const fields = Object.keys(request.schema.shape);
    let repair: ChatCompletionMessageParam[] = [];
    let lastReason = '';
    for (let attempt = 0; attempt <= this.options.invalidRetries; ) {
      const mode = this.mode;
      const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: input + formatInstructions(mode, request.schema) }, ...repair];
      let completion: ChatCompletion;
      try {
        completion = await this.send(this.body(mode, messages, request.prompt.name, request.schema));
      } catch (error) {
        if (error instanceof FormatRefused) {
          this.fallBackFrom(mode);
          repair = [];
          continue;
        }
        this.usage.add({ failures: 1 });
        return { ok: false, reason: oneLine(error), cached: false };
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

  private body(mode: OutputMode, messages: ChatCompletionMessageParam[], name: string, schema: ReplySchema): ChatCompletionCreateParamsNonStreaming {
    const format = responseFormat(mode, name.replace(/[^a-zA-Z0-9_-]/g, '_'), schema);
    return {
      model: this.model,
      messages,
      temperature: this.options.temperature,
      seed: this.options.seed,
      ...(format ? { response_format: format as unknown as ChatCompletionCreateParamsNonStreaming['response_format'] } : {}),
    };
  }

  private fallBackFrom(mode: OutputMode): void {
    const next = OUTPUT_MODES[OUTPUT_MODES.indexOf(mode) + 1];
    // Another call may already have moved further down; never move back up.
    if (next !== undefined && OUTPUT_MODES.indexOf(this.mode) < OUTPUT_MODES.indexOf(next)) workingModes.set(this.serverKey, next);
  }

  /** One request, retried under the policy above; a refused reply format is reported as FormatRefused. */
  private async send(body: ChatCompletionCreateParamsNonStreaming): Promise<ChatCompletion> {
    return this.requests.run(async () => {
      this.usage.add({ requests: 1 });
      try {
        return await this.sdk.chat.completions.create(body, { maxRetries: 0, timeout: this.options.timeoutMs });
      } catch (error) {
        if (body.response_format !== undefined && refusesFormat(error)) throw new FormatRefused(oneLine(error));
        throw error;
      }
    }, (error) => (error instanceof FormatRefused ? undefined : readFailure(error, this.options.timeoutMs)));
  }
}

class FormatRefused extends Error {}

/** A 400 (or 422) about the reply format, not about, say, an over-long prompt. */
function refusesFormat(error: unknown): boolean {
  return error instanceof openaiSdk().APIError && (error.status === 400 || error.status === 422) && FORMAT_COMPLAINT.test(error.message);
}

function readFailure(error: unknown, timeoutMs: number): Failure {
  const { APIConnectionError, APIConnectionTimeoutError, APIError } = openaiSdk();
  if (error instanceof APIConnectionTimeoutError) return { status: `no reply within ${timeoutMs / 1000} s`, transient: true };
  if (error instanceof APIConnectionError) return { status: `connection failed: ${oneLine(error.cause ?? error)}`, transient: true };
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

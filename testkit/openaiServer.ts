/**
 * A local OpenAI-compatible chat-completions server for tests and benchmarks (node:http on
 * 127.0.0.1). It answers the pipeline's prompts sensibly (a question naming the target key,
 * the infobox value the question names, a domain, a sentence-change verdict, a judge's verdicts on a
 * prediction read from the values the prompt lists), in whichever reply
 * format the request asks for, and plays scripted faults on the first requests: 429 with Retry-After, 500, a hang past the
 * client's timeout, invalid JSON, a reply that breaks the schema, headers followed by a body that
 * drips a byte at a time, a reply of many megabytes. It can also refuse structured outputs, JSON
 * mode or `max_tokens` the way servers without them do (HTTP 400).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dripReply } from './drip.js';

export type Fault =
  | 'rate-limit'
  | 'server-error'
  | 'bad-request'
  | 'unsupported-parameter'
  | 'hang'
  | 'drip'
  | 'huge-reply'
  | 'invalid-json'
  | 'schema-violation'
  | 'dated-question'
  | 'not-a-completion';

export interface OpenAiServerOptions {
  /** Faults played on the first requests, in order; later requests are answered normally. */
  faults?: Fault[];
  /** Every request's reply is broken this way (for "never valid" cases)... */
  alwaysFault?: Fault;
  /** ...or only the replies to prompts containing this text. */
  alwaysFaultWhen?: string;
  jsonSchema?: boolean;
  jsonObject?: boolean;
  /** false: refuse `max_tokens` as OpenAI's reasoning models do, asking for `max_completion_tokens`. */
  maxTokens?: boolean;
  /** Delay before every answer, simulating a model's latency. */
  latencyMs?: number;
  retryAfterSeconds?: number;
  hangMs?: number;
  /** 'drip': one byte of the body every this many ms (default 1000). */
  dripMs?: number;
  /** 'huge-reply': the reply's size in bytes (default 8 MB). */
  hugeReplyBytes?: number;
  /** 'not-a-completion': the body of the HTTP 200 reply, sent as is (default `{}`), and its content type (default JSON). */
  notACompletion?: { body: string; contentType?: string };
  /**
   * Replies for prompts the built-in answers do not cover (e.g. the monthly pipeline's): the reply's
   * fields (sent in the requested format), raw content (a string, sent as is), or undefined for the
   * built-in answer.
   */
  script?: (prompt: string) => Record<string, string> | string | undefined;
}

export interface RecordedRequest {
  body: ChatRequest;
  /** Which reply format the request asked for. */
  mode: 'json_schema' | 'json_object' | 'text';
}

interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
}

export interface OpenAiServer {
  baseURL: string;
  requests: RecordedRequest[];
  /** The most requests the server was answering at one time. */
  readonly mostInFlight: number;
  stop(): Promise<void>;
}

export async function startOpenAiServer(options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const faults = [...(options.faults ?? [])];
  const requests: RecordedRequest[] = [];
  const hangs = new Set<NodeJS.Timeout>();
  const drips = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let mostInFlight = 0;
  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(res, 404, { error: { message: 'not found' } });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
    const type = body.response_format?.type;
    const mode = type === 'json_schema' ? 'json_schema' : type === 'json_object' ? 'json_object' : 'text';
    requests.push({ body, mode });
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    res.on('close', () => inFlight--);
    if (options.latencyMs) await delay(options.latencyMs);
    if ((mode === 'json_schema' && options.jsonSchema === false) || (mode === 'json_object' && options.jsonObject === false)) {
      return send(res, 400, { error: { message: `response_format type ${type} is not supported by this server`, type: 'invalid_request_error' } });
    }
    if (options.maxTokens === false && body.max_tokens !== undefined) {
      return send(res, 400, {
        error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error' },
      });
    }
    const targeted = options.alwaysFaultWhen === undefined || (body.messages[0]?.content ?? '').includes(options.alwaysFaultWhen);
    const fault = faults.shift() ?? (targeted ? options.alwaysFault : undefined);
    if (fault === 'rate-limit') {
      return send(res, 429, { error: { message: 'rate limited' } }, { 'retry-after': String(options.retryAfterSeconds ?? 1) });
    }
    if (fault === 'server-error') return send(res, 500, { error: { message: 'internal error' } });
    if (fault === 'bad-request') return send(res, 400, { error: { message: 'the prompt is longer than the context window', type: 'invalid_request_error' } });
    // As OpenAI's reasoning models refuse a sampling setting: the request's configuration, not the item.
    if (fault === 'unsupported-parameter') {
      return send(res, 400, { error: { message: "Unsupported value: 'temperature' does not support 0 with this model.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } });
    }
    if (fault === 'not-a-completion') {
      res.writeHead(200, { 'content-type': options.notACompletion?.contentType ?? 'application/json' });
      res.end(options.notACompletion?.body ?? '{}');
      return;
    }
    if (fault === 'drip') {
      drips.add(dripReply(res, JSON.stringify(completion(body, reply(body, mode))), options.dripMs ?? 1000));
      return;
    }
    if (fault === 'huge-reply') {
      return send(res, 200, completion(body, JSON.stringify({ question: `What ${'very '.repeat(Math.ceil((options.hugeReplyBytes ?? 8 << 20) / 5))}long question is this?` })));
    }
    if (fault === 'hang') {
      const timer = setTimeout(() => send(res, 200, completion(body, reply(body, mode))), options.hangMs ?? 5000);
      hangs.add(timer);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    const scripted = fault === undefined ? options.script?.(body.messages[0]?.content ?? '') : undefined;
    const content =
      typeof scripted === 'string'
        ? scripted
        : scripted !== undefined
          ? format(scripted, mode)
          : fault === 'invalid-json'
        ? 'Sure! Here is the thing you asked for: {"question": '
        : fault === 'schema-violation'
          ? '{"unexpected": 42}'
          : fault === 'dated-question'
            ? '{"question": "What was the population of Port Aldwin as of 2024?"}'
            : reply(body, mode);
    send(res, 200, completion(body, content));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get mostInFlight() {
      return mostInFlight;
    },
    stop: async () => {
      for (const timer of hangs) clearTimeout(timer);
      for (const timer of drips) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function completion(body: ChatRequest, content: string): unknown {
  const prompt = body.messages.map((m) => m.content).join('\n');
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: 0 },
  };
}

/** A plausible answer to whichever of the pipeline's prompts this is, in the requested format. */
function reply(body: ChatRequest, mode: RecordedRequest['mode']): string {
  const prompt = body.messages[0]?.content ?? '';
  let fields: Record<string, string>;
  if (prompt.includes("System's reply: ")) {
    fields = judgeReply(prompt);
  } else if (prompt.includes('Target field:')) {
    const title = /Source article: "(.*)"/.exec(prompt)?.[1] ?? 'the subject';
    const key = /Target field: (.*)/.exec(prompt)?.[1]?.trim() ?? 'value';
    fields = { question: `According to its article, what is the ${key.replace(/_/g, ' ')} of ${title}?` };
  } else if (prompt.includes('Question: ')) {
    const question = /Question: (.*)/.exec(prompt)?.[1] ?? '';
    if (prompt.includes('subject domain')) {
      fields = { domain: /football|club|season|goals|caps/i.test(prompt) ? 'Sports and Entertainment' : 'Others' };
    } else {
      const infobox = prompt.split('Reference infobox, one field per line as key: value:\n')[1]?.split('\n\nQuestion:')[0] ?? '';
      fields = { answer: lookUp(infobox, question) ?? 'unknown' };
    }
  } else if (prompt.includes('Old sentence: ') && prompt.includes('New sentence: ')) {
    // The labeling step: changed when the rules report a differing fact, else the same statement.
    fields = /Automatic checks found: facts differ/.test(prompt)
      ? { verdict: 'changed', reason: 'a fact of the old sentence has another value in the new one' }
      : { verdict: 'same', reason: 'both sentences state the same facts' };
  } else {
    fields = { answer: 'unknown' };
  }
  return format(fields, mode);
}

/**
 * A judge that reads the listed values: relaxed, the reply contains the value in effect (correct) or
 * an earlier one (outdated); strict, the reply is that value and nothing more.
 */
function judgeReply(prompt: string): Record<string, string> {
  const values = [...prompt.matchAll(/^- (?:from|until) [^:]*: (.*)$/gm)].map((match) => (match[1] ?? '').trim().toLowerCase());
  const current = (/Answer in effect when the question was asked: (.*)/.exec(prompt)?.[1] ?? '').trim().toLowerCase();
  const reply = (/System's reply: (.*)/.exec(prompt)?.[1] ?? '').trim().toLowerCase();
  const earlier = values.slice(0, -1).filter((value) => value !== current);
  const verdict = (matches: (value: string) => boolean) => (matches(current) ? 'correct' : earlier.some(matches) ? 'outdated' : 'wrong');
  const relaxed = verdict((value) => value !== '' && reply.includes(value));
  const strict = verdict((value) => value !== '' && reply === value);
  return { relaxed, strict, reason: `the reply gives ${relaxed === 'wrong' ? 'no listed value' : 'a listed value'}` };
}

function format(fields: Record<string, string>, mode: RecordedRequest['mode']): string {
  if (mode === 'text') return Object.entries(fields).map(([k, v]) => `${k.toUpperCase()}: ${v}`).join('\n');
  return JSON.stringify(fields);
}

/** The value of the infobox line whose key shares the most words with the question. */
function lookUp(infobox: string, question: string): string | undefined {
  const words = new Set(question.toLowerCase().split(/[^a-z0-9]+/));
  let best: { overlap: number; value: string } | undefined;
  for (const line of infobox.split('\n')) {
    const at = line.indexOf(':');
    if (at < 0) continue;
    const overlap = line.slice(0, at).toLowerCase().split(/[^a-z0-9]+/).filter((word) => words.has(word)).length;
    if (overlap > 0 && overlap > (best?.overlap ?? 0)) best = { overlap, value: line.slice(at + 1).trim() };
  }
  return best?.value;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

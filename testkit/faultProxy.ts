/**
 * An HTTP proxy on loopback in front of a wiki that can be told to fail the next requests the way
 * busy Wikimedia servers do (429 with Retry-After, 5xx, maxlag), and that records every request
 * so tests and benchmarks can assert how many calls of which kind a client made.
 */
import { request as httpRequest, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  /** An HTTP error status, with a Retry-After header (seconds) when given. */
  | { status: number; retryAfterSeconds?: number }
  /** MediaWiki's answer to a request whose maxlag is exceeded: HTTP 200, an error body, Retry-After. */
  | { maxlagSeconds: number; retryAfterSeconds: number }
  /** HTTP 200 with this JSON body, e.g. a reply of the wrong shape. */
  | { reply: unknown };

export interface RecordedRequest {
  method: string;
  /** The API parameters, from the query string and a form-encoded POST body. */
  params: URLSearchParams;
  /** A short label: `list=recentchanges`, `prop=revisions`, `prop=revisions+content`, `action=login`… */
  kind: string;
  /** Whether the proxy answered with a fault instead of passing the request on. */
  faulted: boolean;
  /** When the request arrived (Date.now()). */
  at: number;
}

export interface RequestCounts {
  total: number;
  faulted: number;
  /** Requests passed through to the wiki, by kind. */
  byKind: Record<string, number>;
  /** The most requests the proxy was handling at once. */
  maxInFlight: number;
}

export interface FaultProxy {
  /** The proxy's base URL; append the target's paths, e.g. `${baseUrl}/api.php`. */
  baseUrl: string;
  /** Answers the next `count` requests with `fault` (after any faults already queued); Infinity for ever. */
  failNext(count: number, fault: Fault): void;
  /** Drops queued faults: every later request passes through. */
  heal(): void;
  counts(): RequestCounts;
  requests(): readonly RecordedRequest[];
  resetCounts(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(targetBaseUrl: string): Promise<FaultProxy> {
  const target = new URL(targetBaseUrl);
  const faults: Array<{ remaining: number; fault: Fault }> = [];
  let recorded: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const takeFault = (): Fault | undefined => {
    const next = faults[0];
    if (!next) return undefined;
    next.remaining--;
    if (next.remaining <= 0) faults.shift();
    return next.fault;
  };

  const server = createServer((incoming, outgoing) => {
    void handle(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'Content-Type': 'text/plain' });
      outgoing.end(`fault proxy: ${String(error)}`);
    });
  });

  const handle = async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    const at = Date.now();
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    outgoing.once('close', () => inFlight--);
    const body = await readBody(incoming);
    const params = apiParams(incoming, body);
    const fault = takeFault();
    recorded.push({ method: incoming.method ?? 'GET', params, kind: kindOf(params), faulted: fault !== undefined, at });
    if (fault) answerWithFault(outgoing, fault);
    else await passThrough(incoming, body, outgoing, target);
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    failNext: (count, fault) => {
      faults.push({ remaining: count, fault });
    },
    heal: () => {
      faults.length = 0;
    },
    counts: () => {
      const byKind: Record<string, number> = {};
      let faulted = 0;
      for (const entry of recorded) {
        if (entry.faulted) faulted++;
        else byKind[entry.kind] = (byKind[entry.kind] ?? 0) + 1;
      }
      return { total: recorded.length, faulted, byKind, maxInFlight };
    },
    requests: () => recorded,
    resetCounts: () => {
      recorded = [];
      maxInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function readBody(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function apiParams(incoming: IncomingMessage, body: Buffer): URLSearchParams {
  const params = new URL(incoming.url ?? '/', 'http://proxy').searchParams;
  if ((incoming.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(body.toString('utf8'))) params.append(key, value);
  }
  return params;
}

function kindOf(params: URLSearchParams): string {
  const action = params.get('action') ?? '';
  if (action !== 'query') return `action=${action}`;
  const parts: string[] = [];
  for (const module of ['list', 'prop', 'meta'] as const) {
    const value = params.get(module);
    if (value) parts.push(`${module}=${value}`);
  }
  const kind = parts.join('&') || 'action=query';
  return (params.get('rvprop') ?? '').split('|').includes('content') ? `${kind}+content` : kind;
}

function answerWithFault(outgoing: ServerResponse, fault: Fault): void {
  if ('reply' in fault) {
    outgoing.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    outgoing.end(JSON.stringify(fault.reply));
    return;
  }
  if ('maxlagSeconds' in fault) {
    const lag = fault.maxlagSeconds;
    outgoing.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Retry-After': String(fault.retryAfterSeconds),
      'X-Database-Lag': String(lag),
    });
    outgoing.end(
      JSON.stringify({
        error: { code: 'maxlag', info: `Waiting for 10.0.0.1: ${lag} seconds lagged.`, host: '10.0.0.1', lag },
      }),
    );
    return;
  }
  const headers: Record<string, string> = { 'Content-Type': 'text/html; charset=utf-8' };
  if (fault.retryAfterSeconds !== undefined) headers['Retry-After'] = String(fault.retryAfterSeconds);
  outgoing.writeHead(fault.status, headers);
  outgoing.end(`<html><body>fault proxy: HTTP ${fault.status}</body></html>`);
}

function passThrough(incoming: IncomingMessage, body: Buffer, outgoing: ServerResponse, target: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        answer.on('end', resolve);
        answer.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

/**
 * The protections every response and every POST get (docs/ARCHITECTURE.md §14): headers that keep
 * scripts to our own files and tokens out of Referer, and the checks that make a cross-site POST
 * fail even though the token travels in a header a foreign page could not set anyway.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * A server bound to loopback answers only requests addressed to a loopback name: a page of another
 * site whose name was rebound to 127.0.0.1 (DNS rebinding) would otherwise count as same-origin.
 * The Host the connection sent is checked, never an X-Forwarded-Host a trusted proxy may pass on.
 */
export function foreignHost(request: FastifyRequest): boolean {
  const host = request.headers.host ?? '';
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  return !isLoopback(name);
}

/** Why the request's Host is refused (none, or several: proxies and the server could each read another), or null. */
export function refusedHost(request: FastifyRequest): string | null {
  const raw = request.raw.rawHeaders;
  let hosts = 0;
  for (let at = 0; at < raw.length; at += 2) if (raw[at]?.toLowerCase() === 'host') hosts++;
  if (hosts > 1) return `${hosts} Host headers: send one`;
  return null;
}

/**
 * Why a request that changes something (POST, DELETE) is refused before its body is read, with its
 * status, or null when it may go on: a POST body must be JSON, which a cross-site form cannot send,
 * and a browser's Origin, when sent, must be this server's.
 */
export function refusedWrite(request: FastifyRequest): { status: number; message: string } | null {
  if (request.method === 'POST') {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return { status: 415, message: 'POST bodies must be application/json' };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) return { status: 403, message: `cross-site request refused (origin ${origin})` };
  if (request.headers['sec-fetch-site'] === 'cross-site') return { status: 403, message: 'cross-site request refused' };
  return null;
}

/**
 * A POST body parsed as JSON, or a 400 saying what is wrong with it. A key that could reach an
 * object's prototype once merged (`__proto__`, `constructor.prototype`) is refused, as Fastify's own
 * parser refuses it, but named: that parser calls such a body "not valid JSON", which sends its
 * sender looking for a syntax error that is not there.
 */
export function parseJsonBody(_request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void): void {
  const refuse = (message: string) => done(Object.assign(new Error(message), { statusCode: 400 }));
  if (body.trim() === '') return refuse('the body is empty: send a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return refuse(`the body is not valid JSON: ${(error as Error).message}`);
  }
  const key = prototypeKey(value);
  if (key !== null) return refuse(`the body holds the key "${key}", which is refused`);
  done(null, value);
}

/** The first key of a parsed JSON value that reaches a prototype when merged into an object, or null. */
function prototypeKey(value: unknown): string | null {
  const pending = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next !== 'object' || next === null) continue;
    if (Object.hasOwn(next, '__proto__')) return '__proto__';
    const constructor = (next as { constructor?: unknown }).constructor;
    if (Object.hasOwn(next, 'constructor') && typeof constructor === 'object' && constructor !== null && Object.hasOwn(constructor, 'prototype')) return 'constructor.prototype';
    pending.push(...Object.values(next));
  }
  return null;
}

export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
}

/** The token of an `Authorization: Bearer TOKEN` header, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

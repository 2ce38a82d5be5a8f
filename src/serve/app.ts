/**
 * The audit server as a fastify app (docs/ARCHITECTURE.md §14): the annotator's and maintainer's
 * pages, their static files, and the JSON API, behind the security headers and POST checks.
 * Built without listening, so tests can also drive it through `inject()`.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { z } from 'zod';
import { apiRoutes, adminView } from './api.js';
import { loadAssets } from './assets.js';
import { ServeContext, type TokenCheck } from './context.js';
import type { FailedAttemptsOptions } from './failedAttempts.js';
import { adminPage, annotatorPage, messagePage } from './pages.js';
import { foreignHost, parseJsonBody, refusedHost, refusedWrite, SECURITY_HEADERS, sendError } from './security.js';
import type { Store } from '../store/store.js';

/** Judgments are a few hundred bytes; anything near this is not one. */
export const BODY_LIMIT_BYTES = 16 * 1024;

export interface AuditAppOptions {
  /** The store whose audits it serves, open for writing: judgments are written to it. */
  store: Store;
  log?: (line: string) => void;
  failedAttempts?: FailedAttemptsOptions;
  /** Refuse requests whose Host is not a loopback name (set when bound to loopback). */
  loopbackOnly?: boolean;
  /**
   * The reverse proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For,
   * -Host and -Proto are believed, so each client's own address is the one its failed tokens
   * count under; without it every client behind a proxy is the proxy's one address.
   */
  trustProxy?: string;
}

const PageQuery = z.object({ item: z.string().regex(/^\d{1,12}$/).transform(Number).optional() });

function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page);
}

function refusedToken(reply: FastifyReply, check: Extract<TokenCheck, { ok: false }>): FastifyReply {
  if (check.retryAfter !== undefined) reply.header('retry-after', String(check.retryAfter));
  return sendPage(reply, check.status, messagePage(check.status === 429 ? 'Too many attempts' : 'Unknown link', check.status === 429 ? check.message : 'This audit link is not valid. Ask the maintainer of the audit for yours.'));
}

export async function buildAuditApp(options: AuditAppOptions): Promise<FastifyInstance> {
  const log = options.log ?? (() => {});
  const context = new ServeContext(options.store, options.failedAttempts, log);
  const assets = loadAssets();
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES, trustProxy: options.trustProxy ?? false });
  // Only JSON bodies: a text/plain POST is what a cross-site form could send without a preflight.
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
    const host = refusedHost(request);
    if (host) return sendError(reply, 400, host);
    if (options.loopbackOnly && foreignHost(request)) return sendError(reply, 403, `this server answers only on loopback, not as ${request.headers.host ?? ''}`);
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const refused = refusedWrite(request);
    if (refused) return sendError(reply, refused.status, refused.message);
  });

  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status < 500) return sendError(reply, status, error.message);
    log(`error: ${request.method} ${request.url.replace(/\/(a|admin)\/[^/?]+/, '/$1/…')}: ${error.message}`);
    return sendError(reply, 500, 'internal error');
  });
  app.setNotFoundHandler((_request, reply) => sendError(reply, 404, 'not found'));

  app.get('/assets/:name', async (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return sendError(reply, 404, 'not found');
    return reply.type(asset.type).header('cache-control', 'no-cache').send(asset.body);
  });

  // Browsers ask for it on their own; an empty answer keeps a 404 out of their consoles.
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());

  app.get('/a/:token', async (request, reply) => {
    const check = context.checkToken(request.ip, (request.params as { token: string }).token);
    if (!check.ok) return refusedToken(reply, check);
    if (check.annotator.role === 'admin') return sendPage(reply, 403, messagePage('The maintainer link', 'This link is for the maintainer page: open /admin/ with the same token.'));
    const query = PageQuery.safeParse(request.query);
    if (!query.success) return sendPage(reply, 400, messagePage('Bad request', 'item must be a whole number'));
    const here = context.locate(check.annotator.id, query.data.item ?? null);
    if (!here) return sendPage(reply, 403, messagePage('Not yours', `Item ${query.data.item} is not assigned to you.`));
    const audit = context.audits.auditById(check.annotator.auditId);
    return sendPage(reply, 200, annotatorPage({ audit: audit?.name ?? '', source: audit?.source ?? '', annotator: check.annotator.name, ...here }));
  });

  app.get('/admin/:token', async (request, reply) => {
    const check = context.checkToken(request.ip, (request.params as { token: string }).token);
    if (!check.ok) return refusedToken(reply, check);
    const audit = check.annotator.role === 'admin' ? context.audits.auditById(check.annotator.auditId) : undefined;
    if (!audit) return sendPage(reply, 403, messagePage('Not an admin link', 'This link is an annotator link; the maintainer page needs the admin link.'));
    return sendPage(reply, 200, adminPage(adminView(context, audit)));
  });

  await app.register(async (api) => apiRoutes(api, context), { prefix: '/api' });
  return app;
}

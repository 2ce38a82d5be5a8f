/**
 * Starts the audit server on a host and port (`wikidelta serve`, `audit demo`, the tests). Bound
 * to loopback unless told otherwise: the tokens travel in URLs over plain HTTP, so another host
 * is said out loud.
 */
import { isIP } from 'node:net';
import { buildAuditApp } from './app.js';
import { isLoopback } from './security.js';
import type { Store } from '../store/store.js';

export interface AuditServerOptions {
  /** See AuditAppOptions.store. */
  store: Store;
  host: string;
  /** 0 picks a free port. */
  port: number;
  log?: (line: string) => void;
  /** See AuditAppOptions.trustProxy. */
  trustProxy?: string;
}

export interface AuditServer {
  url: string;
  close(): Promise<void>;
}

export async function startAuditServer(options: AuditServerOptions): Promise<AuditServer> {
  const log = options.log ?? (() => {});
  const app = await buildAuditApp({ store: options.store, log, loopbackOnly: isLoopback(options.host), trustProxy: options.trustProxy });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = isIP(options.host) === 6 ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  if (!isLoopback(options.host)) log(`warning: serving on ${options.host}, reachable from other machines over plain HTTP; annotator tokens travel in the links`);
  return { url, close: () => app.close() };
}

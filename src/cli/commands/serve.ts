/**
 * `wikidelta serve`: the audit pages and their JSON API on the store given by --db
 * (docs/ARCHITECTURE.md §14), until SIGINT or SIGTERM. The server loads with this command only,
 * not with every command's start-up.
 */
import { Option, type Command } from 'commander';
import { isIP } from 'node:net';
import { UserError } from '../../errors.js';
import { addOptions, integerOption } from '../options.js';
import { withSession } from '../session.js';

/** Where the audit pages listen unless told otherwise, and where the links of `audit create` point. */
export const DEFAULT_PORT = 8787;
/** Where the audit pages listen unless told otherwise: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

interface ServeFlags {
  host: string;
  port: number;
  trustProxy?: string;
}

export function registerServe(program: Command): void {
  addOptions<ServeFlags>(
    program
      .command('serve')
      .description("serve the audits' annotator pages (/a/TOKEN), the maintainer's page (/admin/TOKEN) and their JSON API (/api, Authorization: Bearer TOKEN) until stopped"),
    {
      host: new Option('--host <host>', 'the address to listen on; anything but loopback is reachable from other machines over plain HTTP').default(DEFAULT_HOST),
      port: integerOption('--port <n>', 'the port (0 picks a free one)').default(DEFAULT_PORT),
      trustProxy: new Option('--trust-proxy <addresses>', "behind a reverse proxy: its addresses or CIDR ranges, comma-separated, whose X-Forwarded-For/-Host/-Proto are believed (so failed links count per client, not per proxy)"),
    },
  ).action(async (flags: ServeFlags, command: Command) => {
    if (flags.port < 0 || flags.port > 65_535) throw new UserError('E_FLAG_INVALID', `invalid --port ${flags.port}: from 0 to 65535`);
    if (flags.trustProxy !== undefined) checkTrustedProxies(flags.trustProxy);
    // No run lock: judgments are single-row transactions, so `audit` commands may add items or annotators meanwhile.
    await withSession(command, { write: false }, async (session) => {
      const { startAuditServer } = await import('../../serve/server.js');
      const server = await startAuditServer({
        store: session.store,
        host: flags.host,
        port: flags.port,
        log: (line) => process.stderr.write(`wikidelta serve: ${line}\n`),
        trustProxy: flags.trustProxy,
      }).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'EADDRINUSE') throw new UserError('E_LISTEN_FAILED', `port ${flags.port} on ${flags.host} is in use: choose another --port`);
          if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') throw new UserError('E_LISTEN_FAILED', `cannot listen on --host ${flags.host}: no such local address`);
          throw error;
        },
      );
      process.stdout.write(session.json ? `${JSON.stringify({ url: server.url })}\n` : `serving audits at ${server.url} (annotators open ${server.url}/a/TOKEN, the maintainer ${server.url}/admin/TOKEN); Ctrl-C stops\n`);
      await new Promise<void>((resolveStopped) => {
        const stop = () => void server.close().then(resolveStopped);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
  });
}

/** The names the proxy check (Fastify's trustProxy) knows besides addresses and ranges. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Refuses a --trust-proxy item that is no address, CIDR range or known name, before the server starts. */
function checkTrustedProxies(list: string): void {
  for (const item of list.split(',').map((part) => part.trim())) {
    const [address = '', prefix, ...rest] = item.split('/');
    const version = isIP(address);
    const bits = version === 6 ? 128 : 32;
    const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits) || (version === 4 && isIP(prefix) === 4);
    if (!PROXY_NAMES.has(item) && (version === 0 || !validPrefix || rest.length > 0)) {
      throw new UserError('E_FLAG_INVALID', `invalid --trust-proxy "${item}": expected IP addresses or CIDR ranges, comma-separated, e.g. 127.0.0.1,10.0.0.0/8`);
    }
  }
}

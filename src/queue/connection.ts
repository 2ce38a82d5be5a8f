/**
 * The queue's address as given with `--queue redis://HOST:PORT[/DB]`, checked before anything is
 * queued: a wrong scheme is a usage error and an unreachable server one line, instead of a client
 * that retries forever in silence.
 */
import { connect } from 'node:net';
import { UserError } from '../errors.js';

/** The one BullMQ queue every job kind goes through; workers take every kind from it. */
export const QUEUE_NAME = 'wikidelta';

export interface QueueAddress {
  url: string;
  host: string;
  port: number;
}

export function parseQueueUrl(raw: string): QueueAddress {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UserError('E_FLAG_INVALID', `--queue ${raw}: not a URL (expected redis://HOST:PORT)`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new UserError('E_FLAG_INVALID', `--queue ${raw}: expected a redis:// or rediss:// URL`);
  const port = url.port === '' ? 6379 : Number(url.port);
  return { url: raw, host: url.hostname, port };
}

/** Resolves once the queue server accepts a connection; a UserError naming it when it does not within the time. */
export function requireReachable(address: QueueAddress, timeoutMs = 5000): Promise<void> {
  return new Promise((resolveReachable, reject) => {
    const socket = connect({ host: address.host, port: address.port });
    const fail = (reason: string) => {
      socket.destroy();
      reject(new UserError('E_QUEUE_UNREACHABLE', `cannot reach the queue at ${address.url}: ${reason}`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs / 1000} s`));
    socket.once('error', (error) => fail(error.message));
    socket.once('connect', () => {
      socket.end();
      resolveReachable();
    });
  });
}

/**
 * The queue's address as given with `--queue redis://HOST:PORT[/DB]`, checked before anything is
 * queued: a wrong scheme is a usage error and an unreachable server one line, instead of a client
 * that retries forever in silence.
 */
import { connect } from 'node:net';
import { oneLine, RemoteError, UserError } from '../errors.js';

/** The one BullMQ queue every job kind goes through; workers take every kind from it. */
export const QUEUE_NAME = 'wikidelta';

export interface QueueAddress {
  url: string;
  /** The URL as lines name it: its password, if any, as `***`. */
  shown: string;
  host: string;
  port: number;
  /** The database the path names (`/2`), when it names one. */
  db?: number;
  /** Of `redis://[USER]:PASSWORD@HOST`: what the server is asked to AUTH with. */
  username?: string;
  password?: string;
}

/**
 * `text` with the password of every redis:// URL in it as `***`: lines, logs and the lock's
 * command line are read by others than the one who typed the URL.
 */
export function hidingPasswords(text: string): string {
  return text.replace(/(rediss?:\/\/[^\s:@/]*:)[^\s@]*@/g, '$1***@');
}

export function parseQueueUrl(raw: string): QueueAddress {
  const shown = hidingPasswords(raw);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UserError('E_FLAG_INVALID', `--queue ${shown}: not a URL (expected redis://HOST:PORT)`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new UserError('E_FLAG_INVALID', `--queue ${shown}: expected a redis:// or rediss:// URL`);
  const port = url.port === '' ? 6379 : Number(url.port);
  // The path names a database by number or nothing: anything else would reach Redis as SELECT NaN.
  const path = /^\/?(\d*)$/.exec(url.pathname);
  if (!path || url.search !== '' || url.hash !== '') throw new UserError('E_FLAG_INVALID', `--queue ${shown}: expected redis://HOST:PORT or redis://HOST:PORT/DB with DB a number`);
  const address: QueueAddress = { url: raw, shown, host: url.hostname, port };
  if (path[1]) address.db = Number(path[1]);
  if (url.password !== '') address.password = decodeURIComponent(url.password);
  if (url.username !== '') address.username = decodeURIComponent(url.username);
  return address;
}

/** A command as Redis reads it (RESP): an array of bulk strings. */
function command(...words: string[]): string {
  return `*${words.length}\r\n${words.map((word) => `$${Buffer.byteLength(word)}\r\n${word}\r\n`).join('')}`;
}

/**
 * Resolves once the queue server answers as Redis does: it accepts a connection and, on redis://,
 * answers PING (after AUTH and SELECT when the URL asks for them). A UserError naming it otherwise:
 * refused, no answer within the time, an error of its own (a password it wants, a database it does
 * not have), or not Redis at all. A server that accepts the connection and then says nothing Redis
 * understands would otherwise leave the command and the workers waiting for ever in silence, and a
 * database that cannot be selected would have BullMQ use database 0 unasked.
 */
export function requireReachable(address: QueueAddress, timeoutMs = 5000): Promise<void> {
  return new Promise((resolveReachable, reject) => {
    const socket = connect({ host: address.host, port: address.port });
    const fail = (reason: string) => {
      socket.destroy();
      reject(new UserError('E_QUEUE_UNREACHABLE', `cannot reach the queue at ${address.shown}: ${reason}`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs / 1000} s`));
    socket.once('error', (error) => fail(error.message));
    // rediss:// speaks TLS: reaching the port is what is checked there.
    const tls = address.url.startsWith('rediss:');
    const commands: string[] = [];
    if (address.password !== undefined) commands.push(address.username !== undefined ? command('AUTH', address.username, address.password) : command('AUTH', address.password));
    if (address.db !== undefined) commands.push(command('SELECT', String(address.db)));
    commands.push(command('PING'));
    let replies = '';
    socket.once('connect', () => {
      if (tls) {
        socket.end();
        resolveReachable();
        return;
      }
      socket.write(commands.join(''));
    });
    socket.once('end', () => fail('the server closed the connection without answering'));
    socket.on('data', (chunk: Buffer) => {
      replies += chunk.toString('latin1');
      const lines = replies.split('\r\n');
      const complete = lines.slice(0, -1);
      for (const line of complete) {
        if (line.startsWith('-')) return fail(`the server answers ${JSON.stringify(line.slice(1).slice(0, 200))}`);
        if (!line.startsWith('+')) return fail(`not a Redis server (it answers ${JSON.stringify(line.slice(0, 80))})`);
      }
      if (complete.length === 0 && replies.length > 0 && !/^[+-]/.test(replies)) return fail(`not a Redis server (it answers ${JSON.stringify(replies.slice(0, 80))})`);
      if (complete.length >= commands.length) {
        socket.setTimeout(0);
        socket.removeAllListeners('end');
        socket.end();
        resolveReachable();
      }
    });
  });
}

/**
 * The one line of a command the queue server refused (Redis answered it with an error: full at its
 * `maxmemory`, a read-only replica, a password changed since the start): the server's state, not a
 * bug. Undefined for any other error.
 */
export function refusedByQueue(error: unknown, address: QueueAddress): RemoteError | undefined {
  if (!(error instanceof Error) || error.name !== 'ReplyError') return undefined;
  return new RemoteError('E_QUEUE_UNREACHABLE', `the queue at ${address.shown} refuses its commands: ${oneLine(error)}`);
}

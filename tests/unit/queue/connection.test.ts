/**
 * The queue's address is checked as Redis: a server that accepts the connection but is not Redis,
 * wants a password, or lacks the database the URL names is one line at once, not a command and
 * workers waiting for ever in silence (BullMQ's client waits for a Redis that never answers, and
 * goes on in database 0 when the one asked for cannot be selected).
 */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hidingPasswords, parseQueueUrl, requireReachable } from '../../../src/queue/connection.js';
import { withCode } from '../../support/errorCodes.js';

const servers: Server[] = [];

/** A server on loopback that answers every chunk it reads with `reply(chunk)` (nothing when undefined); the commands it read. */
async function fakeServer(reply: (received: string) => string | undefined): Promise<{ url: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((socket) => {
    socket.on('data', (chunk) => {
      received.push(chunk.toString());
      const answer = reply(chunk.toString());
      if (answer !== undefined) socket.write(answer);
    });
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolveListening) => server.listen(0, '127.0.0.1', () => resolveListening()));
  const address = server.address();
  return { url: `redis://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, received };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolveClosed) => server.close(() => resolveClosed()))));
});

/** What a Redis without a password and with 16 databases answers. */
function redisLike(received: string): string {
  const replies: string[] = [];
  for (const match of received.matchAll(/\*\d+\r\n\$\d+\r\n(\w+)\r\n(?:\$\d+\r\n(\w+)\r\n)?/g)) {
    if (match[1] === 'PING') replies.push('+PONG\r\n');
    else if (match[1] === 'SELECT') replies.push(Number(match[2]) < 16 ? '+OK\r\n' : '-ERR DB index is out of range\r\n');
    else replies.push(`-ERR unknown command '${match[1]}'\r\n`);
  }
  return replies.join('');
}

describe('queue address as Redis', () => {
  it('refuses a database path that is not a number before anything is sent', () => {
    expect(() => parseQueueUrl('redis://127.0.0.1:6379/x')).toThrow(withCode('E_FLAG_INVALID'));
    expect(parseQueueUrl('redis://127.0.0.1:6379/2')).toMatchObject({ db: 2 });
    expect(parseQueueUrl('redis://127.0.0.1:6379/')).toMatchObject({ port: 6379 });
  });

  it('never names a password in a line, while the address keeps it for the connection', async () => {
    expect(hidingPasswords('--db s.sqlite weekly --queue redis://jobs:s3cr%40t@10.0.0.5:6380/2 --start 2025-01-06')).toBe(
      '--db s.sqlite weekly --queue redis://jobs:***@10.0.0.5:6380/2 --start 2025-01-06',
    );
    expect(hidingPasswords('rediss://:pw@host')).toBe('rediss://:***@host');
    expect(hidingPasswords('redis://host:6379')).toBe('redis://host:6379');
    expect(() => parseQueueUrl('redis://:pw@host:6379/x')).toThrow(/--queue redis:\/\/:\*\*\*@host:6379\/x: expected/);
    const refused = await fakeServer(() => '-WRONGPASS invalid username-password pair\r\n');
    const address = parseQueueUrl(`redis://admin:hunter2@${refused.url.slice('redis://'.length)}`);
    expect(address.password).toBe('hunter2');
    const failure = await requireReachable(address, 2000).catch((error: unknown) => String(error));
    expect(failure).toMatch(/cannot reach the queue at redis:\/\/admin:\*\*\*@/);
    expect(failure).not.toContain('hunter2');
  });

  it('accepts a server that answers PING, in the database the URL names', async () => {
    const server = await fakeServer(redisLike);
    await expect(requireReachable(parseQueueUrl(`${server.url}/3`), 2000)).resolves.toBeUndefined();
    expect(server.received.join('')).toContain('SELECT\r\n$1\r\n3');
  });

  it('refuses at once a server that is not Redis, one that wants a password, and a database it does not have', async () => {
    const http = await fakeServer(() => 'HTTP/1.1 400 Bad Request\r\n\r\n');
    await expect(requireReachable(parseQueueUrl(http.url), 2000)).rejects.toThrow(withCode('E_QUEUE_UNREACHABLE', 'not a Redis server'));
    const locked = await fakeServer(() => '-NOAUTH Authentication required.\r\n');
    await expect(requireReachable(parseQueueUrl(locked.url), 2000)).rejects.toThrow(withCode('E_QUEUE_UNREACHABLE', 'NOAUTH'));
    const redis = await fakeServer(redisLike);
    await expect(requireReachable(parseQueueUrl(`${redis.url}/99`), 2000)).rejects.toThrow(withCode('E_QUEUE_UNREACHABLE', 'DB index is out of range'));
  });

  it('refuses a server that accepts the connection and never answers, within the time', async () => {
    const silent = await fakeServer(() => undefined);
    await expect(requireReachable(parseQueueUrl(silent.url), 500)).rejects.toThrow(withCode('E_QUEUE_UNREACHABLE', 'no answer within'));
  });

  it('sends the password of the URL', async () => {
    const server = await fakeServer((received) => (received.includes('AUTH') ? '+OK\r\n+PONG\r\n' : '-NOAUTH Authentication required.\r\n'));
    await expect(requireReachable(parseQueueUrl(server.url.replace('redis://', 'redis://:s%40cret@')), 2000)).resolves.toBeUndefined();
    expect(server.received.join('')).toContain('AUTH\r\n$6\r\ns@cret');
  });
});

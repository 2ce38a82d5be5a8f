/**
 * A real redis-server for the queue's tests and benchmark: on loopback, a free port, no persistence,
 * in its own temporary directory, stopped with the test; it can be restarted empty, as a Redis
 * without persistence comes back after a crash.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  url: string;
  /** Runs a redis-cli command against this server, for a test to look into or tamper with the queue; its output, trimmed. */
  cli(...args: string[]): string;
  /** Stops the server and starts it again on the same port without its data, as after a restart with no persistence. */
  restartEmpty(): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('error', () => resolveAnswer(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.end();
      resolveAnswer(data.toString().startsWith('+PONG'));
    });
  });
}

/** redis-server on `port`, with no persistence, in `dir`; resolves once it answers. */
async function spawnRedis(port: number, dir: string): Promise<{ process: ChildProcess; exited: Promise<void> }> {
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolveExit) => server.once('exit', () => resolveExit()));
  for (let attempt = 0; !(await answers(port)); attempt++) {
    if (server.exitCode !== null || attempt > 100) throw new Error(`redis-server did not start: ${stderr}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  return { process: server, exited };
}

export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wikidelta-redis-'));
  const port = await freePort();
  let current = await spawnRedis(port, dir);
  const stop = async () => {
    if (current.process.exitCode === null) current.process.kill('SIGTERM');
    await current.exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    cli: (...args) => spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim(),
    async restartEmpty() {
      await stop();
      current = await spawnRedis(port, dir);
    },
    async stop() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

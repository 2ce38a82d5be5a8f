/**
 * `wikidelta serve` as a user runs it: the built command on a store made through AuditStore,
 * printing its URL, serving a judgment, and stopping cleanly on SIGTERM with the judgment kept.
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/serve/security.js';
import { Store } from '../../src/store/store.js';
import { seedAudit } from '../../testkit/auditFixture.js';
import { collect, runCli, startCli, tempDir, waitForOutput } from '../../testkit/cli.js';

function seededStore() {
  const path = join(tempDir('wikidelta-serve-cli-'), 'store.sqlite');
  const store = Store.open(path);
  const seeded = seedAudit(store, { annotators: ['alice'] });
  store.close();
  return { path, seeded };
}

describe('wikidelta serve', () => {
  it('prints its URL, serves the API and stops on SIGTERM with the judgment stored', async () => {
    const { path, seeded } = seededStore();
    const child = startCli(['--db', path, 'serve', '--port', '0']);
    const result = collect(child);
    const printed = await waitForOutput(child, 'stdout', /\n/);
    const url = /^serving audits at (http:\/\/127\.0\.0\.1:\d+) /.exec(printed)?.[1];
    expect(url, printed).toBeDefined();
    const posted = await fetch(`${url}/api/judgments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${seeded.tokens.alice}` },
      body: JSON.stringify({ item: seeded.items[0]!.id, verdict: 'correct', seconds: 2 }),
    });
    expect(posted.status).toBe(201);
    child.kill('SIGTERM');
    const ended = await result;
    expect([ended.code, ended.stderr]).toEqual([0, '']);
    const store = Store.open(path);
    expect(store.audits.judgments(seeded.audit.id).map((row) => row.verdict)).toEqual(['correct']);
    store.close();
  });

  it('behind --trust-proxy, counts failed links per client the proxy names, and logs the scan once', async () => {
    const { path, seeded } = seededStore();
    const child = startCli(['--db', path, 'serve', '--port', '0', '--trust-proxy', '127.0.0.1']);
    const result = collect(child);
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(await waitForOutput(child, 'stdout', /\n/))?.[1];
    const from = async (client: string, token: string) => (await fetch(`${url}/api/next`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': client } })).status;
    for (let attempt = 0; attempt < 10; attempt++) expect(await from('203.0.113.5', `guess-${attempt}`)).toBe(401);
    expect(await from('203.0.113.5', 'guess-last')).toBe(429);
    expect(await from('203.0.113.9', 'another-guess')).toBe(401);
    expect(await from('203.0.113.5', seeded.tokens.alice!)).toBe(200);
    child.kill('SIGTERM');
    const ended = await result;
    expect([ended.code, ended.stderr]).toEqual([0, 'wikidelta serve: too many failed token attempts from 203.0.113.5: its further failures get 429\n']);
  });

  it('ends with one line for a port in use and for a store that does not exist', async () => {
    const { path } = seededStore();
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as { port: number }).port;
    const busy = await runCli(['--db', path, 'serve', '--port', String(port)]);
    taken.close();
    expect([busy.code, busy.stderr]).toEqual([1, `wikidelta: E_LISTEN_FAILED: port ${port} on 127.0.0.1 is in use: choose another --port\n`]);
    const missing = await runCli(['--db', join(tempDir(), 'none.sqlite'), 'serve']);
    expect(missing.code).toBe(1);
    expect(missing.errorCode).toBe('E_STORE_MISSING');
    const badPort = await runCli(['--db', path, 'serve', '--port', '70000']);
    expect([badPort.code, badPort.errorCode]).toEqual([1, 'E_FLAG_INVALID']);
    for (const proxies of ['garbage', '127.0.0.1,', '10.0.0.0/33', '::1/129']) {
      const badProxy = await runCli(['--db', path, 'serve', '--port', '0', '--trust-proxy', proxies]);
      expect([badProxy.code, badProxy.errorCode], proxies).toEqual([1, 'E_FLAG_INVALID']);
    }
  });

  it('knows which hosts are loopback, the others being warned about', () => {
    expect(['127.0.0.1', '127.8.0.1', '::1', '[::1]', 'localhost'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.5', 'example.org'].some(isLoopback)).toBe(false);
  });
});

/**
 * The audit server's JSON API over real HTTP on loopback, on a real SQLite store: who may do what
 * (401, 403, 400 with a message), the cross-site and size guards, the rate limit on failed tokens,
 * blindness between annotators, and that concurrent posts and a restart lose no judgment.
 */
import type { Database } from 'better-sqlite3';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditStore } from '../../src/store/auditStore.js';
import { openDatabase } from '../../src/store/database.js';
import { startAuditServer, type AuditServer } from '../../src/serve/server.js';
import { seedAudit, type SeededAudit } from '../../testkit/auditFixture.js';
import { tempDir } from '../../testkit/cli.js';

interface Running {
  db: Database;
  path: string;
  server: AuditServer;
  seeded: SeededAudit;
}

const running: Running[] = [];

async function start(annotators = ['alice', 'bob']): Promise<Running> {
  const path = join(tempDir('wikidelta-serve-'), 'store.sqlite');
  const db = openDatabase(path);
  const seeded = seedAudit(db, { annotators });
  const server = await startAuditServer({ db, host: '127.0.0.1', port: 0 });
  const run = { db, path, server, seeded };
  running.push(run);
  return run;
}

afterEach(async () => {
  for (const run of running.splice(0)) {
    await run.server.close();
    run.db.close();
  }
});

function api(run: Running, path: string, init: { token?: string | null; method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  return fetch(`${run.server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
}

const judge = (run: Running, token: string, body: unknown, headers: Record<string, string> = {}) => api(run, '/api/judgments', { token, body, headers });

describe('audit server API', () => {
  it('answers 401 without a valid token, on the API and the pages', async () => {
    const run = await start();
    const missing = await api(run, '/api/next');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await missing.json()).toEqual({ error: 'missing token: send Authorization: Bearer TOKEN' });
    expect((await api(run, '/api/next', { token: 'not-a-token' })).status).toBe(401);
    expect((await judge(run, 'x'.repeat(43), { item: 1, verdict: 'correct' })).status).toBe(401);
    const page = await api(run, '/a/not-a-token');
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('This audit link is not valid');
    expect((await api(run, `/a/${run.seeded.tokens.alice}`)).status).toBe(200);
  });

  it('answers 403 for an item not assigned, and for admin routes with an annotator token', async () => {
    const run = await start();
    const store = new AuditStore(run.db);
    const other = seedAudit(run.db, { name: 'other', annotators: ['carol'] });
    const foreign = other.items[0]!.id;
    const alice = run.seeded.tokens.alice!;
    expect((await api(run, `/api/items/${foreign}`, { token: alice })).status).toBe(403);
    expect((await api(run, '/api/items/999999', { token: alice })).status).toBe(403);
    const refused = await judge(run, alice, { item: foreign, verdict: 'correct' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: `item ${foreign} is not assigned to you` });
    expect(store.judgments(other.audit.id)).toEqual([]);
    expect((await api(run, `/a/${alice}?item=${foreign}`)).status).toBe(403);
    expect((await api(run, '/api/admin/report', { token: alice })).status).toBe(403);
    expect((await api(run, `/admin/${alice}`)).status).toBe(403);
    expect((await api(run, '/api/admin/progress', { token: run.seeded.adminToken })).status).toBe(200);
    expect((await api(run, `/a/${run.seeded.adminToken}`)).status).toBe(403);
  });

  it('answers 400 with a message for a bad body, 413 for a large one, 415 for one not JSON', async () => {
    const run = await start();
    const alice = run.seeded.tokens.alice!;
    const [label, qa] = [run.seeded.items[0]!.id, run.seeded.items[2]!.id];
    const cases: Array<[unknown, RegExp]> = [
      [{ item: label }, /verdict: Invalid option/],
      [{ item: label, verdict: 'maybe' }, /verdict: Invalid option: expected one of "correct"\|"debatable"\|"wrong"/],
      [{ item: 'one', verdict: 'correct' }, /item: Invalid input: expected number/],
      [{ item: label, verdict: 'correct', extra: 1 }, /Unrecognized key: "extra"/],
      [{ item: label, verdict: 'correct', label: 'new' }, /give them only with verdict "wrong"/],
      [{ item: qa, verdict: 'wrong', label: 'new' }, /label applies to sentence-label items/],
      [{ item: label, verdict: 'wrong', answer: 'Jane' }, /takes a label, not an answer/],
      [{ item: label, verdict: 'wrong', label: 'rewritten' }, /label must be one of unchanged, changed, new, undecided/],
      [{ item: label, verdict: 'correct', seconds: -1 }, /seconds: Too small/],
      ['{"item": 1,', /JSON/],
    ];
    for (const [body, message] of cases) {
      const response = await judge(run, alice, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(message);
    }
    expect((await api(run, '/api/items/abc', { token: alice })).status).toBe(400);
    expect((await judge(run, alice, { item: label, verdict: 'correct', note: 'x'.repeat(20_000) })).status).toBe(413);
    expect((await judge(run, alice, JSON.stringify({ item: label, verdict: 'correct' }), { 'content-type': 'text/plain' })).status).toBe(415);
    expect(new AuditStore(run.db).judgments(run.seeded.audit.id)).toEqual([]);
  });

  it('refuses a cross-site POST and takes a same-origin one', async () => {
    const run = await start();
    const alice = run.seeded.tokens.alice!;
    const item = run.seeded.items[0]!.id;
    const crossSite = await judge(run, alice, { item, verdict: 'wrong', label: 'new' }, { origin: 'http://evil.example' });
    expect(crossSite.status).toBe(403);
    expect((await judge(run, alice, { item, verdict: 'correct' }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(new AuditStore(run.db).judgments(run.seeded.audit.id)).toEqual([]);
    expect((await judge(run, alice, { item, verdict: 'correct' }, { origin: run.server.url })).status).toBe(201);
  });

  it('answers only requests addressed to loopback, so a name rebound to 127.0.0.1 gets nothing', async () => {
    const run = await start();
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const sent = request(`${run.server.url}/a/${run.seeded.tokens.alice}`, { headers: { host } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        sent.on('error', reject);
        sent.end();
      });
    const port = new URL(run.server.url).port;
    expect(await status(`evil.example:${port}`)).toBe(403);
    expect(await status(`localhost:${port}`)).toBe(200);
    expect(await status(`127.0.0.1:${port}`)).toBe(200);
  });

  it('sends the security headers on pages, assets and the API', async () => {
    const run = await start();
    for (const path of [`/a/${run.seeded.tokens.alice}`, '/assets/annotator.js', '/api/next', '/nowhere']) {
      const response = await api(run, path, { token: run.seeded.tokens.alice });
      expect(response.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('keeps verdicts blind between annotators and appends a changed verdict', async () => {
    const run = await start();
    const [alice, bob] = [run.seeded.tokens.alice!, run.seeded.tokens.bob!];
    const item = run.seeded.items[2]!.id;
    expect((await judge(run, alice, { item, verdict: 'wrong', answer: '9,800', note: 'old figure', seconds: 12.5 })).status).toBe(201);
    expect((await judge(run, alice, { item, verdict: 'debatable', seconds: 3 })).status).toBe(201);
    const own = (await (await api(run, `/api/items/${item}`, { token: alice })).json()) as { judgment: { verdict: string; seconds: number } };
    expect(own.judgment).toMatchObject({ verdict: 'debatable', seconds: 3 });
    const theirs = (await (await api(run, `/api/items/${item}`, { token: bob })).json()) as { judgment: unknown };
    expect(theirs.judgment).toBeNull();
    const list = (await (await api(run, '/api/items', { token: bob })).json()) as { items: Array<{ judged: boolean; verdict: unknown }> };
    expect(list.items.every((entry) => !entry.judged && entry.verdict === null)).toBe(true);
    expect((await api(run, `/a/${bob}?item=${item}`).then((response) => response.text()))).not.toContain('debatable</strong>');
    const rows = new AuditStore(run.db).judgments(run.seeded.audit.id);
    expect(rows.map((row) => [row.verdict, row.answer, row.note, row.seconds])).toEqual([
      ['wrong', '9,800', 'old figure', 12.5],
      ['debatable', null, null, 3],
    ]);
    const next = (await (await api(run, '/api/next', { token: alice })).json()) as { position: number; judged: number; item: { id: number } };
    expect(next).toMatchObject({ position: 1, judged: 1, item: { id: run.seeded.items[0]!.id } });
  });

  it('shows what another process wrote to the store at once, and its own posts on the next request', async () => {
    const run = await start(['alice']);
    const alice = run.seeded.tokens.alice!;
    const next = async () => ((await (await api(run, '/api/next', { token: alice })).json()) as { judged: number; total: number; item: { id: number } | null });
    expect(await next()).toMatchObject({ judged: 0, total: run.seeded.items.length, item: { id: run.seeded.items[0]!.id } });
    expect((await judge(run, alice, { item: run.seeded.items[0]!.id, verdict: 'correct' })).status).toBe(201);
    expect(await next()).toMatchObject({ judged: 1, item: { id: run.seeded.items[1]!.id } });

    // Another connection, as \`audit add\` or a second server would hold: a judgment and a new item.
    const other = openDatabase(run.path);
    try {
      const store = new AuditStore(other);
      const annotator = store.annotators(run.seeded.audit.id).find((entry) => entry.name === 'alice')!;
      store.addJudgment({ itemId: run.seeded.items[1]!.id, annotatorId: annotator.id, verdict: 'wrong', label: null, answer: 'x', note: null, seconds: null, createdAt: '2024-03-11T00:00:00Z' });
      const [added] = store.addItems(run.seeded.audit.id, [{ key: 'added-later', stratum: 'NEW', content: run.seeded.items[0]!.content }]);
      store.assign([{ itemId: added!.id, annotatorId: annotator.id }]);
    } finally {
      other.close();
    }
    expect(await next()).toMatchObject({ judged: 2, total: run.seeded.items.length + 1, item: { id: run.seeded.items[2]!.id } });
  });

  it('loses nothing when 20 clients post at once, nor across a restart', async () => {
    const names = Array.from({ length: 20 }, (_, index) => `annotator${index + 1}`);
    const run = await start(names);
    const items = run.seeded.items.map((item) => item.id);
    const verdicts = ['correct', 'debatable', 'wrong'] as const;
    const responses = await Promise.all(
      names.flatMap((name, client) =>
        items.map((item, index) => judge(run, run.seeded.tokens[name]!, { item, verdict: verdicts[(client + index) % 3], seconds: index })),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 201));
    const store = new AuditStore(run.db);
    expect(store.judgments(run.seeded.audit.id)).toHaveLength(names.length * items.length);
    const progress = await (await api(run, '/api/admin/progress', { token: run.seeded.adminToken })).json();
    expect(progress).toEqual({ audit: 'pages', progress: names.map((annotator) => ({ annotator, assigned: items.length, judged: items.length })) });

    await run.server.close();
    run.db.close();
    const db = openDatabase(run.path);
    const server = await startAuditServer({ db, host: '127.0.0.1', port: 0 });
    running.push({ ...run, db, server });
    const after = running.at(-1)!;
    expect(new AuditStore(db).judgments(run.seeded.audit.id)).toHaveLength(names.length * items.length);
    const next = (await (await api(after, '/api/next', { token: run.seeded.tokens.annotator1 })).json()) as { judged: number; item: unknown };
    expect(next).toMatchObject({ judged: items.length, item: null });
  });

  it('answers 429 to an address after ten failed tokens, a valid token included, with Retry-After', async () => {
    const run = await start();
    for (let attempt = 0; attempt < 10; attempt++) expect((await api(run, '/api/next', { token: `guess${attempt}` })).status).toBe(401);
    const blocked = await api(run, '/api/next', { token: run.seeded.tokens.alice });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api(run, `/a/${run.seeded.tokens.alice}`)).status).toBe(429);
  });
});

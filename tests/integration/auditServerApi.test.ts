/**
 * The audit server's JSON API over real HTTP on loopback, on a real SQLite store: who may do what
 * (401, 403, 400 with a message), the cross-site, Host and size guards, the limits on failed tokens
 * (per address and per token prefix, never against a valid token), withdrawals and skips, writes
 * from a stale version refused (409) while writes without one still go through, blindness
 * between annotators, and that concurrent posts and a restart lose no judgment.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAuditServer, type AuditServer } from '../../src/serve/server.js';
import { Store } from '../../src/store/store.js';
import { correctionOf, seedAudit, type SeededAudit } from '../../testkit/auditFixture.js';
import { repoRoot, tempDir } from '../../testkit/cli.js';

interface Running {
  store: Store;
  path: string;
  server: AuditServer;
  seeded: SeededAudit;
}

const running: Running[] = [];

async function start(annotators = ['alice', 'bob'], options: { trustProxy?: string; log?: (line: string) => void } = {}): Promise<Running> {
  const path = join(tempDir('wikidelta-serve-'), 'store.sqlite');
  const store = Store.open(path);
  const seeded = seedAudit(store, { annotators });
  const server = await startAuditServer({ store, host: '127.0.0.1', port: 0, ...options });
  const run = { store, path, server, seeded };
  running.push(run);
  return run;
}

afterEach(async () => {
  for (const run of running.splice(0)) {
    await run.server.close();
    run.store.close();
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

/** The status of a GET sent from a chosen loopback source address: all of 127/8 reaches the server. */
function statusFrom(run: Running, path: string, token: string, from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(`${run.server.url}${path}`, { headers: { authorization: `Bearer ${token}` }, localAddress: from }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    sent.on('error', reject);
    sent.end();
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
    const store = run.store.audits;
    const other = seedAudit(run.store, { name: 'other', annotators: ['carol'] });
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
      [{ item: qa, verdict: 'wrong', label: 'new' }, /label applies to items with a proposed label/],
      [{ item: label, verdict: 'wrong', answer: 'Jane' }, /takes a label, not an answer/],
      [{ item: label, verdict: 'wrong', label: 'rewritten' }, /label must be one of unchanged, changed, new, undecided/],
      [{ item: label, verdict: 'wrong' }, /a wrong label needs the right one: give label \(one of unchanged, new, undecided\)/],
      [{ item: label, verdict: 'wrong', label: 'changed' }, /label changed is the proposed one/],
      [{ item: label, verdict: 'correct', seconds: -1 }, /seconds: Too small/],
      [{ item: label, verdict: 'correct', note: 'a\u0000b' }, /note: contains a NUL character/],
      ['{"item": 1, "verdict": "correct", "note": "half \\ud800 a pair"}', /note: contains a lone surrogate/],
      [`{"item": ${qa}, "verdict": "wrong", "answer": "\\udc00"}`, /answer: contains a lone surrogate/],
      ['{"item": 1,', /^the body is not valid JSON: /],
      ['', /^the body is empty: send a JSON object$/],
      // Valid JSON, refused by name rather than called invalid.
      [`{"item": ${label}, "verdict": "correct", "__proto__": {"admin": true}}`, /^the body holds the key "__proto__", which is refused$/],
      [`{"item": ${label}, "verdict": "correct", "note": "x", "extra": [{"constructor": {"prototype": {"admin": true}}}]}`, /^the body holds the key "constructor.prototype", which is refused$/],
    ];
    for (const [body, message] of cases) {
      const response = await judge(run, alice, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(message);
    }
    expect((await api(run, '/api/items/abc', { token: alice })).status).toBe(400);
    expect((await judge(run, alice, { item: label, verdict: 'correct', note: 'x'.repeat(20_000) })).status).toBe(413);
    expect((await judge(run, alice, JSON.stringify({ item: label, verdict: 'correct' }), { 'content-type': 'text/plain' })).status).toBe(415);
    expect(run.store.audits.judgments(run.seeded.audit.id)).toEqual([]);
    // A whole pair of surrogates is text like any other, and is kept.
    expect((await judge(run, alice, { item: label, verdict: 'correct', note: 'checked 👍' })).status).toBe(201);
    expect(run.store.audits.judgments(run.seeded.audit.id).map((row) => row.note)).toEqual(['checked 👍']);
  });

  it('stores the seconds of a page left open for days as a day, instead of refusing the verdict', async () => {
    const run = await start();
    const item = run.seeded.items[1]!.id;
    const response = await judge(run, run.seeded.tokens.alice!, { item, verdict: 'correct', seconds: 3 * 86_400 + 5 });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { judgment: { seconds: number } }).judgment.seconds).toBe(86_400);
    expect(run.store.audits.judgments(run.seeded.audit.id).map((row) => row.seconds)).toEqual([86_400]);
  });

  it('refuses a request with two Host headers', async () => {
    const run = await start();
    const { port } = new URL(run.server.url);
    const answer = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(`${head}Connection: close\r\n\r\n`));
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const twice = await answer(`GET /a/${run.seeded.tokens.alice} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\n`);
    expect(twice).toMatch(/^HTTP\/1\.1 400 /);
    expect(twice).toContain('{"error":"2 Host headers: send one"}');
    expect(await answer(`GET /a/${run.seeded.tokens.alice} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('withdraws a verdict as an appended row: the item is unjudged again and the report forgets it', async () => {
    const run = await start();
    const [alice, bob] = [run.seeded.tokens.alice!, run.seeded.tokens.bob!];
    const [first, second] = run.seeded.items.map((item) => item.id) as [number, number];
    const report = async () => (await (await api(run, '/api/admin/report', { token: run.seeded.adminToken })).json()) as { n_judgments: number; annotators: Array<{ name: string; judged: number }> };
    expect((await judge(run, alice, { item: first, verdict: 'correct', seconds: 2 })).status).toBe(201);
    expect((await judge(run, alice, { item: second, verdict: 'debatable', seconds: 2 })).status).toBe(201);
    expect((await report()).n_judgments).toBe(2);

    const withdrawn = await api(run, `/api/judgments/${first}`, { token: alice, method: 'DELETE' });
    expect(withdrawn.status).toBe(200);
    expect(await withdrawn.json()).toMatchObject({ item: first, judged: false, withdrawn: { verdict: 'correct' } });
    expect((await report()).n_judgments).toBe(1);
    expect((await report()).annotators.find((entry) => entry.name === 'alice')?.judged).toBe(1);
    const next = (await (await api(run, '/api/next', { token: alice })).json()) as { judged: number; position: number; item: { id: number } };
    expect(next).toMatchObject({ judged: 1, position: 1, item: { id: first } });
    expect(await (await api(run, `/api/items/${first}`, { token: alice })).json()).toMatchObject({ judgment: null, withdrawn: { verdict: 'correct' } });
    expect(await api(run, `/a/${alice}?item=${first}`).then((response) => response.text())).toContain('You withdrew your verdict <strong>correct</strong>');

    const again = await api(run, `/api/judgments/${first}`, { token: alice, method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: `item ${first} has no verdict of yours to withdraw` });
    expect((await api(run, `/api/judgments/${first}`, { token: bob, method: 'DELETE' })).status).toBe(404);
    expect((await api(run, '/api/judgments/999999', { token: alice, method: 'DELETE' })).status).toBe(403);
    expect((await api(run, '/api/judgments/abc', { token: alice, method: 'DELETE' })).status).toBe(400);
    expect((await api(run, `/api/judgments/${second}`, { token: alice, method: 'DELETE', headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await api(run, `/api/judgments/${second}`, { token: 'not-a-token', method: 'DELETE' })).status).toBe(401);

    const rows = run.store.audits.judgments(run.seeded.audit.id);
    expect(rows.map((row) => [row.itemId, row.verdict, row.withdrawn])).toEqual([[first, 'correct', false], [second, 'debatable', false], [first, 'correct', true]]);
    expect((await judge(run, alice, { item: first, verdict: 'wrong', answer: 'x' })).status).toBe(400);
    expect((await judge(run, alice, { item: first, verdict: 'wrong', label: 'new' })).status).toBe(201);
    expect((await report()).n_judgments).toBe(2);
  });

  it('refuses a verdict or withdrawal sent from a stale version with 409 and the verdict as it stands; without a version the latest wins', async () => {
    const run = await start();
    const alice = run.seeded.tokens.alice!;
    const [item, other] = run.seeded.items.map((entry) => entry.id) as [number, number];
    const shown = async (id: number) => ((await (await api(run, `/api/items/${id}`, { token: alice })).json()) as { version: number }).version;
    // Two tabs load the item while it is unjudged: both were shown version 0.
    expect(await shown(item)).toBe(0);
    const first = await judge(run, alice, { item, verdict: 'correct', version: 0 });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ verdict: 'correct', version: 1 });

    // The second tab's verdict would replace the first unawares: refused, with the first to show.
    const stale = await judge(run, alice, { item, verdict: 'wrong', label: 'new', note: 'from the old tab', version: 0 });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({
      error: `your verdict on item ${item} changed since version 0 (in another tab or session): it is now correct, version 1; send version 1 to replace it`,
      item,
      version: 1,
      judgment: expect.objectContaining({ verdict: 'correct', label: null, note: null }),
      withdrawn: null,
      // The counter a stale page shows moved too: it follows the server's.
      progress: { total: 7, judged: 1, skipped: 0 },
    });
    const verdicts = () => run.store.audits.judgments(run.seeded.audit.id).map((row) => [row.itemId, row.verdict, row.withdrawn]);
    expect(verdicts()).toEqual([[item, 'correct', false]]);
    // Confirmed with the version it was told: replaced on purpose.
    expect(await (await judge(run, alice, { item, verdict: 'wrong', label: 'new', version: 1 })).json()).toMatchObject({ verdict: 'wrong', version: 2 });

    // A withdrawal names the version too: a stale tab takes back nothing it did not show.
    const staleWithdrawal = await api(run, `/api/judgments/${item}?version=1`, { token: alice, method: 'DELETE' });
    expect(staleWithdrawal.status).toBe(409);
    expect(await staleWithdrawal.json()).toMatchObject({ item, version: 2, judgment: { verdict: 'wrong', label: 'new' }, withdrawn: null });
    expect(await (await api(run, `/api/judgments/${item}?version=2`, { token: alice, method: 'DELETE' })).json()).toMatchObject({ judged: false, version: 3 });
    // Withdrawn meanwhile: a verdict from version 2 is told so, and the lists show the version.
    expect(await (await judge(run, alice, { item, verdict: 'debatable', version: 2 })).json()).toMatchObject({ version: 3, judgment: null, withdrawn: { verdict: 'wrong' } });
    expect(await shown(item)).toBe(3);
    const listed = (await (await api(run, '/api/items', { token: alice })).json()) as { items: Array<{ id: number; version: number }> };
    expect(listed.items.slice(0, 2)).toEqual([expect.objectContaining({ id: item, version: 3 }), expect.objectContaining({ id: other, version: 0 })]);
    expect(await (await api(run, '/api/next', { token: alice })).json()).toMatchObject({ item: { id: item }, version: 3 });
    expect((await api(run, `/api/judgments/${item}?version=x`, { token: alice, method: 'DELETE' })).status).toBe(400);
    expect((await judge(run, alice, { item, verdict: 'correct', version: -1 })).status).toBe(400);

    // Scripts that send no version keep working: the latest verdict wins, as before.
    expect((await judge(run, alice, { item: other, verdict: 'correct' })).status).toBe(201);
    expect(await (await judge(run, alice, { item: other, verdict: 'debatable' })).json()).toMatchObject({ verdict: 'debatable', version: 2 });
    expect((await api(run, `/api/judgments/${other}`, { token: alice, method: 'DELETE' })).status).toBe(200);
    expect(verdicts().slice(-3)).toEqual([[other, 'correct', false], [other, 'debatable', false], [other, 'debatable', true]]);
  });

  it("refuses the withdrawal of the last verdict from a page whose item, shown unjudged, was judged since: that verdict is what u meant", async () => {
    const run = await start(['alice']);
    const alice = run.seeded.tokens.alice!;
    const [last, shown, other] = run.seeded.items.map((entry) => entry.id) as [number, number, number];
    const verdicts = () => run.store.audits.judgments(run.seeded.audit.id).map((row) => [row.itemId, row.verdict, row.withdrawn]);
    expect((await judge(run, alice, { item: last, verdict: 'correct' })).status).toBe(201);
    // A page shows `shown` unjudged (version 0), its u meaning the verdict on `last`; another tab judges `shown`.
    expect((await judge(run, alice, { item: shown, verdict: 'debatable', version: 0 })).status).toBe(201);
    const stale = await api(run, `/api/judgments/${last}?version=1&shown=${shown}&shown_version=0`, { token: alice, method: 'DELETE' });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({
      error: `your verdict on item ${shown} changed since version 0 (in another tab or session): it is now debatable, version 1; send shown_version 1 to withdraw your verdict on item ${last} all the same`,
      item: shown,
      version: 1,
      judgment: expect.objectContaining({ verdict: 'debatable' }),
      withdrawn: null,
      progress: { total: 7, judged: 2, skipped: 0 },
    });
    expect(verdicts()).toEqual([[last, 'correct', false], [shown, 'debatable', false]]);
    // Told, the page may withdraw it all the same; an unchanged item shown lets the withdrawal through.
    expect(await (await api(run, `/api/judgments/${last}?version=1&shown=${shown}&shown_version=1`, { token: alice, method: 'DELETE' })).json()).toMatchObject({ item: last, judged: false, version: 2 });
    expect(verdicts().at(-1)).toEqual([last, 'correct', true]);
    expect((await api(run, `/api/judgments/${shown}?version=1&shown=${other}`, { token: alice, method: 'DELETE' })).status).toBe(400);
    expect((await api(run, `/api/judgments/${shown}?version=1&shown=999999&shown_version=0`, { token: alice, method: 'DELETE' })).status).toBe(403);
    expect(verdicts()).toHaveLength(3);
  });

  it('skips an item to the end of the queue, lists it as skipped, and refuses to skip a judged one', async () => {
    const run = await start(['alice']);
    const alice = run.seeded.tokens.alice!;
    const ids = run.seeded.items.map((item) => item.id);
    const next = async () => ((await (await api(run, '/api/next', { token: alice })).json()) as { item: { id: number } | null }).item?.id ?? null;
    const skip = (item: number) => api(run, '/api/skips', { token: alice, body: { item } });
    expect((await skip(ids[0]!)).status).toBe(201);
    expect((await skip(ids[1]!)).status).toBe(201);
    expect(await next()).toBe(ids[2]);
    const listed = (await (await api(run, '/api/items', { token: alice })).json()) as { items: Array<{ id: number; title: string; state: string; position: number }> };
    expect(listed.items.map((entry) => entry.state)).toEqual(['skipped', 'skipped', 'todo', 'todo', 'todo', 'todo', 'todo']);
    expect(listed.items[0]).toMatchObject({ position: 1, title: 'Riverton <script>alert(1)</script>' });
    for (const item of ids.slice(2)) expect((await judge(run, alice, { item, verdict: 'correct' })).status).toBe(201);
    // Only skipped items are left: the first skipped comes first.
    expect(await next()).toBe(ids[0]);
    const refused = await skip(ids[2]!);
    expect(refused.status).toBe(409);
    // With the verdict standing, as a refused verdict has it: a page that showed the item unjudged shows it.
    const standing = (await refused.json()) as { error: string };
    expect(standing.error).toMatch(/is judged: withdraw the verdict/);
    expect(standing).toMatchObject({ item: ids[2], version: 1, judgment: { verdict: 'correct' }, withdrawn: null });
    expect((await skip(999_999)).status).toBe(403);
    expect((await api(run, '/api/skips', { token: alice, body: { item: ids[0], extra: 1 } })).status).toBe(400);
    expect((await judge(run, alice, { item: ids[0], verdict: 'debatable' })).status).toBe(201);
    expect(await next()).toBe(ids[1]);
  });

  it('refuses a cross-site POST and takes a same-origin one', async () => {
    const run = await start();
    const alice = run.seeded.tokens.alice!;
    const item = run.seeded.items[0]!.id;
    const crossSite = await judge(run, alice, { item, verdict: 'wrong', label: 'new' }, { origin: 'http://evil.example' });
    expect(crossSite.status).toBe(403);
    expect((await judge(run, alice, { item, verdict: 'correct' }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(run.store.audits.judgments(run.seeded.audit.id)).toEqual([]);
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
    const rows = run.store.audits.judgments(run.seeded.audit.id);
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
    const other = Store.open(run.path);
    try {
      const store = other.audits;
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
        run.seeded.items.map((item, index) => {
          const verdict = verdicts[(client + index) % 3];
          return judge(run, run.seeded.tokens[name]!, { item: item.id, verdict, seconds: index, ...(verdict === 'wrong' ? correctionOf(item.content) : {}) });
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 201));
    const store = run.store.audits;
    expect(store.judgments(run.seeded.audit.id)).toHaveLength(names.length * items.length);
    const progress = await (await api(run, '/api/admin/progress', { token: run.seeded.adminToken })).json();
    expect(progress).toEqual({ audit: 'pages', progress: names.map((annotator) => ({ annotator, assigned: items.length, judged: items.length })) });

    await run.server.close();
    run.store.close();
    const reopened = Store.open(run.path);
    const server = await startAuditServer({ store: reopened, host: '127.0.0.1', port: 0 });
    running.push({ ...run, store: reopened, server });
    const after = running.at(-1)!;
    expect(reopened.audits.judgments(run.seeded.audit.id)).toHaveLength(names.length * items.length);
    const next = (await (await api(after, '/api/next', { token: run.seeded.tokens.annotator1 })).json()) as { judged: number; item: unknown };
    expect(next).toMatchObject({ judged: items.length, item: null });
  });

  it('answers 429 to an address past ten failed tokens, but never to a valid token or to a request without one', async () => {
    const lines: string[] = [];
    const run = await start(['alice', 'bob'], { log: (line) => lines.push(line) });
    for (let attempt = 0; attempt < 20; attempt++) expect((await api(run, '/api/next')).status).toBe(401);
    for (let attempt = 0; attempt < 10; attempt++) expect((await api(run, '/api/next', { token: `guess${attempt}-${'x'.repeat(30)}` })).status).toBe(401);
    const blocked = await api(run, '/api/next', { token: 'one-more-guess' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await blocked.json()) as { error: string }).error).toMatch(/^too many failed token attempts from 127\.0\.0\.1; check the link and try again in \d+ s$/);
    expect(lines).toEqual(['too many failed token attempts from 127.0.0.1: its further failures get 429']);
    // Everyone else on this address (every loopback user, everyone behind one proxy) goes on working.
    expect((await api(run, '/api/next', { token: run.seeded.tokens.alice })).status).toBe(200);
    expect((await api(run, `/a/${run.seeded.tokens.bob}`)).status).toBe(200);
    expect((await judge(run, run.seeded.tokens.bob!, { item: run.seeded.items[0]!.id, verdict: 'correct' })).status).toBe(201);
    expect((await api(run, '/api/next')).status).toBe(401);
    expect((await api(run, '/a/not-a-token')).status).toBe(429);
  });

  it('counts all of 127/8 as one address, so rotating the source address escapes nothing', async () => {
    const run = await start();
    for (let host = 2; host < 12; host++) expect(await statusFrom(run, '/api/next', `guess-${host}`, `127.0.${host}.${host}`)).toBe(401);
    expect(await statusFrom(run, '/api/next', 'guess-last', '127.9.9.9')).toBe(429);
    expect(await statusFrom(run, '/api/next', run.seeded.tokens.alice!, '127.9.9.9')).toBe(200);
  });

  it('behind a trusted proxy, counts each client apart, and a guessed link by its first characters from any address', async () => {
    const run = await start(['alice'], { trustProxy: '127.0.0.1' });
    const from = (client: string, token: string) => api(run, '/api/next', { token, headers: { 'x-forwarded-for': client } });
    for (let attempt = 0; attempt < 10; attempt++) expect((await from('203.0.113.5', `client-guess-${attempt}`)).status).toBe(401);
    expect((await from('203.0.113.5', 'client-guess-last')).status).toBe(429);
    expect((await from('203.0.113.6', 'other-client-guess')).status).toBe(401);
    expect((await from('203.0.113.5', run.seeded.tokens.alice!)).status).toBe(200);
    // One link tried from many addresses: its prefix is counted wherever it comes from.
    for (let client = 10; client < 20; client++) expect((await from(`198.51.100.${client}`, `AAAAAAAA-${client}`)).status).toBe(401);
    const prefix = await from('198.51.100.99', 'AAAAAAAA-again');
    expect(prefix.status).toBe(429);
    expect(((await prefix.json()) as { error: string }).error).toMatch(/^too many failed token attempts with this link;/);
    expect((await from('198.51.100.99', 'BBBBBBBB-other')).status).toBe(401);
  });

  it('takes verdicts through nginx set up as the README says, on a port other than 443', async () => {
    // The README's nginx line names the variable nginx puts in X-Forwarded-Host: $host is the name
    // alone, $http_host the Host the browser sent, port included (nginx's documented values).
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const variable = /likewise -Host (\$\w+)/.exec(readme)?.[1];
    const publicHost = 'audit.example.org:8443';
    const forwardedHost = { $host: 'audit.example.org', $http_host: publicHost }[variable ?? ''];
    expect(forwardedHost).toBeDefined();
    const run = await start(['alice'], { trustProxy: '127.0.0.1' });
    const item = run.seeded.items[1]!.id;
    const posted = await judge(run, run.seeded.tokens.alice!, { item, verdict: 'correct' }, {
      origin: `https://${publicHost}`,
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-host': forwardedHost!,
      'x-forwarded-proto': 'https',
    });
    expect(posted.status).toBe(201);
  });

  it('believes no X-Forwarded-For without a trusted proxy', async () => {
    const run = await start();
    for (let client = 0; client < 10; client++) expect((await api(run, '/api/next', { token: `guess-${client}`, headers: { 'x-forwarded-for': `203.0.113.${client}` } })).status).toBe(401);
    expect((await api(run, '/api/next', { token: 'guess-last', headers: { 'x-forwarded-for': '203.0.113.200' } })).status).toBe(429);
  });
});

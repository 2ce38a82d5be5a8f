/**
 * The weekly pipeline end to end on the embedded sample: questions, checks, domains and the release,
 * offline (deterministic, the default without an API key) and through the real `openai` client
 * against a local OpenAI-compatible server (faults marked per item, a rerun sends nothing).
 */
import Sqlite from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonLines, repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { startOpenAiServer, type OpenAiServer } from '../../testkit/openaiServer.js';

const sample = join(repoRoot, 'data/sample/sample-history.xml');
const week = ['--start', '2025-02-03', '--dump', sample];
const qaFiles = ['qa_250203.jsonl', 'qa_250204.jsonl', 'qa_250205.jsonl', 'qa_250206.jsonl', 'qa_250207.jsonl', 'qa_250208.jsonl', 'qa_250209.jsonl'];

function rows<T>(db: string, sql: string): T[] {
  const handle = new Sqlite(db, { readonly: true });
  try {
    return handle.prepare(sql).all() as T[];
  } finally {
    handle.close();
  }
}

function releaseFiles(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

describe('weekly pipeline with the offline provider', () => {
  const dir = tempDir();

  it('classifies the update frequency of a question made again about another key by that key, not the one it replaced', async () => {
    const db = join(tempDir(), 'frequency.sqlite');
    await runCliOk(['--db', db, 'weekly', ...week]);
    await runCliOk(['--db', db, 'sync', '--until', '2025-02-24', '--dump', sample]);
    const election = "SELECT key, update_frequency FROM queries WHERE id = '25020300-111-0'";
    // The recount of 2025-02-11 changes the second candidate's votes only.
    expect(rows(db, election)).toEqual([{ key: 'popular_vote2', update_frequency: 'frequent_update' }]);
    await runCliOk(['--db', db, 'weekly', ...week, '--seed', '7']);
    expect(rows(db, election)).toEqual([{ key: 'popular_vote3', update_frequency: 'infrequent_update' }]);
  });

  it('makes questions with check results and domains, and the release with a file per day', async () => {
    const db = join(dir, 'a.sqlite');
    const run = await runCliOk(['--db', db, 'weekly', ...week]);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.stdout).toMatch(/generate +done +data_units=11 already_done=0 generated=11 failed=0/);

    const queries = rows<{ id: string; text: string; kept: number; slot: string }>(db, "SELECT id, text, kept, slot FROM queries ORDER BY id");
    expect(queries).toHaveLength(11);
    expect(queries.map((q) => q.id)).toContain('25020300-101-0');
    expect(queries.find((q) => q.id === '25020300-103-0')?.text).toBe('What is the number of employees of Brightwater Logistics?');
    const provenance = rows<{ provider: string; prompt: string; rev_id: number }>(db, 'SELECT provider, prompt, rev_id FROM question_generations');
    expect(new Set(provenance.map((p) => p.provider))).toEqual(new Set(['offline']));
    const checks = rows<{ check_name: string; passed: number; reason: string; backend: string }>(db, 'SELECT * FROM question_checks');
    expect(checks).toHaveLength(22);
    const descriptiveness = checks.filter((c) => c.check_name === 'descriptiveness');
    expect(descriptiveness).toHaveLength(11);
    expect(descriptiveness.every((c) => c.backend === 'local-bm25' && /result \d+ of/.test(c.reason))).toBe(true);
    const domains = rows<{ query_id: string; domain: string }>(db, 'SELECT query_id, domain FROM question_domains');
    expect(Object.fromEntries(domains.map((d) => [d.query_id, d.domain]))).toMatchObject({
      '25020300-101-0': 'Geography and Environment',
      '25020300-102-0': 'Sports and Entertainment',
      '25020300-103-0': 'Business and Economics',
      '25020300-104-0': 'Politics and Law',
    });

    const release = join(dir, 'releases', 'weekly-2025-02-03');
    for (const name of ['README.md', 'queries.jsonl', 'native.jsonl', ...qaFiles]) expect(existsSync(join(release, name))).toBe(true);
    const kept = queries.filter((q) => q.kept === 1).length;
    expect(kept).toBeGreaterThan(0);
    for (const name of qaFiles) {
      const lines = jsonLines(readFileSync(join(release, name), 'utf8'));
      expect(lines).toHaveLength(kept);
      for (const line of lines) expect(Object.keys(line)).toEqual(['id', 'query', 'answer']);
    }
    const native = jsonLines(readFileSync(join(release, 'native.jsonl'), 'utf8'));
    expect(native[0]).toMatchObject({ provenance: { provider: 'offline', prompt: 'offline-rules' }, source: { rev_id: expect.any(Number) } });
    const card = readFileSync(join(release, 'README.md'), 'utf8');
    expect(card).toMatch(/\| data units \(selected infobox changes\) \| 11 \|/);
    expect(card).toMatch(/CC BY-SA/);
    expect(readdirSync(release).some((name) => name.includes('.tmp-'))).toBe(false);
  });

  it('writes the same release again from the store with export weekly, and refuses a week without questions', async () => {
    const db = join(dir, 'a.sqlite');
    const again = join(dir, 'again');
    const exported = await runCliOk(['--db', db, 'export', 'weekly', '--start', '2025-02-03', '--out', again]);
    // The card, queries and answers (JSON lines and Parquet), native, a file per day from the start to
    // the day after the week, two figures, the manifest and the changes.
    expect(exported.stdout).toMatch(/^wrote 19 files to .*again \(\d+ kept queries\)\n  version 2025-02-03\+[0-9a-f]{12}, the first of its series\n$/);
    expect(releaseFiles(again)).toEqual(releaseFiles(join(dir, 'releases', 'weekly-2025-02-03')));
    const none = await runCli(['--db', db, 'export', 'weekly', '--start', '2024-02-05']);
    expect(none.code).toBe(1);
    expect(none.errorCode).toBe('E_PREREQUISITE_MISSING');
  });

  it('gives byte-identical releases for the same week and seed in two fresh stores', async () => {
    const first = join(dir, 'b.sqlite');
    const second = join(dir, 'c.sqlite');
    const out1 = join(dir, 'out1');
    const out2 = join(dir, 'out2');
    await runCliOk(['--db', first, 'weekly', ...week, '--seed', '7', '--out', out1]);
    await runCliOk(['--db', second, 'weekly', ...week, '--seed', '7', '--out', out2]);
    expect(releaseFiles(out2)).toEqual(releaseFiles(out1));
    const ids = (db: string) => rows<{ id: string; key: string }>(db, 'SELECT id, key FROM queries ORDER BY id');
    expect(ids(second)).toEqual(ids(first));
  });

  it('caps each domain by seeded sampling and marks the ones left out', async () => {
    const db = join(dir, 'd.sqlite');
    await runCliOk(['--db', db, 'weekly', ...week], { env: { WIKIDELTA_DOMAIN_CAP: '1' } });
    const perDomain = rows<{ domain: string; total: number; kept: number }>(
      db,
      `SELECT d.domain, COUNT(*) AS total, SUM(q.kept) AS kept FROM question_domains d JOIN queries q ON q.id = d.query_id GROUP BY d.domain`,
    );
    expect(perDomain.length).toBeGreaterThan(3);
    for (const domain of perDomain) expect(domain.kept).toBe(1);
    const capped = rows<{ reason: string }>(db, 'SELECT reason FROM question_domains WHERE capped = 1');
    expect(capped.length).toBe(perDomain.reduce((sum, d) => sum + d.total - 1, 0));
    expect(capped.every((c) => /cap of 1 questions per domain/.test(c.reason))).toBe(true);
  });
});

describe('weekly pipeline through the openai provider against a local server', () => {
  let server: OpenAiServer;
  const dir = tempDir();
  const db = join(dir, 'llm.sqlite');
  const env = () => ({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key', WIKIDELTA_LLM_MODEL: 'local-test', WIKIDELTA_LLM_MAX_RETRIES: '1' });

  beforeAll(async () => {
    // The film's question never comes back valid; everything else is answered.
    server = await startOpenAiServer({ alwaysFault: 'schema-violation', alwaysFaultWhen: 'Target field: gross' });
  });
  afterAll(async () => server.stop());

  it('generates, checks and classifies through the model, marking the item whose replies stay invalid', async () => {
    const run = await runCliOk(['--db', db, 'weekly', ...week, '--llm', 'openai'], { env: env() });
    expect(run.stderr).not.toMatch(/"level":"error"/);
    expect(run.stdout).toMatch(/generate +done +data_units=11 already_done=0 generated=10 failed=1/);
    const failed = rows<{ query_id: string; reason: string; provider: string; model: string }>(db, "SELECT * FROM question_generations WHERE status = 'failed'");
    expect(failed).toEqual([
      expect.objectContaining({ query_id: '25020300-106-0', provider: 'openai', model: 'local-test', reason: expect.stringMatching(/^invalid reply after 3 attempts: reply does not match the schema/) }),
    ]);
    const made = rows<{ text: string }>(db, 'SELECT text FROM queries');
    expect(made).toHaveLength(10);
    expect(made.every((q) => q.text.startsWith('According to its article, what is the'))).toBe(true);
    expect(rows(db, 'SELECT * FROM question_checks')).toHaveLength(20);
    expect(rows(db, "SELECT * FROM question_domains WHERE provider = 'openai' AND prompt = 'domain-classification'")).toHaveLength(10);
    expect(server.requests.length).toBeGreaterThan(30);

    const status = await runCli(['--db', db, '--json', 'status']);
    const usage = (JSON.parse(status.stdout) as { runs: Array<{ llm_usage: Array<Record<string, number | string>> }> }).runs[0]?.llm_usage;
    expect(usage).toEqual([expect.objectContaining({ provider: 'openai', model: 'local-test', requests: server.requests.length, failures: 1 })]);
    expect(Number(usage?.[0]?.promptTokens)).toBeGreaterThan(0);
    expect((await runCli(['--db', db, 'status'])).stdout).toMatch(/llm +openai:local-test requests=\d+ cache_hits=0 failures=1 prompt_tokens=\d+/);
  });

  it('sends no request when the same week is run again, even with every stage forced to run', async () => {
    const sent = server.requests.length;
    const before = rows(db, 'SELECT id, text, kept FROM queries ORDER BY id');
    await runCliOk(['--db', db, 'weekly', ...week, '--llm', 'openai'], { env: env() });
    expect(server.requests.length).toBe(sent);

    const handle = new Sqlite(db);
    handle.exec('DELETE FROM llm_usage; DELETE FROM run_stages; DELETE FROM runs;');
    handle.close();
    const rerun = await runCliOk(['--db', db, 'weekly', ...week, '--llm', 'openai'], { env: env() });
    expect(rerun.stdout).toMatch(/generate +done/);
    expect(server.requests.length).toBe(sent);
    expect(rows(db, 'SELECT id, text, kept FROM queries ORDER BY id')).toEqual(before);
    const status = JSON.parse((await runCli(['--db', db, '--json', 'status'])).stdout) as { runs: Array<{ llm_usage: Array<Record<string, number>> }> };
    expect(status.runs[0]?.llm_usage[0]).toMatchObject({ requests: 0, promptTokens: 0 });
    expect(Number(status.runs[0]?.llm_usage[0]?.cacheHits)).toBeGreaterThan(0);
  });
});

describe('an LLM outage during the weekly pipeline', () => {
  const dir = tempDir();
  const servers: OpenAiServer[] = [];
  const envFor = (server: OpenAiServer) => ({
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: 'test-key',
    WIKIDELTA_LLM_MODEL: 'local-test',
    WIKIDELTA_LLM_MAX_RETRIES: '1',
    WIKIDELTA_RETRY_BASE_MS: '50',
  });
  async function server(options: Parameters<typeof startOpenAiServer>[0]): Promise<OpenAiServer> {
    const started = await startOpenAiServer(options);
    servers.push(started);
    return started;
  }
  afterAll(async () => Promise.all(servers.map((s) => s.stop())));

  it.each([
    ['HTTP 500', { alwaysFault: 'server-error' as const }, /failed after 1 retry: HTTP 500/],
    ['429 with a Retry-After beyond the cap', { alwaysFault: 'rate-limit' as const, retryAfterSeconds: 3600 }, /HTTP 429: .*asked to wait 3600 s/],
    ['connection refused', {}, /failed after 1 retry: connection failed/],
  ])('fails the stage on %s (exit 1, run failed, status --check alarms) and stores no verdict on any item', async (_name, options, line) => {
    const db = join(tempDir(), 'outage.sqlite');
    const down = await server(options);
    if (Object.keys(options).length === 0) await down.stop();
    const run = await runCli(['--db', db, 'weekly', ...week, '--llm', 'openai'], { env: envFor(down) });
    expect(run.code, run.stderr).toBe(1);
    const errors = run.stderr.split('\n').filter((l) => l.startsWith('wikidelta:'));
    expect(errors).toHaveLength(1);
    expect(errorOf(run.stderr)).toEqual({ code: 'E_LLM_UNREACHABLE', message: expect.stringMatching(line) });
    expect(rows(db, 'SELECT * FROM question_generations')).toEqual([]);
    expect(rows<{ status: string }>(db, 'SELECT status FROM runs')).toEqual([{ status: 'failed' }]);
    const check = await runCli(['--db', db, 'status', '--check']);
    expect(check.code).toBe(1);
    expect(errorOf(check.stderr)).toEqual({ code: 'E_STATUS_UNHEALTHY', message: expect.stringMatching(/^run 1 weekly failed, .*: generate: LLM server /) });
  });

  it('retries on the next run what the outage left, while an item the model answered badly stays rejected with its reason', async () => {
    const db = join(dir, 'resumed.sqlite');
    const down = await server({ alwaysFault: 'server-error' });
    expect((await runCli(['--db', db, 'weekly', ...week, '--llm', 'openai'], { env: envFor(down) })).code).toBe(1);
    expect(down.requests.length).toBeGreaterThan(0);

    // The server is back; the film's question never comes back valid.
    const up = await server({ alwaysFault: 'schema-violation', alwaysFaultWhen: 'Target field: gross' });
    const out = join(dir, 'release');
    const resumed = await runCliOk(['--db', db, 'weekly', ...week, '--llm', 'openai', '--out', out], { env: envFor(up) });
    expect(resumed.stdout).toMatch(/^run 1 \(done\) .*, continued/);
    expect(resumed.stdout).toMatch(/generate +done +data_units=11 already_done=0 generated=10 failed=1/);
    expect(jsonLines(readFileSync(join(out, 'queries.jsonl'), 'utf8')).length).toBeGreaterThan(0);
    await runCliOk(['--db', db, 'status', '--check']);

    // --redo generate asks for every unit again, and the store's cache answers each as before: no request,
    // and the film's question stays rejected with its reason.
    const sent = up.requests.length;
    const again = await runCliOk(['--db', db, 'weekly', ...week, '--llm', 'openai', '--redo', 'generate'], { env: envFor(up) });
    expect(again.stdout).toMatch(/generate +done +data_units=11 already_done=0 generated=10 failed=1/);
    expect(up.requests.length).toBe(sent);
    expect(rows(db, "SELECT query_id, reason FROM question_generations WHERE status = 'failed'")).toEqual([
      { query_id: '25020300-106-0', reason: expect.stringMatching(/^invalid reply after 3 attempts: /) },
    ]);
  });

  it("makes again, resumed after an outage, the questions the week's run with other settings left: no mix of models", async () => {
    const db = join(tempDir(), 'models.sqlite');
    await runCliOk(['--db', db, 'weekly', ...week, '--llm', 'offline']);
    // Another model's run of the week makes every question again, and the outage cuts it short.
    const flaky = await server({ alwaysFault: 'server-error', alwaysFaultWhen: 'Target field: gross' });
    expect((await runCli(['--db', db, 'weekly', ...week, '--llm', 'openai'], { env: envFor(flaky) })).code).toBe(1);
    expect(rows(db, "SELECT provider FROM question_generations WHERE query_id = '25020300-106-0'")).toEqual([{ provider: 'offline' }]);

    const up = await server({});
    const resumed = await runCliOk(['--db', db, 'weekly', ...week, '--llm', 'openai'], { env: envFor(up) });
    expect(resumed.stdout).toMatch(/^run 2 \(done\) .*, continued/);
    expect(rows(db, 'SELECT DISTINCT provider, model FROM question_generations')).toEqual([{ provider: 'openai', model: 'local-test' }]);
    expect(rows(db, "SELECT DISTINCT backend FROM question_checks WHERE check_name = 'correctness'")).toEqual([{ backend: 'openai:local-test' }]);
  });

  it('makes the questions again at another temperature, and resumes that run after an outage at its own: no mix of temperatures', async () => {
    const db = join(tempDir(), 'temperatures.sqlite');
    const up = await server({});
    await runCliOk(['--db', db, 'weekly', ...week, '--llm', 'openai'], { env: envFor(up) });
    const warmer = { WIKIDELTA_LLM_TEMPERATURE: '0.7' };
    // The week done at the default temperature is no run of this one: its questions are made again, and an outage cuts that short.
    const flaky = await server({ alwaysFault: 'server-error', alwaysFaultWhen: 'Target field: gross' });
    const cut = await runCli(['--db', db, 'weekly', ...week, '--llm', 'openai'], { env: { ...envFor(flaky), ...warmer } });
    expect(cut.code, cut.stderr).toBe(1);
    expect(cut.stderr).toMatch(/the week's questions were made by run 1 with other settings/);
    const back = await server({});
    const resumed = await runCliOk(['--db', db, 'weekly', ...week, '--llm', 'openai'], { env: { ...envFor(back), ...warmer } });
    expect(resumed.stdout).toMatch(/^run 2 \(done\) .*, continued/);
    expect(back.requests.length).toBeGreaterThan(0);
    expect(new Set([...flaky.requests, ...back.requests].map((request) => request.body.temperature))).toEqual(new Set([0.7]));
    expect(rows<{ params: string }>(db, 'SELECT params FROM runs ORDER BY id').map((run) => (JSON.parse(run.params) as { llm: string }).llm)).toEqual([
      'openai:local-test',
      'openai:local-test temperature=0.7',
    ]);
  });

  it('asks again for the items a store written before the fix holds as failed by the service', async () => {
    const db = join(dir, 'resumed.sqlite');
    const up = await server({});
    const handle = new Sqlite(db);
    handle.exec(`UPDATE question_generations SET status = 'failed', reason = 'LLM server http://127.0.0.1:9/v1 failed after 5 retries: HTTP 500: internal error' WHERE query_id = '25020300-101-0';
      DELETE FROM queries WHERE id = '25020300-101-0';
      UPDATE question_checks SET passed = 0, reason = 'no answer: LLM server http://127.0.0.1:9/v1 failed after 5 retries: connection failed: fetch failed' WHERE query_id = '25020300-102-0' AND check_name = 'correctness';`);
    handle.close();
    // Such a store recorded generate and check done: --redo generate asks for every unit again (the cache answers
    // those the service had answered), and check follows, every question checked again.
    const redo = await runCliOk(['--db', db, 'weekly', ...week, '--llm', 'openai', '--redo', 'generate'], { env: envFor(up) });
    expect(redo.stdout).toMatch(/generate +done +data_units=11 already_done=0 generated=10 failed=1/);
    expect(redo.stdout).toMatch(/check +done +questions=10 already_done=0 /);
    expect(rows(db, "SELECT COUNT(*) AS n FROM queries WHERE id = '25020300-101-0' AND kept = 1")).toEqual([{ n: 1 }]);
    expect(rows(db, "SELECT * FROM question_checks WHERE reason LIKE '%LLM server%'")).toEqual([]);
  });
});

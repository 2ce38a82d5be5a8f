/**
 * The labeling LLM step (docs/ARCHITECTURE.md §7.3) through the real `openai` client against the local
 * OpenAI-compatible server, with scripted replies, junk ones included: `label --llm openai` sends every
 * changed and undecided sentence with its closest old one, stores the verdict and reason as each
 * label's evidence, keeps the models' label (and says why) for a sentence whose replies never
 * validate, counts the calls in `status`, and answers a repeated question from the cache.
 */
import Sqlite from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelArticle } from '../../src/labels/labeler.js';
import { SessionTasks } from '../../src/llm/openTasks.js';
import { CachingEmbedder } from '../../src/models/embedder.js';
import { HeuristicNli } from '../../src/models/heuristicNli.js';
import { UseLiteEmbedder } from '../../src/models/useEmbedder.js';
import { loadSettings } from '../../src/settings.js';
import { jsonLines, repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { startOpenAiServer, type OpenAiServer } from '../../testkit/openaiServer.js';
import { Store } from '../../src/store/store.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
let server: OpenAiServer;
/** The first sentence the server is asked about gets junk forever; the others a verdict. */
let junkFor: string | undefined;
const asked = () => server.requests.filter((request) => request.body.messages.some((message) => message.content.includes('Old sentence:')));

beforeAll(async () => {
  // The server's stand-in verdict for every sentence but the first it is asked about, which gets junk every time.
  server = await startOpenAiServer({
    script: (prompt) => {
      const newSentence = /New sentence: (.*)/.exec(prompt)?.[1];
      if (newSentence === undefined) return undefined;
      junkFor ??= newSentence;
      return newSentence === junkFor ? 'Well, that depends on how you look at it.' : undefined;
    },
  });
});
afterAll(async () => server.stop());

describe('label --llm openai', () => {
  it('label and monthly take the same model options', async () => {
    for (const command of ['label', 'monthly']) {
      const help = await runCli([command, '--help']);
      for (const option of ['--embedding-model <dir>', '--same-threshold <x>', '--nli-model <dir>', '--embed-threads <n>', '--llm <provider>']) expect(help.stdout, `${command} ${option}`).toContain(option);
    }
  });


  it('judges changed and undecided sentences, keeps verdicts and reasons as evidence, and counts the calls in status', async () => {
    const db = join(tempDir(), 'store.sqlite');
    for (const date of ['2025-03-01', '2025-04-01']) await runCliOk(['--db', db, 'snapshot', '--name', date, '--dump', SAMPLE, '--as-of', date]);
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key', WIKIDELTA_LLM_MODEL: 'local-test', WIKIDELTA_LLM_INVALID_RETRIES: '1' };
    await runCliOk(['--db', db, 'label', '--old', '2025-03-01', '--new', '2025-04-01', '--llm', 'openai'], { env });

    const store = new Sqlite(db, { readonly: true });
    const rows = store.prepare("SELECT step, label, backend, evidence FROM sentence_labels WHERE side = 'new' AND evidence IS NOT NULL").all() as Array<{ step: string; label: string; backend: string; evidence: string }>;
    const params = JSON.parse(store.prepare("SELECT params FROM runs WHERE pipeline = 'monthly-label'").pluck().get() as string) as Record<string, unknown>;
    store.close();
    const judged = rows.filter((row) => row.step === 'llm');
    expect(judged.length).toBeGreaterThan(0);
    expect(judged.every((row) => row.backend.endsWith('+openai:local-test'))).toBe(true);
    expect(judged.filter((row) => row.label === 'changed').every((row) => /^openai:local-test sentence-change@1: changed: a fact of the old sentence has another value in the new one; facts differ: /.test(row.evidence))).toBe(true);
    // The sentence whose replies never validate keeps the models' label, and its evidence says so.
    const unjudged = rows.filter((row) => row.step === 'nli');
    expect(unjudged).toHaveLength(1);
    expect(unjudged[0]?.evidence).toMatch(/^openai:local-test sentence-change@1 gave no verdict \(invalid reply after 2 attempts: .*\): the NLI label \((changed|undecided)\) kept/);
    expect(params).toMatchObject({ labelLlm: 'openai:local-test', nli: 'heuristic-nli' });

    const status = JSON.parse((await runCli(['--db', db, '--json', 'status'])).stdout) as { runs: Array<{ pipeline: string; llm_usage: Array<Record<string, number | string>> }> };
    const usage = status.runs.find((run) => run.pipeline === 'monthly-label')?.llm_usage;
    expect(usage).toEqual([expect.objectContaining({ provider: 'openai', model: 'local-test', requests: asked().length, failures: 1 })]);
  });

  it('offline: asks nothing and says so in each label the LLM would have judged', async () => {
    const before = server.requests.length;
    const db = join(tempDir(), 'store.sqlite');
    for (const date of ['2025-03-01', '2025-04-01']) await runCliOk(['--db', db, 'snapshot', '--name', date, '--dump', SAMPLE, '--as-of', date]);
    await runCliOk(['--db', db, 'label', '--old', '2025-03-01', '--new', '2025-04-01', '--llm', 'offline'], { env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' } });
    const store = new Sqlite(db, { readonly: true });
    const evidence = store.prepare("SELECT label, evidence FROM sentence_labels WHERE side = 'new' AND label IN ('changed', 'undecided')").all() as Array<{ label: string; evidence: string | null }>;
    store.close();
    expect(evidence.length).toBeGreaterThan(0);
    expect(evidence.every((row) => row.evidence?.startsWith(`offline: no LLM asked, the NLI heuristics decide: the NLI label (${row.label}) kept`))).toBe(true);
    expect(server.requests.length).toBe(before);
    const out = join(tempDir(), 'labels.jsonl');
    await runCliOk(['--db', db, 'export', 'labels', '--old', '2025-03-01', '--new', '2025-04-01', '--out', out]);
    const changed = jsonLines(readFileSync(out, 'utf8')).filter((line) => line.label === 'changed');
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((line) => String(line.evidence).startsWith('offline: no LLM asked'))).toBe(true);
  });

  it('answers a question already asked from the store, without a request', async () => {
    const store = Store.open(':memory:');
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const judge = new SessionTasks(store, loadSettings({ flags: { llm: 'openai', llmModel: 'local-test' }, env }), env).label();
    const models = { embedder: new CachingEmbedder(new UseLiteEmbedder()), nli: new HeuristicNli(), judge };
    const oldText = ['The observatory operates three optical telescopes.'];
    const newText = ['The observatory operates four optical telescopes.'];
    const first = await labelArticle(oldText, newText, models);
    const requests = server.requests.length;
    const second = await labelArticle(oldText, newText, models);
    expect(first.sentences[0]).toMatchObject({ label: 'changed', step: 'llm' });
    expect(second.sentences[0]).toEqual(first.sentences[0]);
    expect(server.requests.length).toBe(requests);
    expect(judge.takeUsage()).toMatchObject({ requests: 1, cacheHits: 1 });
    store.close();
  });
});

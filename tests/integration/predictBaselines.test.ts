/**
 * The baselines end to end on the demo store (the embedded sample's weeks and snapshots): offline,
 * golden-doc and GrowOVER evidence read the answers (an upper bound) and closed-book answers
 * nothing; through the real `openai` client against the local OpenAI-compatible server with
 * scripted replies, the prompts carry the date and the article as of that date, and a rerun is
 * answered from the store's cache without a request.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli, tempDir } from '../../testkit/cli.js';
import { startOpenAiServer } from '../../testkit/openaiServer.js';
import { openDatabase } from '../../src/store/database.js';
import { QueryStore } from '../../src/store/questionStore.js';
import { GrowoverStore } from '../../src/store/growoverStore.js';
import { answerQuery } from '../../src/timeline/answers.js';

const dir = tempDir();
const db = join(dir, 'demo.sqlite');
const DATE = '2025-03-03';
const SNAPSHOT = '2025-04-01';

function predictions(path: string): Map<string, string> {
  return new Map(jsonLines(readFileSync(path, 'utf8')).map((line) => [line.id as string, line.prediction as string]));
}

/** Kept queries of weeks begun before DATE with their answer on DATE; GrowOVER items active in SNAPSHOT. */
function gold(): { weekly: Map<string, string | null>; growover: Map<string, string> } {
  const store = openDatabase(db);
  try {
    const weekly = new Map(
      new QueryStore(store)
        .scoringFacts()
        .filter((facts) => (facts.week ?? '') < DATE)
        .map((facts) => [facts.id, answerQuery(store, facts.id, DATE).answer]),
    );
    const growover = new Map(new GrowoverStore(store).qaAt(SNAPSHOT).filter((item) => item.now !== null).map((item) => [item.id, item.answer]));
    return { weekly, growover };
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  const demo = await runCli(['--db', db, 'demo']);
  expect(demo.code, demo.stderr).toBe(0);
}, 120_000);

describe('predict, offline', () => {
  it('golden-doc reads the infobox value on the date for every query, closed-book answers nothing', async () => {
    const { weekly } = gold();
    expect(weekly.size).toBeGreaterThan(5);
    for (const system of ['golden-doc', 'closed-book']) {
      const out = join(dir, `weekly-${system}.jsonl`);
      const run = await runCli(['--db', db, 'predict', 'weekly', '--system', system, '--date', DATE, '--out', out, '--llm', 'offline']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^${weekly.size} predictions \\(${system}, offline/rules-v1\\) written`));
      const predicted = predictions(out);
      expect([...predicted.keys()].sort()).toEqual([...weekly.keys()].sort());
      for (const [id, answer] of weekly) expect(predicted.get(id), id).toBe(system === 'golden-doc' ? (answer ?? '') : '');
    }
  });

  it('GrowOVER evidence fills each cloze from its evidence sentences, closed-book answers nothing', async () => {
    const { growover } = gold();
    expect(growover.size).toBeGreaterThan(5);
    for (const system of ['evidence', 'closed-book']) {
      const out = join(dir, `growover-${system}.jsonl`);
      const run = await runCli(['--db', db, 'predict', 'growover', '--system', system, '--snapshot', SNAPSHOT, '--out', out, '--llm', 'offline']);
      expect(run.code, run.stderr).toBe(0);
      const predicted = predictions(out);
      expect([...predicted.keys()].sort()).toEqual([...growover.keys()].sort());
      for (const [id, answer] of growover) expect(predicted.get(id), id).toBe(system === 'evidence' ? answer : '');
    }
  });

  it('refuses an unknown system (usage, exit 2) and an unknown snapshot (one line, exit 1), writing nothing', async () => {
    const out = join(dir, 'never.jsonl');
    const system = await runCli(['--db', db, 'predict', 'weekly', '--system', 'oracle', '--date', DATE, '--out', out]);
    expect(system.code).toBe(2);
    expect(system.stderr).toMatch(/--system.*oracle/);
    const snapshot = await runCli(['--db', db, 'predict', 'growover', '--system', 'evidence', '--snapshot', '1999-01', '--out', out, '--llm', 'offline']);
    expect(snapshot.code).toBe(1);
    expect(snapshot.stderr.trim().split('\n')).toEqual([expect.stringMatching(/no snapshot named "1999-01"/)]);
    expect(() => readFileSync(out)).toThrow();
  });
});

describe('predict through an OpenAI-compatible server', () => {
  it('asks with the date (and the article as of the date), writes the replies, and a rerun sends nothing', async () => {
    const server = await startOpenAiServer({
      script: (prompt) => {
        if (prompt.includes('Reference title:')) return { answer: `doc:${/Reference title: (.*)/.exec(prompt)?.[1] ?? ''}` };
        if (prompt.startsWith('Today is')) return { answer: 'unknown' };
        return undefined;
      },
    });
    try {
      const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test' };
      const { weekly } = gold();
      const out = join(dir, 'llm-golden.jsonl');
      const args = ['--db', db, 'predict', 'weekly', '--system', 'golden-doc', '--date', DATE, '--out', out, '--llm', 'openai'];
      const first = await runCli(args, { env });
      expect(first.code, first.stderr).toBe(0);
      expect(server.requests).toHaveLength(weekly.size);
      const prompts = server.requests.map((request) => request.body.messages[0]?.content ?? '');
      expect(prompts.every((prompt) => prompt.startsWith(`Today is ${DATE}.`) && prompt.includes('Reference infobox'))).toBe(true);
      // Every prompt shows the infobox as of the date: the gold value of its query is in it.
      const values = [...weekly.values()].filter((value): value is string => value !== null);
      for (const value of values) expect(prompts.some((prompt) => prompt.includes(`: ${value}\n`)), value).toBe(true);
      const written = readFileSync(out, 'utf8');
      const predicted = predictions(out);
      expect(predicted.size).toBe(weekly.size);
      expect([...predicted.values()].every((prediction) => prediction.startsWith('doc:') && prediction.length > 4)).toBe(true);

      const again = await runCli(args, { env });
      expect(again.code, again.stderr).toBe(0);
      expect(server.requests).toHaveLength(weekly.size);
      expect(again.stdout).toMatch(new RegExp(`0 requests, ${weekly.size} from the cache`));
      expect(readFileSync(out, 'utf8')).toBe(written);

      const closed = join(dir, 'llm-closed.jsonl');
      const closedRun = await runCli(['--db', db, 'predict', 'growover', '--system', 'closed-book', '--snapshot', SNAPSHOT, '--out', closed, '--llm', 'openai'], { env });
      expect(closedRun.code, closedRun.stderr).toBe(0);
      expect([...predictions(closed).values()].every((prediction) => prediction === 'unknown')).toBe(true);
      const closedPrompts = server.requests.slice(weekly.size).map((request) => request.body.messages[0]?.content ?? '');
      expect(closedPrompts.length).toBe(gold().growover.size);
      expect(closedPrompts.every((prompt) => prompt.startsWith(`Today is ${SNAPSHOT}.`) && !prompt.includes('Reference'))).toBe(true);
    } finally {
      await server.stop();
    }
  });
});

/**
 * Baselines, the leaderboard and the figures end to end on the demo store (the embedded sample's
 * weeks and snapshots). Baselines: offline,
 * golden-doc and GrowOVER evidence read the answers (an upper bound) and closed-book answers
 * nothing; through the real `openai` client against the local OpenAI-compatible server with
 * scripted replies, the prompts carry the date and the article as of that date, and a rerun is
 * answered from the store's cache without a request. The figures and the leaderboard's are read back
 * from their SVG: one line per weekly update (or system), one point per value.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { startOpenAiServer } from '../../testkit/openaiServer.js';
import { answerQuery } from '../../src/timeline/answers.js';
import { Store } from '../../src/store/store.js';

const dir = tempDir();
const db = join(dir, 'demo.sqlite');
const DATE = '2025-03-03';
const SNAPSHOT = '2025-04-01';

function predictions(path: string): Map<string, string> {
  return new Map(jsonLines(readFileSync(path, 'utf8')).map((line) => [line.id as string, line.prediction as string]));
}

/** Kept queries with a known answer on DATE, with that answer (what an evaluation of DATE expects); GrowOVER items active in SNAPSHOT. */
function gold(): { weekly: Map<string, string | null>; growover: Map<string, string> } {
  const store = Store.open(db);
  try {
    const weekly = new Map(
      store.queries
        .scoringFacts()
        .map((facts) => [facts.id, answerQuery(store, facts.id, DATE)] as const)
        .filter(([, answer]) => answer.status !== 'unknown')
        .map(([id, answer]) => [id, answer.answer]),
    );
    const growover = new Map(store.growover.qaAt(SNAPSHOT).filter((item) => item.now !== null).map((item) => [item.id, item.answer]));
    return { weekly, growover };
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  await runCliOk(['--db', db, 'demo']);
}, 120_000);

describe('predict, offline', () => {
  it('golden-doc reads the infobox value on the date for every query, closed-book answers nothing', async () => {
    const { weekly } = gold();
    expect(weekly.size).toBeGreaterThan(5);
    for (const system of ['golden-doc', 'closed-book']) {
      const out = join(dir, `weekly-${system}.jsonl`);
      const run = await runCliOk(['--db', db, 'predict', 'weekly', '--system', system, '--date', DATE, '--out', out, '--llm', 'offline']);
      expect(run.stdout).toMatch(new RegExp(`^${weekly.size} predictions \\(${system}, offline/rules-v1\\) written`));
      const predicted = predictions(out);
      expect([...predicted.keys()].sort()).toEqual([...weekly.keys()].sort());
      for (const [id, answer] of weekly) expect(predicted.get(id), id).toBe(system === 'golden-doc' ? (answer ?? '') : '');
    }
  });

  it("--week answers one week's queries, on the day after the week unless --date says otherwise", async () => {
    const store = Store.open(db);
    const week = store.queries.scoringFacts().filter((facts) => facts.week === '2025-02-03');
    const expected = new Map(week.map((facts) => [facts.id, answerQuery(store, facts.id, '2025-02-10').answer ?? '']));
    store.close();
    expect(expected.size).toBeGreaterThan(3);
    const out = join(dir, 'week.jsonl');
    await runCliOk(['--db', db, 'predict', 'weekly', '--system', 'golden-doc', '--week', '2025-02-03', '--out', out, '--llm', 'offline']);
    expect(predictions(out)).toEqual(expected);
    const usage = await runCli(['--db', db, 'predict', 'weekly', '--system', 'golden-doc', '--out', out]);
    expect(usage.code).toBe(2);
    expect([usage.errorCode, usage.stderr]).toEqual(['E_USAGE', expect.stringMatching(/--date.*or give --week/)]);
  });

  it('GrowOVER evidence fills each cloze from its evidence sentences, closed-book answers nothing', async () => {
    const { growover } = gold();
    expect(growover.size).toBeGreaterThan(5);
    for (const system of ['evidence', 'closed-book']) {
      const out = join(dir, `growover-${system}.jsonl`);
      await runCliOk(['--db', db, 'predict', 'growover', '--system', system, '--snapshot', SNAPSHOT, '--out', out, '--llm', 'offline']);
      const predicted = predictions(out);
      expect([...predicted.keys()].sort()).toEqual([...growover.keys()].sort());
      for (const [id, answer] of growover) expect(predicted.get(id), id).toBe(system === 'evidence' ? answer : '');
    }
  });

  it('refuses an unknown system (usage, exit 2), an unknown snapshot and a week with nothing to predict (one line, exit 1), writing nothing', async () => {
    const out = join(dir, 'never.jsonl');
    const system = await runCli(['--db', db, 'predict', 'weekly', '--system', 'oracle', '--date', DATE, '--out', out]);
    expect(system.code).toBe(2);
    expect([system.errorCode, system.stderr]).toEqual(['E_USAGE', expect.stringMatching(/--system.*oracle/)]);
    const snapshot = await runCli(['--db', db, 'predict', 'growover', '--system', 'evidence', '--snapshot', '1999-01', '--out', out, '--llm', 'offline']);
    expect(snapshot.code).toBe(1);
    expect(snapshot.stderr.trim().split('\n')).toHaveLength(1);
    expect(snapshot.errorCode).toBe('E_SNAPSHOT_NOT_FOUND');
    // A week without queries is refused naming the weeks near it; one whose queries have no known answer on the
    // date gives no predictions: an empty file would be refused by evaluate and the leaderboard.
    const early = await runCli(['--db', db, 'predict', 'weekly', '--system', 'golden-doc', '--week', '2024-01-01', '--out', out, '--llm', 'offline']);
    expect([early.code, early.errorCode, early.stderr.trim().split('\n')]).toEqual([1, 'E_PREREQUISITE_MISSING', [expect.stringMatching(/no kept query of a week starting 2024-01-01: .*\(the nearest: \d{4}-\d{2}-\d{2} after it\)$/)]]);
    const late = await runCli(['--db', db, 'predict', 'weekly', '--system', 'golden-doc', '--week', '2025-01-20', '--date', '2026-01-01', '--out', out, '--llm', 'offline']);
    expect([late.code, late.errorCode, late.stderr.trim().split('\n')]).toEqual([1, 'E_NOTHING_TO_SCORE', [expect.stringMatching(/no query of the week of 2025-01-20 has a known answer on 2026-01-01/)]]);
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
      const first = await runCliOk(args, { env });
      // No run records what predict spends: the command says it.
      expect(first.stdout).toMatch(/ from the cache, [1-9]\d* prompt and [1-9]\d* completion tokens\n$/);
      // One request per distinct prompt: queries of one question (a page's key asked in several weeks) share it.
      const asked = server.requests.length;
      const prompts = server.requests.map((request) => request.body.messages[0]?.content ?? '');
      expect(new Set(prompts).size).toBe(asked);
      expect(asked).toBeLessThan(weekly.size);
      expect(prompts.every((prompt) => prompt.startsWith(`Today is ${DATE}.`) && prompt.includes('Reference infobox'))).toBe(true);
      // Every prompt shows the infobox as of the date: the gold value of its query is in it.
      const values = [...weekly.values()].filter((value): value is string => value !== null);
      for (const value of values) expect(prompts.some((prompt) => prompt.includes(`: ${value}\n`)), value).toBe(true);
      const written = readFileSync(out, 'utf8');
      const predicted = predictions(out);
      expect(predicted.size).toBe(weekly.size);
      expect([...predicted.values()].every((prediction) => prediction.startsWith('doc:') && prediction.length > 4)).toBe(true);

      const again = await runCliOk(args, { env });
      expect(server.requests).toHaveLength(asked);
      expect(again.stdout).toMatch(new RegExp(`0 requests, ${weekly.size} from the cache`));
      expect(readFileSync(out, 'utf8')).toBe(written);

      const closed = join(dir, 'llm-closed.jsonl');
      await runCliOk(['--db', db, 'predict', 'growover', '--system', 'closed-book', '--snapshot', SNAPSHOT, '--out', closed, '--llm', 'openai'], { env });
      expect([...predictions(closed).values()].every((prediction) => prediction === 'unknown')).toBe(true);
      const closedPrompts = server.requests.slice(asked).map((request) => request.body.messages[0]?.content ?? '');
      expect(closedPrompts.length).toBe(gold().growover.size);
      expect(closedPrompts.every((prompt) => prompt.startsWith(`Today is ${SNAPSHOT}.`) && !prompt.includes('Reference'))).toBe(true);
    } finally {
      await server.stop();
    }
  });
});

/** The marks of a rendered chart, read back from the SVG: Vega writes each mark's values into its ARIA label. */
function marks(svg: string, role: string): string[] {
  return [...svg.matchAll(/<\w+ aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="([^"]*)"/g)].filter((m) => m[2] === role).map((m) => m[1] as string);
}

describe('predict when the model never replies in shape', () => {
  it('predicts "" for each item, counts it failed, and writes the file', async () => {
    const server = await startOpenAiServer({ alwaysFault: 'schema-violation' });
    try {
      const out = join(dir, 'llm-failed.jsonl');
      const run = await runCliOk(['--db', db, '--json', 'predict', 'weekly', '--system', 'closed-book', '--week', '2025-02-03', '--out', out, '--llm', 'openai'], {
        env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test', WIKIDELTA_LLM_INVALID_RETRIES: '1' },
      });
      const summary = JSON.parse(run.stdout) as { predictions: number; failed: number; requests: number };
      expect(summary.predictions).toBeGreaterThan(3);
      expect(summary.failed).toBe(summary.predictions);
      expect(summary.requests).toBe(2 * summary.predictions);
      expect([...predictions(out).values()]).toEqual(Array(summary.predictions).fill(''));
    } finally {
      await server.stop();
    }
  });
});

describe('stats --plot', () => {
  it("draws a panel per weekly update with a point per day, queries per domain and week, GrowOVER's labels and items per month", async () => {
    const out = join(dir, 'figures');
    const run = await runCliOk(['--db', db, 'stats', '--plot', out]);
    const weeks = (JSON.parse(run.stdout) as { weeks: Array<{ week: string; daily_changes: Array<{ compared: number }> }> }).weeks;
    expect(weeks.length).toBeGreaterThan(3);
    const changes = readFileSync(join(out, 'answer-changes.svg'), 'utf8');
    // A point per day with queries known on it and the day before; a day with none has no share to draw.
    const compared = (week: (typeof weeks)[number]) => week.daily_changes.filter((day) => day.compared > 0).length;
    expect(weeks.some((week) => compared(week) < week.daily_changes.length)).toBe(true);
    expect(marks(changes, 'line mark')).toHaveLength(weeks.filter((week) => compared(week) > 0).length);
    const points = marks(changes, 'point');
    expect(points).toHaveLength(weeks.reduce((sum, week) => sum + compared(week), 0));
    expect(points.filter((label) => label.includes('n: 0'))).toEqual([]);
    for (const week of weeks) expect(points.filter((label) => label.includes(`week: ${week.week};`))).toHaveLength(compared(week));

    const store = Store.open(db);
    const facts = store.queries.scoringFacts();
    store.close();
    const bars = marks(readFileSync(join(out, 'queries-per-domain.svg'), 'utf8'), 'bar');
    expect(bars).toHaveLength(new Set(facts.map((f) => `${f.week}|${f.domain}`)).size);
    const items = marks(readFileSync(join(out, 'growover-items.svg'), 'utf8'), 'bar');
    for (const month of ['2025-02', '2025-03', '2025-04']) expect(items.some((label) => label.includes(`month: ${month}`)), month).toBe(true);
    const labels = marks(readFileSync(join(out, 'growover-labels.svg'), 'utf8'), 'bar');
    expect(labels.some((label) => label.includes('month: 2025-02'))).toBe(false);
    expect(labels.some((label) => label.includes('month: 2025-03') && label.includes('label: unchanged'))).toBe(true);
    expect(labels.filter((label) => label.includes('label: deleted')).every((label) => label.includes('side: old snapshot'))).toBe(true);
    expect(items.every((label) => /type: (SAME|NEW|CHANGED);/.test(label))).toBe(true);

    await runCliOk(['--db', db, 'stats', '--plot', out]);
    const mine = join(dir, 'mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.txt'), 'keep');
    const refused = await runCli(['--db', db, 'stats', '--plot', mine]);
    expect(refused.code).toBe(1);
    expect(refused.errorCode).toBe('E_OUTPUT_DIR_FOREIGN');
    // A command that fails prints no result: the statistics go out only with their figures written.
    expect(refused.stdout).toBe('');
    expect(readFileSync(join(mine, 'notes.txt'), 'utf8')).toBe('keep');
  });
});

describe('releases', () => {
  it("carry the figures of the weeks (or months) up to theirs, shown at the end of their card", async () => {
    const stats = await runCli(['--db', db, 'stats']);
    const weeks = (JSON.parse(stats.stdout) as { weeks: Array<{ week: string }> }).weeks.map((week) => week.week);
    const release = join(dir, 'releases', 'weekly-2025-02-03');
    const card = readFileSync(join(release, 'README.md'), 'utf8');
    expect(card).toMatch(/## Figures\n\n!\[Answers changed per day[^\]]*\]\(answer-changes\.svg\)\n\n!\[Queries per domain per week\]\(queries-per-domain\.svg\)\n$/);
    const lines = marks(readFileSync(join(release, 'answer-changes.svg'), 'utf8'), 'line mark');
    expect(lines).toHaveLength(weeks.filter((week) => week <= '2025-02-03').length);
    expect(lines.length).toBeLessThan(weeks.length);

    const out = join(dir, 'growover-release');
    await runCliOk(['--db', db, 'export', 'growover', '--snapshot', '2025-03-01', '--out', out]);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('![GrowOVER QA items per month by type](growover-items.svg)');
    const items = marks(readFileSync(join(out, 'growover-items.svg'), 'utf8'), 'bar');
    expect(items.some((label) => label.includes('month: 2025-03'))).toBe(true);
    expect(items.some((label) => label.includes('month: 2025-04'))).toBe(false);
  });
});

describe('leaderboard', () => {
  const subs = join(dir, 'submissions');

  beforeAll(async () => {
    for (const system of ['golden-doc', 'closed-book']) {
      mkdirSync(join(subs, system), { recursive: true });
      // Every kept query answered the day after the week of 2025-02-24 (DATE).
      await runCliOk(['--db', db, 'predict', 'weekly', '--system', system, '--date', DATE, '--out', join(subs, system, '2025-02-24.jsonl'), '--llm', 'offline']);
      const growover = system === 'golden-doc' ? 'evidence' : 'closed-book';
      await runCliOk(['--db', db, 'predict', 'growover', '--system', growover, '--snapshot', SNAPSHOT, '--out', join(subs, system, `growover-${SNAPSHOT}.jsonl`), '--llm', 'offline']);
    }
    // A third system: every other golden answer, one file, each line naming its date.
    const golden = jsonLines(readFileSync(join(subs, 'golden-doc', '2025-02-24.jsonl'), 'utf8'));
    writeFileSync(join(subs, 'half.jsonl'), golden.filter((_, i) => i % 2 === 0).map((line) => `${JSON.stringify({ ...line, date: DATE })}\n`).join(''));
    writeFileSync(join(subs, 'notes.md'), 'not a submission\n');
  }, 60_000);

  it('ranks the systems by F1 with intervals, every one on the same expected items, missing predictions counting as wrong', async () => {
    const run = await runCliOk(['--db', db, '--json', 'leaderboard', '--submissions', subs]);
    type Entry = { rank: number; system: string; f1: number; n: number; missing: number; ci: { f1: [number, number] }; no_answer: { n: number } };
    const board = JSON.parse(run.stdout) as {
      seed: number;
      dates: string[];
      weekly: Entry[];
      growover: Array<{ snapshot: string; entries: Array<{ rank: number; system: string; ALL: { f1: number; n: number } }> }>;
    };
    expect(board.weekly.map((entry) => [entry.rank, entry.system])).toEqual([[1, 'golden-doc'], [2, 'half'], [3, 'closed-book']]);
    const [golden, half, closed] = board.weekly as [Entry, Entry, Entry];
    expect(golden.f1).toBe(100);
    expect(closed.f1).toBe(0);
    expect(board.dates).toEqual([DATE]);
    // Expected: every kept query whose answer on the date is known, for every system alike.
    expect(half.n).toBe(golden.n);
    expect(half.no_answer.n).toBe(golden.no_answer.n);
    const answers = gold().weekly;
    const predicted = jsonLines(readFileSync(join(subs, 'half.jsonl'), 'utf8')).map((line) => line.id as string);
    expect(half.missing).toBe(answers.size - predicted.length);
    expect(half.missing).toBeGreaterThan(0);
    expect(golden.n).toBe([...answers.values()].filter((answer) => answer !== null && answer !== '').length);
    const predictedValues = predicted.filter((id) => (answers.get(id) ?? '') !== '').length;
    expect(half.f1).toBeCloseTo((100 * predictedValues) / golden.n, 10);
    expect(half.ci.f1[0]).toBeLessThan(half.f1);
    expect(half.ci.f1[1]).toBeGreaterThan(half.f1);
    expect(board.growover).toHaveLength(1);
    expect(board.growover[0]?.snapshot).toBe(SNAPSHOT);
    expect(board.growover[0]?.entries.map((entry) => [entry.rank, entry.system, entry.ALL.f1])).toEqual([[1, 'golden-doc', 100], [2, 'closed-book', 0]]);
    expect(board.growover[0]?.entries[0]?.ALL.n).toBe(gold().growover.size);
  });

  it('scores every system on every date any of them answers: a system that skips a week cannot tie the oracle', async () => {
    const skip = join(dir, 'skip');
    for (const week of ['2025-02-17', '2025-02-24']) {
      mkdirSync(join(skip, 'oracle'), { recursive: true });
      const date = week === '2025-02-17' ? '2025-02-24' : DATE;
      await runCliOk(['--db', db, 'predict', 'weekly', '--system', 'golden-doc', '--date', date, '--out', join(skip, 'oracle', `${week}.jsonl`), '--llm', 'offline']);
    }
    mkdirSync(join(skip, 'skipper'));
    writeFileSync(join(skip, 'skipper', '2025-02-24.jsonl'), readFileSync(join(skip, 'oracle', '2025-02-24.jsonl')));
    const board = (seed: string) => runCliOk(['--db', db, '--json', 'leaderboard', '--submissions', skip, '--seed', seed]);
    const run = await board('5');
    const parsed = JSON.parse(run.stdout) as { seed: number; dates: string[]; weekly: Array<{ rank: number; system: string; f1: number; missing: number; ci: unknown }> };
    expect(parsed.seed).toBe(5);
    expect(parsed.dates).toEqual(['2025-02-24', DATE]);
    expect(parsed.weekly.map((entry) => [entry.rank, entry.system])).toEqual([[1, 'oracle'], [2, 'skipper']]);
    const [oracle, skipper] = parsed.weekly;
    expect(oracle?.f1).toBe(100);
    expect(skipper?.f1).toBeLessThan(100);
    expect(skipper?.missing).toBe(jsonLines(readFileSync(join(skip, 'oracle', '2025-02-17.jsonl'), 'utf8')).length);
    // The same seed gives the same intervals; another seed draws other resamples.
    expect(JSON.parse((await board('5')).stdout).weekly[1].ci).toEqual(skipper?.ci);
    expect(JSON.parse((await board('6')).stdout).seed).toBe(6);
  });

  it('writes Markdown, HTML with the figures inline and JSON, and the score chart has a line per system', async () => {
    const out = join(dir, 'board');
    const run = await runCliOk(['--db', db, 'leaderboard', '--submissions', subs, '--out', out]);
    expect(run.stdout).toBe(`leaderboard of 3 systems written to ${out}\n`);
    const markdown = readFileSync(join(out, 'README.md'), 'utf8');
    expect(markdown).toMatch(/^\| 1 \| golden-doc \| 100\.0 \[100\.0, 100\.0\] \|/m);
    expect(markdown).toMatch(/^\| 3 \| closed-book \| 0\.0 \[0\.0, 0\.0\] \|/m);
    expect(markdown).toContain('![F1 by days since the answer last changed, one line per system](score-by-days-since-change.svg)');
    const figures = [...markdown.matchAll(/!\[[^\]]*\]\(([^)]+\.svg)\)/g)].map((m) => m[1] as string);
    expect(figures).toEqual(['score-by-days-since-change.svg', 'knowledge-decay.svg', 'answer-changes.svg', 'queries-per-domain.svg', 'growover-labels.svg', 'growover-items.svg']);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html.match(/<svg /g)).toHaveLength(figures.length);
    expect(html).toContain('<td>golden-doc</td>');
    const score = readFileSync(join(out, 'score-by-days-since-change.svg'), 'utf8');
    expect(marks(score, 'line mark')).toHaveLength(3);
    const json = JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8')) as { weekly: Array<{ system: string; by_days_since_change: Record<string, unknown> }> };
    const points = json.weekly.reduce((sum, entry) => sum + Object.keys(entry.by_days_since_change).filter((days) => days !== 'unknown').length, 0);
    expect(marks(score, 'point')).toHaveLength(points);
    // Each point with its interval.
    expect(marks(score, 'rule mark')).toHaveLength(points);
    await runCliOk(['--db', db, 'leaderboard', '--submissions', subs, '--out', out]);
  });

  it("gives each system's current, outdated and wrong answers, splits them at its cutoff, and draws the knowledge decay curve", async () => {
    const decay = join(dir, 'decay');
    mkdirSync(decay);
    // An oracle, a system that answers DATE with the answers of a week before (outdated where they changed since),
    // and the oracle's answers as SQuAD's {id: answer} JSON.
    await runCliOk(['--db', db, 'predict', 'weekly', '--system', 'golden-doc', '--date', DATE, '--out', join(decay, 'oracle.jsonl'), '--llm', 'offline']);
    const oracle = jsonLines(readFileSync(join(decay, 'oracle.jsonl'), 'utf8'));
    writeFileSync(join(decay, 'oracle.jsonl'), oracle.map((line) => `${JSON.stringify({ ...line, date: DATE })}\n`).join(''));
    const weekBefore = join(dir, 'week-before.jsonl');
    await runCliOk(['--db', db, 'predict', 'weekly', '--system', 'golden-doc', '--date', '2025-02-24', '--out', weekBefore, '--llm', 'offline']);
    writeFileSync(join(decay, 'stale.jsonl'), jsonLines(readFileSync(weekBefore, 'utf8')).map((line) => `${JSON.stringify({ ...line, date: DATE })}\n`).join(''));
    writeFileSync(join(decay, 'stale.meta.json'), JSON.stringify({ cutoff: '2025-02-24' }));
    writeFileSync(join(decay, 'squad.json'), JSON.stringify(Object.fromEntries(oracle.map((line) => [line.id, line.prediction])), null, 2));
    const out = join(dir, 'decay-board');
    await runCliOk(['--db', db, 'leaderboard', '--submissions', decay, '--date', DATE, '--out', out]);
    type Entry = { system: string; current: number; outdated: number; wrong: number; cutoff: string | null; by_cutoff?: Record<string, { n: number; outdated: number; f1: number }> };
    const board = JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8')) as { weekly: Entry[] };
    const entry = (system: string) => board.weekly.find((candidate) => candidate.system === system) as Entry;
    expect(entry('oracle')).toMatchObject({ current: 100, outdated: 0, wrong: 0, cutoff: null });
    expect(entry('squad')).toMatchObject({ current: 100 });
    const stale = entry('stale');
    expect(stale.outdated).toBeGreaterThan(0);
    expect(stale.current + stale.outdated + stale.wrong).toBeCloseTo(100, 10);
    // Before its cutoff its answers are the answers; after it, the changes it never saw are outdated.
    expect(stale.by_cutoff?.before).toMatchObject({ f1: 100, outdated: 0 });
    expect(stale.by_cutoff?.after?.outdated).toBeGreaterThan(0);
    const markdown = readFileSync(join(out, 'README.md'), 'utf8');
    expect(markdown).toContain('| rank | system | F1 | EM | SM | current | outdated | wrong | no answer |');
    expect(markdown).toContain("## Before and after each system's training cutoff");
    expect(markdown).toMatch(/^\| stale \| 2025-02-24 \| 100\.0 \[100\.0, 100\.0\] \(\d+\) \| /m);
    expect(markdown).toContain('![Knowledge decay: the share of answers giving a value that held before, by days since the answer changed, one line per system](knowledge-decay.svg)');
    // The decay curve: a point per system and bin with its interval; the oracle at 0, the stale system outdated on the newest changes.
    const curve = marks(readFileSync(join(out, 'knowledge-decay.svg'), 'utf8'), 'point');
    expect(curve.length).toBeGreaterThan(0);
    expect(curve.filter((label) => label.includes('system: oracle')).every((label) => label.includes('outdated (%): 0;'))).toBe(true);
    expect(curve.some((label) => /system: stale/.test(label) && !/outdated \(%\): 0;/.test(label))).toBe(true);
    // --after scores only the answers changed on or after a date: the stale system is then outdated on all it answered of them.
    const after = JSON.parse((await runCli(['--db', db, '--json', 'leaderboard', '--submissions', decay, '--date', DATE, '--after', '2025-02-24'])).stdout) as { after: string; weekly: Entry[] };
    expect(after.after).toBe('2025-02-24');
    expect(after.weekly.find((candidate) => candidate.system === 'stale')?.outdated).toBeGreaterThan(stale.outdated);
  });

  it("stats --plot draws one system's F1 by days since the change from its predictions", async () => {
    const out = join(dir, 'system-figures');
    await runCliOk(['--db', db, 'stats', '--plot', out, '--predictions', join(subs, 'golden-doc', '2025-02-24.jsonl'), '--date', DATE]);
    const board = JSON.parse(readFileSync(join(dir, 'board', 'leaderboard.json'), 'utf8')) as { weekly: Array<{ system: string; by_days_since_change: Record<string, unknown> }> };
    const days = Object.keys(board.weekly.find((entry) => entry.system === 'golden-doc')?.by_days_since_change ?? {}).filter((key) => key !== 'unknown');
    expect(days.length).toBeGreaterThan(2);
    const svg = readFileSync(join(out, 'score-by-days-since-change.svg'), 'utf8');
    expect(marks(svg, 'line mark')).toHaveLength(1);
    const points = marks(svg, 'point');
    expect(points.map((label) => /\(answers scored\): ([^ ]+) \(\d+\);/.exec(label)?.[1]).sort()).toEqual(days.sort());
    // The system by its folder, as a leaderboard names it, not by the week its file is named after.
    expect(points.every((label) => label.includes('F1 (%): 100; system: golden-doc'))).toBe(true);
  });

  it("scores a system's week files as one feed: the same as one file of the same lines, and an id given twice for a date in two files is refused naming the second", async () => {
    // The golden answers split over two week files (the second's lines naming DATE), against the same lines in one file.
    const golden = jsonLines(readFileSync(join(subs, 'golden-doc', '2025-02-24.jsonl'), 'utf8'));
    const [split, whole] = [join(dir, 'split'), join(dir, 'whole')];
    mkdirSync(join(split, 'sys'), { recursive: true });
    mkdirSync(whole, { recursive: true });
    const dated = golden.map((line) => `${JSON.stringify({ ...line, date: DATE })}\n`);
    writeFileSync(join(split, 'sys', '2025-02-17.jsonl'), dated.slice(0, 3).join(''));
    writeFileSync(join(split, 'sys', '2025-02-24.jsonl'), golden.slice(3).map((line) => `${JSON.stringify(line)}\n`).join(''));
    writeFileSync(join(whole, 'sys.jsonl'), dated.join(''));
    const board = async (submissions: string) => {
      const parsed = JSON.parse((await runCliOk(['--db', db, '--json', 'leaderboard', '--submissions', submissions])).stdout) as { dates: string[]; weekly: Array<Record<string, unknown>> };
      return { dates: parsed.dates, weekly: parsed.weekly.map(({ files: _files, ...entry }) => entry) };
    };
    const fromSplit = await board(split);
    expect(fromSplit.dates).toEqual([DATE]);
    expect(fromSplit).toEqual(await board(whole));
    expect(fromSplit.weekly[0]?.f1).toBe(100);

    const first = golden[0] as { id: string };
    writeFileSync(join(split, 'sys', '2025-02-24.jsonl'), [...golden.slice(3), first].map((line) => `${JSON.stringify(line)}\n`).join(''));
    const twice = await runCli(['--db', db, 'leaderboard', '--submissions', split]);
    expect(twice.code).toBe(1);
    expect(twice.errorCode).toBe('E_PREDICTION_DUPLICATE');
    expect(twice.stderr).toContain(`${join(split, 'sys', '2025-02-24.jsonl')} line ${golden.length - 2}: id "${first.id}" for ${DATE} is predicted twice`);
  });

  it('refuses a file it cannot place, naming it, and a flat file without dates', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(join(bad, 'sys'), { recursive: true });
    writeFileSync(join(bad, 'sys', 'week3.jsonl'), '{"id": "a", "prediction": "b"}\n');
    const misnamed = await runCli(['--db', db, 'leaderboard', '--submissions', bad]);
    expect(misnamed.code).toBe(1);
    expect([misnamed.errorCode, misnamed.stderr]).toEqual(['E_PREDICTIONS_INVALID', expect.stringContaining('sys/week3.jsonl: not a submission file')]);
    const flat = join(dir, 'flat');
    mkdirSync(flat);
    writeFileSync(join(flat, 'sys.jsonl'), '{"id": "a", "prediction": "b"}\n');
    const undated = await runCli(['--db', db, 'leaderboard', '--submissions', flat]);
    expect(undated.code).toBe(1);
    expect(undated.errorCode).toBe('E_PREDICTIONS_INVALID');
  });
});

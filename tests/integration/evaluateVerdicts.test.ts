/**
 * Verdicts through the CLI on the embedded sample, worked out by hand from its revisions (changed in
 * a copy of the dump, as a maintainer's history would have them): the season's league position
 * changed twice in one week (4th → 3rd on 02-05, → 2nd on 02-07) and went back to a value it held
 * before (4th again from 03-23); a vandal's year on Port Aldwin, reverted within hours, never held.
 * Then `--after`, a system's cutoff beside its predictions, aliases inserted into the store the way
 * scoring reads them, the judge offline and through the real `openai` client against the local
 * server (once per prompt, cached in the store, junk replies counted), and an audit of the judge's
 * verdicts through the server's API to its kappa.
 */
import Sqlite from 'better-sqlite3';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PredictionJudge, weeklyJudgeItem } from '../../src/evaluate/judge.js';
import type { WeeklyGold } from '../../src/evaluate/weeklyScores.js';
import { OpenAiJudgeTasks } from '../../src/llm/judgeTasks.js';
import { OpenAiClient } from '../../src/llm/openaiClient.js';
import { openDatabase } from '../../src/store/database.js';
import { jsonLines, repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { startOpenAiServer, type OpenAiServer } from '../../testkit/openaiServer.js';
import { servePredictionAudit } from '../../testkit/predictionAudit.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const SEASON = '25012000-108-0';
const POPULATION_YEAR = '25012000-101-0';

/** The sample with the season's changes of 02-08 and 02-23 moved into the week of 02-03, its last change back to 4th, and the vandal also changing the year. */
function editedSample(): string {
  const text = readFileSync(SAMPLE, 'utf8');
  const revision = (id: number) => {
    const start = text.indexOf(`<id>${id}</id>`);
    return [start, text.indexOf('</revision>', start)] as const;
  };
  const edits: Array<[id: number, from: string, to: string]> = [
    [1030, '<timestamp>2025-02-08T21:55:00Z</timestamp>', '<timestamp>2025-02-05T10:00:00Z</timestamp>'],
    [1036, '<timestamp>2025-02-13T12:00:00Z</timestamp>', '<timestamp>2025-02-06T12:00:00Z</timestamp>'],
    [1042, '<timestamp>2025-02-23T20:40:00Z</timestamp>', '<timestamp>2025-02-07T20:40:00Z</timestamp>'],
    [1059, '| league result = 1st', '| league result = 4th'],
    [1031, '| population_as_of = 2024', '| population_as_of = 1999'],
  ];
  let edited = text;
  for (const [id, from, to] of edits.sort((a, b) => revision(b[0])[0] - revision(a[0])[0])) {
    const [start, end] = revision(id);
    const part = edited.slice(start, end);
    expect(part, `revision ${id}`).toContain(from);
    edited = edited.slice(0, start) + part.replace(from, to) + edited.slice(end);
  }
  return edited;
}

/** Each prediction with the verdict worked out by hand: [date, reply, verdict, days since the value last held, changes ago]. */
const SEASON_CASES: Array<[string, string, string, number | null, number | null]> = [
  ['2025-02-03', '3rd', 'future', null, null], // 3rd holds only from 02-05
  ['2025-02-05', '4th', 'current', null, null], // at 00:00, before the 10:00 change
  ['2025-02-06', '4th', 'outdated', 1, 1], // 4th last held on 02-05
  ['2025-02-07', '3rd', 'current', null, null], // 2nd only from 20:40
  ['2025-02-08', '3rd', 'outdated', 1, 1], // the week's second change
  ['2025-02-09', '4th', 'outdated', 4, 2], // both changes of the week ago
  ['2025-02-10', '5th', 'outdated', 15, 3], // held until 01-26
  ['2025-02-11', '1st', 'wrong', null, null], // never held in this history
  ['2025-02-12', '4th', 'outdated', 7, 2], // held before, and again from 03-23: the past is the likelier source
  ['2025-03-01', 'the 2nd place', 'current', null, null], // contained (SM), not exact
  ['2025-03-24', '4th', 'current', null, null], // the second stretch of 4th
  ['2025-03-25', '2nd', 'outdated', 2, 1], // 2nd last held on 03-23
];

describe('verdicts on the sample, worked by hand', () => {
  let dir: string;
  let db: string;
  let predictions: string;
  let items: Map<string, Record<string, unknown>>;
  let report: Record<string, any>;

  beforeAll(async () => {
    dir = tempDir();
    db = join(dir, 'store.sqlite');
    const dump = join(dir, 'edited.xml');
    writeFileSync(dump, editedSample());
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-20', '--dump', dump, '--llm', 'offline']);
    await runCliOk(['--db', db, 'sync', '--until', '2025-03-28', '--dump', dump]);
    predictions = join(dir, 'system.jsonl');
    const lines = [
      ...SEASON_CASES.map(([date, prediction]) => ({ id: SEASON, prediction, date })),
      { id: POPULATION_YEAR, prediction: '1999', date: '2025-02-10' },
      { id: POPULATION_YEAR, prediction: '2023', date: '2025-02-11' },
      { id: POPULATION_YEAR, prediction: 'As of 2024', date: '2025-02-12' },
    ];
    writeFileSync(predictions, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const out = join(dir, 'evaluation');
    report = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'weekly', '--predictions', predictions, '--from', '2025-02-03', '--to', '2025-03-25', '--out', out])).stdout);
    items = new Map(jsonLines(readFileSync(join(out, 'items.jsonl'), 'utf8')).map((item) => [`${String(item.id)} ${String(item.date)}`, item]));
  }, 300_000);

  it('stores the two changes of one week and the return to an earlier value', () => {
    const store = new Sqlite(db, { readonly: true });
    const values = store.prepare("SELECT value, valid_from AS validFrom FROM infobox_intervals WHERE page_id = 108 AND key = 'league_result' ORDER BY valid_from").all();
    const years = store.prepare("SELECT value FROM infobox_intervals WHERE page_id = 101 AND key = 'population_as_of' ORDER BY valid_from").pluck().all();
    store.close();
    expect(values).toEqual([
      { value: '5th', validFrom: '2025-01-10T11:20:00Z' },
      { value: '4th', validFrom: '2025-01-26T22:10:00Z' },
      { value: '3rd', validFrom: '2025-02-05T10:00:00Z' },
      { value: '2nd', validFrom: '2025-02-07T20:40:00Z' },
      { value: '4th', validFrom: '2025-03-23T19:50:00Z' },
    ]);
    expect(years).toEqual(['2023', '2024']);
  });

  it('gives each prediction the verdict, age and changes worked out by hand', () => {
    for (const [date, prediction, verdict, age, changes] of SEASON_CASES) {
      expect(items.get(`${SEASON} ${date}`), `${prediction} on ${date}`).toMatchObject({ prediction, verdict, age_days: age, changes_ago: changes });
    }
    // The vandal's year was reverted within hours: it never held, so it is wrong, not outdated.
    expect(items.get(`${POPULATION_YEAR} 2025-02-10`)).toMatchObject({ gold: '2024', verdict: 'wrong' });
    // 2023 held from the page's creation until 01-21 14:05: 21 days and one change before 02-11.
    expect(items.get(`${POPULATION_YEAR} 2025-02-11`)).toMatchObject({ verdict: 'outdated', age_days: 21, changes_ago: 1 });
    expect(items.get(`${POPULATION_YEAR} 2025-02-12`)).toMatchObject({ verdict: 'current', em: 0, sm: 1 });
    // Every other expected item has no prediction: missing, wrong.
    const unpredicted = [...items.values()].filter((item) => item.prediction === null);
    expect(unpredicted.every((item) => item.verdict === 'wrong' && item.missing === true)).toBe(true);
  });

  it('reports each verdict as a rate with its interval by query, and the outdated answers by age and changes ago', () => {
    // 51 dates × 3 queries, 15 predicted: current 5 (4 season + 1 year), outdated 7 (6 + 1), future 1, wrong 1 + 1 + 138 missing.
    expect(report).toMatchObject({ n: 153, queries: 3, scored: 15, missing: 138, no_value: 0 });
    expect(report.current).toBeCloseTo((100 * 5) / 153, 10);
    expect(report.outdated).toBeCloseTo((100 * 7) / 153, 10);
    expect(report.future).toBeCloseTo((100 * 1) / 153, 10);
    expect(report.wrong).toBeCloseTo((100 * 140) / 153, 10);
    for (const verdict of ['current', 'outdated', 'future', 'wrong']) expect(report.ci[verdict]).toHaveLength(2);
    // Ages 1, 1, 4, 15, 7, 2 (season) and 21 (year); changes ago 1, 1, 2, 3, 2, 1 and 1.
    expect(report.outdated_detail).toEqual({
      n: 7,
      by_age_days: { '1': 2, '2-3': 1, '4-7': 2, '15-30': 2 },
      by_changes_ago: { '1': 4, '2': 2, '3': 1 },
    });
    expect(report.by_domain['Sports and Entertainment']).toMatchObject({ n: 102 });
    expect(report.aliases).toEqual({ items: 0, changed: 0, by_metric: { em: 0, f1: 0, sm: 0 } });
  });

  it('scores only the answers that changed on or after --after, and splits by the cutoff beside the predictions', async () => {
    const after = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'weekly', '--predictions', predictions, '--from', '2025-02-03', '--to', '2025-03-25', '--after', '2025-02-05'])).stdout);
    // Only the season changed on or after 02-05, its 3rd from 02-05 10:00 on: every date from 02-06, 48 of them.
    expect(after).toMatchObject({ evaluation: { after: '2025-02-05' }, n: 48, queries: 1, before_after: 105, outside: { n: 0 } });
    writeFileSync(join(dir, 'system.meta.json'), JSON.stringify({ cutoff: '2025-02-06', model: 'a system trained to 02-06' }));
    const split = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'weekly', '--predictions', predictions, '--from', '2025-02-03', '--to', '2025-03-25'])).stdout);
    // After the cutoff: 2nd (from 02-07 20:40, dates 02-08 .. 03-23) and 4th again (03-24, 03-25); the rest began before it.
    expect(split.by_cutoff).toMatchObject({ cutoff: '2025-02-06', before: { n: 107, queries: 3 }, after: { n: 46, queries: 1 } });
    expect(split.by_cutoff.undetermined).toBeUndefined();
    writeFileSync(join(dir, 'system.meta.json'), '{"cutoff": "last spring"}');
    const bad = await runCli(['--db', db, 'evaluate', 'weekly', '--predictions', predictions, '--date', '2025-02-10']);
    expect(bad.code).toBe(1);
    expect(bad.errorCode).toBe('E_SYSTEM_META_INVALID');
    rmSync(join(dir, 'system.meta.json'));
    const none = await runCli(['--db', db, 'evaluate', 'weekly', '--predictions', predictions, '--date', '2025-02-04', '--after', '2025-02-05', '--cutoff', '2025-02-01']);
    expect(none.code).toBe(1);
    expect(none.errorCode).toBe('E_NOTHING_TO_SCORE');
  });

  it('takes the best over the aliases the store holds, and says how many items had them and how many scores they changed', async () => {
    // Aliases as the store holds them (migration 20): a JSON array in the `aliases` column of the intervals.
    const withAliases = join(dir, 'aliases.sqlite');
    const store = openDatabase(db);
    store.exec(`VACUUM INTO '${withAliases}'`);
    store.close();
    const copy = new Sqlite(withAliases);
    copy.prepare("UPDATE infobox_intervals SET aliases = ? WHERE page_id = 108 AND key = 'league_result' AND value = '3rd'").run(JSON.stringify(['third place', 'third']));
    copy.close();
    const aliased = join(dir, 'aliased.jsonl');
    writeFileSync(
      aliased,
      [
        { id: SEASON, prediction: 'Third place', date: '2025-02-06' }, // an alias of the current value: EM 1
        { id: SEASON, prediction: '3rd', date: '2025-02-07' }, // the value itself: no change
        { id: SEASON, prediction: 'third', date: '2025-02-08' }, // an alias of the value before: outdated
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    const out = join(dir, 'aliased');
    const scored = JSON.parse((await runCliOk(['--db', withAliases, '--json', 'evaluate', 'weekly', '--predictions', aliased, '--from', '2025-02-06', '--to', '2025-02-08', '--out', out])).stdout);
    // 3rd is the answer on 02-06 and 02-07 (two items with aliases); one alias raised one item's EM, F1 and SM.
    expect(scored.aliases).toEqual({ items: 2, changed: 1, by_metric: { em: 1, f1: 1, sm: 1 } });
    const byDate = new Map(jsonLines(readFileSync(join(out, 'items.jsonl'), 'utf8')).filter((item) => item.id === SEASON).map((item) => [item.date, item]));
    expect(byDate.get('2025-02-06')).toMatchObject({ em: 1, verdict: 'current' });
    expect(byDate.get('2025-02-08')).toMatchObject({ em: 0, verdict: 'outdated', changes_ago: 1 });
    // Without the column the same predictions score as the answers alone.
    const plain = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'weekly', '--predictions', aliased, '--from', '2025-02-06', '--to', '2025-02-08'])).stdout);
    expect(plain.aliases.items).toBe(0);
    expect(plain.em).toBeLessThan(scored.em);
  });

  it('names the offline judge as the rule-based verdict, relaxed and strict', async () => {
    const judged = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'weekly', '--predictions', predictions, '--from', '2025-02-03', '--to', '2025-03-25', '--judge', 'offline'])).stdout);
    expect(judged.judge).toMatchObject({ judge: 'rules', provider: 'offline', prompt: { name: 'rule-based-verdict' }, n: 153, failed: 0 });
    expect(judged.judge.description).toMatch(/^the rule-based verdict \(offline, no LLM asked\)/);
    // "the 2nd place" and "As of 2024" are contained, not exact: correct relaxed, wrong strict.
    expect(judged.judge.relaxed.correct - judged.judge.strict.correct).toBeCloseTo((100 * 2) / 153, 10);
  });
});

describe('the LLM judge through the real openai client, and an audit of its verdicts', () => {
  let dir: string;
  let db: string;
  let server: OpenAiServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = tempDir();
    db = join(dir, 'store.sqlite');
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-20', '--dump', SAMPLE, '--llm', 'offline']);
    await runCliOk(['--db', db, 'sync', '--until', '2025-03-28', '--dump', SAMPLE]);
    server = await startOpenAiServer();
    env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('asks once per query, value in effect and reply, caches the replies in the store, and writes each verdict', async () => {
    // The season is 4th from 01-26 to 02-08: the same reply on five of those dates is one prompt.
    const lines = [
      ...['2025-01-28', '2025-01-29', '2025-01-30', '2025-01-31', '2025-02-01'].map((date) => ({ id: SEASON, prediction: '4th', date })),
      { id: SEASON, prediction: '5th', date: '2025-02-02' },
      { id: SEASON, prediction: 'They finished 9th', date: '2025-02-03' },
      { id: POPULATION_YEAR, prediction: '2023', date: '2025-02-01' },
    ];
    const predictions = join(dir, 'system.jsonl');
    writeFileSync(predictions, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const out = join(dir, 'judged');
    const args = ['--db', db, '--json', 'evaluate', 'weekly', '--predictions', predictions, '--from', '2025-01-28', '--to', '2025-02-03', '--judge', 'openai', '--out', out];
    const first = JSON.parse((await runCliOk(args, { env: { ...env, WIKIDELTA_LLM_PRICE_PER_1K_INPUT: '0.5', WIKIDELTA_LLM_PRICE_PER_1K_OUTPUT: '2' } })).stdout);
    expect(server.requests).toHaveLength(4);
    // An evaluation is no run: its report says what the judge spent.
    expect(first.judge.prompt_tokens).toBeGreaterThan(0);
    expect(first.judge.cost).toBeCloseTo((first.judge.prompt_tokens / 1000) * 0.5 + (first.judge.completion_tokens / 1000) * 2, 10);
    expect(server.requests.some((request) => request.body.messages[0]?.content.includes('- from 2025-01-26 (in effect when asked): 4th'))).toBe(true);
    expect(first.judge).toMatchObject({ judge: 'openai', prompt: { name: 'prediction-judge', version: '1' }, n: 21, failed: 0, prompts: 4, requests: 4, cache_hits: 0 });
    // 4th ×5 and 2024's "2023" outdated aside: relaxed correct 5, outdated 2 (5th, 2023), wrong 14 (9th and the 13 missing).
    expect(first.judge.relaxed.correct).toBeCloseTo((100 * 5) / 21, 10);
    expect(first.judge.relaxed.outdated).toBeCloseTo((100 * 2) / 21, 10);
    expect(first.judge.relaxed.wrong).toBeCloseTo((100 * 14) / 21, 10);
    expect(first.judge.agreement_with_rules.relaxed).toBe(100);
    const judged = jsonLines(readFileSync(join(out, 'items.jsonl'), 'utf8')).filter((item) => item.prediction !== null);
    expect(judged.map((item) => (item.judge as { relaxed: string }).relaxed)).toEqual(['outdated', 'correct', 'correct', 'correct', 'correct', 'correct', 'outdated', 'wrong']);
    // Run again: every verdict from the store's cache, none asked.
    const again = JSON.parse((await runCliOk(args, { env })).stdout);
    expect(server.requests).toHaveLength(4);
    expect(again.judge).toMatchObject({ requests: 0, cache_hits: 4, prompt_tokens: 0, completion_tokens: 0, cost: null, relaxed: first.judge.relaxed });
  });

  it('counts a judge that keeps answering junk as verdicts missing, and scores the rest as before', async () => {
    const junk = await startOpenAiServer({ alwaysFault: 'schema-violation' });
    try {
      const predictions = join(dir, 'junk.jsonl');
      writeFileSync(predictions, `${JSON.stringify({ id: SEASON, prediction: '3rd', date: '2025-02-10' })}\n`);
      const result = JSON.parse((await runCliOk(['--db', join(dir, 'store.sqlite'), '--json', 'evaluate', 'weekly', '--predictions', predictions, '--date', '2025-02-10', '--judge', 'openai'], { env: { OPENAI_BASE_URL: junk.baseURL, OPENAI_API_KEY: 'k' } })).stdout);
      expect(result.judge).toMatchObject({ n: 3, failed: 1 });
      expect(result.em).toBeCloseTo(100 / 3, 10);
    } finally {
      await junk.stop();
    }
  });

  it("samples judged predictions into an audit, and reports the judge's precision and kappa against the annotators", async () => {
    const audit = await servePredictionAudit(db, join(dir, 'judged'), 'judge', 8);
    try {
      expect(audit.items).toHaveLength(8);
      expect(new Set(audit.items.map((item) => item.stratum))).toEqual(new Set(['correct', 'outdated', 'wrong']));
      // Alice accepts every verdict; Bob calls the outdated ones wrong and says they are correct.
      for (const name of ['alice', 'bob'] as const) {
        for (const item of audit.items) {
          const body = name === 'bob' && item.stratum === 'outdated' ? { item: item.id, verdict: 'wrong', label: 'correct' } : { item: item.id, verdict: 'correct' };
          const response = await audit.judge(name, body);
          expect(response.status, await response.clone().text()).toBe(201);
        }
      }
      const page = await fetch(`${audit.url}/a/${audit.tokens.alice}?item=${audit.items[0]?.id}`);
      expect(await page.text()).toMatch(/The answer&#39;s values, oldest first|The answer's values, oldest first/);
      // A wrong verdict's right label is one of the judge's verdicts, never the proposed one.
      const outdated = audit.items.find((item) => item.stratum === 'outdated');
      const refused = await audit.judge('bob', { item: outdated?.id, verdict: 'wrong', label: 'outdated' });
      expect(refused.status).toBe(400);
    } finally {
      await audit.close();
    }
    const report = JSON.parse((await runCliOk(['--db', db, '--json', 'audit', 'report', '--name', 'judge'])).stdout);
    const count = (stratum: string) => audit.items.filter((item) => item.stratum === stratum).length;
    // Outdated items split (alice: outdated, bob: correct): no majority, left out. The others agree.
    expect(report.judge).toMatchObject({ judge: 'openai/gpt-4o-mini', mode: 'relaxed', n: 8 - count('outdated'), kappa: 1, left_out: { no_majority: count('outdated'), unjudged: 0 } });
    expect(report.precision.by_stratum.correct).toMatchObject({ value: 1, n: count('correct') });
    expect(report.judge.kappa_interval).toEqual([1, 1]);
    // The text gives the judge's precision by verdict over the items it compares, from its own confusion matrix.
    const text = (await runCliOk(['--db', db, 'audit', 'report', '--name', 'judge'])).stdout;
    const agreed = Object.entries(report.judge.confusion as Record<string, Record<string, number>>).map(([verdict, row]) => `${verdict} ${row[verdict] ?? 0}/${Object.values(row).reduce((sum, n) => sum + n, 0)}`);
    expect(text).toContain(`the majority agrees with its verdict: ${agreed.join(', ')}\n`);
  });
});

describe('the LLM judge on queries that ask the same thing', () => {
  it("asks the prompt of two queries of one question (a page's key asked in two weeks) once", async () => {
    const server = await startOpenAiServer({ latencyMs: 20 });
    try {
      const client = new OpenAiClient({
        baseURL: server.baseURL, apiKey: 'k', model: 'judge-model', concurrency: 4, perMinute: 1000, maxRetries: 0,
        invalidRetries: 0, timeoutMs: 5000, maxReplyBytes: 1 << 20, temperature: 0, seed: 1, cache: null,
      });
      const judge = new PredictionJudge(new OpenAiJudgeTasks(client));
      const timeline = [
        { value: '4th', aliases: [], from: '2025-01-26T22:10:00Z', to: '2025-02-05T10:00:00Z', seen: true },
        { value: '3rd', aliases: [], from: '2025-02-05T10:00:00Z', to: null, seen: true },
      ];
      const gold = (id: string): WeeklyGold => ({
        id, date: '2025-02-10', status: 'ok', answer: '3rd', changedAt: '2025-02-05T10:00:00Z', domain: null, frequency: null, week: null,
        timeline, state: 1, query: 'What is the league position of Port Aldwin Rovers?',
      });
      judge.add(weeklyJudgeItem({ gold: gold('25012000-108-0'), prediction: '3rd' }));
      judge.add(weeklyJudgeItem({ gold: gold('25020300-108-0'), prediction: '3rd' }));
      judge.add(weeklyJudgeItem({ gold: gold('25020300-108-0'), prediction: '4th' }));
      const { report, judgments } = await judge.run(1);
      expect(judgments.map((judgment) => judgment.failed ?? judgment.relaxed)).toEqual(['correct', 'correct', 'outdated']);
      expect(server.requests).toHaveLength(2);
      expect(report).toMatchObject({ prompts: 2, requests: 2, cache_hits: 0 });
    } finally {
      await server.stop();
    }
  });
});

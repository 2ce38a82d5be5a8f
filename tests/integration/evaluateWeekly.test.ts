/**
 * The weekly half of scoring, through the CLI on the embedded sample: the week's collection reaches
 * its end instant so the day after the week (DailyQA's evaluation date) is answered, a revision at
 * exactly that midnight included; the release carries that day's file, the answers of every day as
 * a Parquet table that DuckDB reads back as the store answers, and a Hugging Face card whose types
 * and counts match its files; `evaluate weekly` scores predictions against those answers.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { openDatabase } from '../../src/store/database.js';
import { answersOnDate } from '../../src/timeline/answers.js';
import { checkCard, jsonLinesOf, parquetRows } from '../support/datasetCard.js';
import { Store } from '../../src/store/store.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const SEASON = '2024–25 Port Aldwin Rovers F.C. season';

/** The store's answer to every kept query (of the week, when given) on each day, as rows of the answers table read by DuckDB. */
function storeAnswers(db: string, days: readonly string[], windowStart?: string): Array<Record<string, unknown>> {
  const store = Store.open(db, { readonly: true });
  try {
    const rows = days.flatMap((date) =>
      answersOnDate(store, date, windowStart ? { windowStart } : {}).map((answer) => ({
        id: answer.id,
        date,
        answer: answer.answer,
        status: answer.status,
        valid_from: answer.valid_from === null ? null : String(Date.parse(answer.valid_from)),
        valid_to: answer.valid_to === null ? null : String(Date.parse(answer.valid_to)),
        aliases: [],
      })),
    );
    const key = (row: Record<string, unknown>) => `${String(row.id)} ${String(row.date)}`;
    return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  } finally {
    store.close();
  }
}

describe('the day after a week', () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = tempDir();
    db = join(dir, 'week.sqlite');
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-20', '--dump', SAMPLE]);
  });

  it("answers the day after the week from the week's collection, and releases that day", async () => {
    // The season page's last change of the week was on 01-26 at 22:10.
    const answer = JSON.parse((await runCliOk(['--db', db, '--json', 'answer', '--title', SEASON, '--key', 'league_result', '--date', '2025-01-27'])).stdout);
    expect(answer).toMatchObject({ status: 'ok', answer: '4th', valid_from: '2025-01-26T22:10:00Z' });
    const release = join(dir, 'releases', 'weekly-2025-01-20');
    expect(readdirSync(release).filter((name) => name.startsWith('qa_')).sort()).toEqual(
      ['20', '21', '22', '23', '24', '25', '26', '27'].map((day) => `qa_2501${day}.jsonl`),
    );
    expect(jsonLines(readFileSync(join(release, 'qa_250127.jsonl'), 'utf8'))).toContainEqual(expect.objectContaining({ answer: '4th' }));
    const queries = jsonLinesOf(join(release, 'queries.jsonl'));
    const card = await checkCard(release, { queries: queries.map((query) => ({ ...query, infobox: JSON.stringify(query.infobox) })) });
    expect(card.configs.map((c) => c.config_name)).toEqual(['queries', 'answers']);
  });

  it("gives each kept query's answer on each day of the release as the store answers it, in the Parquet table and the day's DailyQA file alike", async () => {
    const release = join(dir, 'releases', 'weekly-2025-01-20');
    const { rows } = await parquetRows(join(release, 'answers.parquet'));
    const days = ['20', '21', '22', '23', '24', '25', '26', '27'].map((day) => `2025-01-${day}`);
    expect(rows).toEqual(storeAnswers(db, days, '2025-01-20T00:00:00Z'));
    expect(rows.some((row) => row.status === 'ok')).toBe(true);
    for (const date of days) {
      const file = jsonLines(readFileSync(join(release, `qa_${date.slice(2).replace(/-/g, '')}.jsonl`), 'utf8'));
      expect(file.map(({ id, answer }) => ({ id, answer }))).toEqual(rows.filter((row) => row.date === date).map(({ id, answer }) => ({ id, answer })));
    }
  });

  it('writes a range of days of the generated queries as one table, each answer as the store gives it for its day', async () => {
    const range = join(dir, 'range');
    await runCliOk(['--db', db, 'export', 'dailyqa', '--from', '2025-01-20', '--to', '2025-01-27', '--out', range]);
    const days = ['20', '21', '22', '23', '24', '25', '26', '27'].map((day) => `2025-01-${day}`);
    expect((await parquetRows(join(range, 'answers.parquet'))).rows).toEqual(storeAnswers(db, days));
    const queries = (await parquetRows(join(range, 'queries.parquet'))).rows;
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((query) => query.origin === 'generated' && query.week === '2025-01-20' && typeof query.title === 'string' && typeof query.page_id === 'string')).toBe(true);
    await checkCard(range);
  });

  it('counts a revision at exactly the end instant for that day, but not among the changes of the week', async () => {
    const moved = join(dir, 'midnight.xml');
    writeFileSync(moved, readFileSync(SAMPLE, 'utf8').replace('<timestamp>2025-01-26T22:10:00Z</timestamp>', '<timestamp>2025-01-27T00:00:00Z</timestamp>'));
    mkdirSync(join(dir, 'midnight'));
    const midnightDb = join(dir, 'midnight', 'week.sqlite');
    await runCliOk(['--db', midnightDb, 'weekly', '--start', '2025-01-20', '--dump', moved]);
    const answerOn = async (date: string) =>
      JSON.parse((await runCliOk(['--db', midnightDb, '--json', 'answer', '--title', SEASON, '--key', 'league_result', '--date', date])).stdout);
    expect(await answerOn('2025-01-27')).toMatchObject({ status: 'ok', answer: '4th', valid_from: '2025-01-27T00:00:00Z' });
    expect((await answerOn('2025-01-26')).answer).not.toBe('4th');
    const weekChanges = jsonLines((await runCliOk(['--db', midnightDb, 'changes', '--start', '2025-01-20', '--end', '2025-01-26'])).stdout);
    expect(weekChanges.filter((c) => c.title === SEASON)).toEqual([]);
    await runCliOk(['--db', midnightDb, 'weekly', '--start', '2025-01-27', '--dump', moved]);
    // The next week's release, written beside the first, follows it; its manifest names the store's weekly runs.
    const releases = join(dir, 'midnight', 'releases');
    const manifest = (week: string) => JSON.parse(readFileSync(join(releases, `weekly-${week}`, 'MANIFEST.json'), 'utf8'));
    expect(manifest('2025-01-27')).toMatchObject({
      previous: { version: manifest('2025-01-20').version, directory: 'weekly-2025-01-20' },
      store: { runs: [{ id: 1, pipeline: 'weekly' }, { id: 2, pipeline: 'weekly' }] },
      command: expect.stringMatching(/^wikidelta export weekly --start 2025-01-27 --days 7 --wiki \S+$/),
    });
    // The week before's queries are not retired: they are in their own week's release.
    expect(readFileSync(join(releases, 'weekly-2025-01-27', 'CHANGES.md'), 'utf8')).toMatch(/- queries added: [1-9]\d*\n- queries retired: 0\n- queries of the week of 2025-01-20, kept in that week's release: [1-9]\d*\n/);
    const nextWeek = jsonLines((await runCliOk(['--db', midnightDb, 'changes', '--start', '2025-01-27', '--end', '2025-02-02'])).stdout);
    expect(nextWeek).toContainEqual(expect.objectContaining({ title: SEASON, key: 'league_result', new: '4th', timestamp: '2025-01-27T00:00:00Z' }));
  });

  it('scores predictions against the answers on the day after the week', async () => {
    const answers = jsonLines(readFileSync(join(dir, 'releases', 'weekly-2025-01-20', 'qa_250127.jsonl'), 'utf8')) as Array<{ id: string; answer: string }>;
    const [first, second, third] = answers;
    expect(third).toBeDefined();
    const predictions = join(dir, 'predictions.jsonl');
    writeFileSync(
      predictions,
      [
        { id: first?.id, prediction: first?.answer },
        { question_id: second?.id, prediction: `I think it is ${second?.answer}` },
        { id: 'not-a-query', prediction: 'x' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const out = join(dir, 'evaluation');
    const report = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'weekly', '--predictions', predictions, '--date', '2025-01-27', '--out', out])).stdout);
    // second: one token ("73"-like answer) of five predicted → P = 1/5, R = 1, F1 = 1/3; third missing. Percent.
    expect(report).toMatchObject({
      evaluation: { dates: ['2025-01-27'], week: null },
      n: 3,
      queries: 3,
      scored: 2,
      missing: 1,
      unknown: 0,
      missing_sample: [`${third?.id} on 2025-01-27`],
      outside: { n: 1, sample: ['not-a-query on 2025-01-27'] },
    });
    expect(report.em).toBeCloseTo(100 / 3, 10);
    expect(report.f1).toBeCloseTo((100 * (1 + 1 / 3)) / 3, 10);
    expect(report.sm).toBeCloseTo(200 / 3, 10);
    expect(Object.keys(report.by_frequency)).toEqual(expect.arrayContaining(['frequent_update', 'infrequent_update']));
    // No query has its update frequency yet: those classes, and the no-answer gold, have no rate (null, as the text's "—"), not 0.
    expect(report.by_frequency.frequent_update).toMatchObject({ n: 0, queries: 0, em: null, f1: null, sm: null, current: null, wrong: null, ci: null });
    expect(report.no_answer).toEqual({ n: 0, correct: 0, accuracy: null, ci: null });
    expect(Object.values(report.by_domain as Record<string, { n: number }>).reduce((sum, d) => sum + d.n, 0)).toBe(3);
    expect(report.by_week).toEqual({ '2025-01-20': expect.objectContaining({ n: 3, queries: 3 }) });
    for (const metric of ['em', 'f1', 'sm']) expect(report.ci[metric]).toHaveLength(2);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toEqual(report);
    expect(jsonLines(readFileSync(join(out, 'items.jsonl'), 'utf8'))).toHaveLength(3);
    // The same evaluation again into its own directory.
    await runCliOk(['--db', db, 'evaluate', 'weekly', '--predictions', predictions, '--date', '2025-01-27', '--out', out]);

    // The expected items come from the evaluation: leaving out the wrong answer does not raise EM, it is missing and wrong.
    const withWrong = join(dir, 'with-wrong.jsonl');
    const withoutWrong = join(dir, 'without-wrong.jsonl');
    writeFileSync(withWrong, answers.map((a, i) => `${JSON.stringify({ id: a.id, prediction: i === 0 ? 'nonsense' : a.answer })}\n`).join(''));
    writeFileSync(withoutWrong, answers.slice(1).map((a) => `${JSON.stringify({ id: a.id, prediction: a.answer })}\n`).join(''));
    const scored = async (file: string) => JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'weekly', '--predictions', file, '--date', '2025-01-27'])).stdout);
    const [all, partial] = [await scored(withWrong), await scored(withoutWrong)];
    expect(partial.em).toBe(all.em);
    expect(partial.n).toBe(all.n);
    expect(partial.missing).toBe(1);
    const text = (await runCliOk(['--db', db, 'evaluate', 'weekly', '--predictions', withoutWrong, '--date', '2025-01-27'])).stdout;
    expect(text).toContain('3 items expected: 3 with a value (3 queries; 2 predicted) and 0 with no value; 1 missing, counted wrong; 0 unknown gold excluded');

    // Nothing to score is an error naming why: a store with no queries, a date past the history held.
    writeFileSync(predictions, `${JSON.stringify({ id: first?.id, prediction: first?.answer })}\n`);
    const empty = join(dir, 'empty.sqlite');
    openDatabase(empty).close();
    for (const [store, date, why] of [
      [empty, '2025-01-27', /nothing to score: the store holds no kept queries on 2025-01-27/],
      [db, '2025-03-01', /nothing to score: the answers of all 3 kept queries on 2025-03-01 are unknown: their pages' histories held end at \S+: sync --until 2025-03-01 from a source that holds that day/],
    ] as const) {
      const none = await runCli(['--db', store, 'evaluate', 'weekly', '--predictions', predictions, '--date', date]);
      expect(none.code, date).toBe(1);
      expect(none.stderr.trim().split('\n')).toHaveLength(1);
      expect(none.errorCode).toBe('E_NOTHING_TO_SCORE');
      expect(none.stderr).toMatch(why);
    }
  });

  it('refuses a prediction file it cannot read whole, writing nothing', async () => {
    const predictions = join(dir, 'bad.jsonl');
    writeFileSync(predictions, '{"id": "a", "prediction": "x"}\n{"id": "b"}\n');
    const out = join(dir, 'never');
    const result = await runCli(['--db', db, 'evaluate', 'weekly', '--predictions', predictions, '--date', '2025-01-27', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect([result.errorCode, result.stderr]).toEqual(['E_PREDICTIONS_INVALID', expect.stringContaining('bad.jsonl line 2')]);
    expect(existsSync(out)).toBe(false);
    writeFileSync(predictions, '{"id": "a", "prediction": "x"}\n');
    const undated = await runCli(['--db', db, 'evaluate', 'weekly', '--predictions', predictions]);
    expect(undated.code).toBe(2);
    expect([undated.errorCode, undated.stderr]).toEqual(['E_USAGE', expect.stringContaining('say what to evaluate: --date D')]);
    const range = await runCli(['--db', db, 'evaluate', 'weekly', '--predictions', predictions, '--from', '2025-01-20', '--to', '2025-01-27']);
    expect(range.code).toBe(1);
    expect(range.errorCode).toBe('E_PREDICTIONS_INVALID');
  });
});

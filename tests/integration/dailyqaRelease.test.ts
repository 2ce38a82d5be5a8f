/**
 * The 29 published DailyQA days through a range release, as a researcher uses it: imported, written
 * by `export dailyqa --from --to` as one table of every query and day, read back by DuckDB (another
 * Parquet implementation than the writer) and compared with the published files, the JSON lines
 * and the store; the same store writes the same bytes; `release verify` names the file that
 * differs; each release says what changed since the one before, as `release diff` does.
 */
import Sqlite from 'better-sqlite3';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answersOnDate } from '../../src/timeline/answers.js';
import { readDailyQaFile, type DailyQaDay } from '../../src/timeline/dailyqaImport.js';
import { jsonLines, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { checkCard, duckdbRows, parquetRows, type Row } from '../support/datasetCard.js';
import { Store } from '../../src/store/store.js';

const published = join(sharedData, 'dailyqa-release');
const files = readdirSync(published).filter((name) => name.endsWith('.jsonl.gz')).sort().map((name) => join(published, name));
const [FROM, TO] = ['2025-01-04', '2025-02-01'];

function releaseBytes(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(join(dir, name)).toString('base64')]));
}

describe('a DailyQA release of the 29 published days', () => {
  const dir = tempDir();
  const db = join(dir, 'dailyqa.sqlite');
  const release = join(dir, 'releases', 'all');
  let days: DailyQaDay[];
  let rows: Row[];

  beforeAll(async () => {
    await runCliOk(['--db', db, 'import', 'dailyqa', ...files]);
    const written = JSON.parse((await runCliOk(['--db', db, '--json', 'export', 'dailyqa', '--from', FROM, '--to', TO, '--out', release])).stdout);
    expect(written).toMatchObject({ dir: release, counts: { queries: 8360, days: 29, answers: 242_440 }, previous: null });
    days = await Promise.all(files.map((file) => readDailyQaFile(file)));
    rows = (await parquetRows(join(release, 'answers.parquet'))).rows;
  }, 300_000);

  it('holds every query on every day in one Parquet table whose answers are the published ones, nulls included', () => {
    expect(rows).toHaveLength(242_440);
    const publishedAnswer = new Map(days.flatMap((day) => day.rows.map((row) => [`${row.id} ${day.date}`, row.answer] as const)));
    expect(publishedAnswer.size).toBe(242_440);
    const differing = rows.filter((row) => publishedAnswer.get(`${String(row.id)} ${String(row.date)}`) !== row.answer);
    expect(differing).toEqual([]);
    // A published null is "no such value" (no_key), anything else an answer in effect (ok).
    expect(rows.filter((row) => row.status !== (row.answer === null ? 'no_key' : 'ok'))).toEqual([]);
    expect(rows.filter((row) => row.answer === null).length).toBeGreaterThan(0);
    expect(rows.every((row) => Array.isArray(row.aliases) && row.aliases.length === 0)).toBe(true);
  });

  it("gives back each published day's file from the two tables, as DuckDB joins them", async () => {
    for (const day of days) {
      const joined = await duckdbRows(
        `SELECT id, query, answer FROM read_parquet('${join(release, 'answers.parquet')}') AS answers JOIN read_parquet('${join(release, 'queries.parquet')}') AS queries USING (id)
         WHERE date = DATE '${day.date}' ORDER BY id`,
      );
      const sorted = [...day.rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      expect(joined, day.date).toEqual(sorted);
    }
  }, 120_000);

  it('answers each day as the store answers it: status and validity interval included', () => {
    const store = Store.open(db, { readonly: true });
    try {
      const byDay = new Map<string, Row[]>();
      for (const row of rows) {
        const list = byDay.get(String(row.date)) ?? [];
        list.push(row);
        byDay.set(String(row.date), list);
      }
      for (const day of days) {
        const expected = answersOnDate(store, day.date).map((answer) => ({
          id: answer.id,
          date: day.date,
          answer: answer.answer,
          status: answer.status,
          valid_from: answer.valid_from === null ? null : String(Date.parse(answer.valid_from)),
          valid_to: answer.valid_to === null ? null : String(Date.parse(answer.valid_to)),
          aliases: [],
        }));
        expect(byDay.get(day.date), day.date).toEqual(expected);
      }
    } finally {
      store.close();
    }
  }, 120_000);

  it('types the tables in its card as DuckDB reads them and matches every Parquet row with its JSON line', async () => {
    const card = await checkCard(release);
    expect(card.configs.map((config) => [config.config_name, config.default === true])).toEqual([
      ['answers', true],
      ['queries', false],
    ]);
    const { columns } = await parquetRows(join(release, 'answers.parquet'));
    expect(columns).toEqual([
      { name: 'id', type: 'VARCHAR' },
      { name: 'date', type: 'DATE' },
      { name: 'answer', type: 'VARCHAR' },
      { name: 'status', type: 'VARCHAR' },
      { name: 'valid_from', type: 'TIMESTAMP WITH TIME ZONE' },
      { name: 'valid_to', type: 'TIMESTAMP WITH TIME ZONE' },
      { name: 'aliases', type: 'VARCHAR[]' },
    ]);
    // Row groups small enough to stream.
    const groups = await duckdbRows(`SELECT row_group_id, ANY_VALUE(row_group_num_rows) AS n FROM parquet_metadata('${join(release, 'answers.parquet')}') GROUP BY ALL ORDER BY 1`);
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.every((group) => Number(group.n) <= 65_536)).toBe(true);
    // Each row group's first and last date, by which a reader of one day skips the others.
    const dates = await duckdbRows(`SELECT stats_min_value AS first, stats_max_value AS last FROM parquet_metadata('${join(release, 'answers.parquet')}') WHERE path_in_schema = 'date' ORDER BY row_group_id`);
    expect(dates[0]).toEqual({ first: FROM, last: TO });
  }, 120_000);

  it('writes the same bytes from the same store, and verify names the first file that differs', async () => {
    const again = join(dir, 'again');
    await runCliOk(['--db', db, 'export', 'dailyqa', '--from', FROM, '--to', TO, '--out', again]);
    expect(releaseBytes(again)).toEqual(releaseBytes(release));
    const manifest = readFileSync(join(again, 'MANIFEST.json'), 'utf8');
    expect(manifest).not.toContain(dir);
    expect(JSON.parse(manifest)).toMatchObject({
      kind: 'dailyqa',
      date: TO,
      version: expect.stringMatching(/^2025-02-01\+[0-9a-f]{12}$/),
      command: `wikidelta export dailyqa --from ${FROM} --to ${TO}`,
      parameters: { from: FROM, to: TO },
      wikidelta: { version: expect.any(String) },
      store: { schema_version: expect.any(Number), runs: [] },
      previous: null,
      files: expect.arrayContaining([expect.objectContaining({ path: 'answers.parquet', rows: 242_440 }), expect.objectContaining({ path: 'queries.jsonl', rows: 8360 })]),
    });

    expect((await runCliOk(['release', 'verify', again])).stdout).toMatch(/release 2025-02-01\+[0-9a-f]{12} verified, 8 files match MANIFEST.json/);
    const parquet = readFileSync(join(again, 'answers.parquet'));
    const middle = parquet.length >> 1;
    parquet.writeUInt8(parquet.readUInt8(middle) ^ 1, middle);
    writeFileSync(join(again, 'answers.parquet'), parquet);
    const changed = await runCli(['release', 'verify', again]);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/^wikidelta: E_RELEASE_INVALID: .*again: answers\.parquet has SHA-256 [0-9a-f]{64} where the manifest says [0-9a-f]{64}\n$/);
    unlinkSync(join(again, 'README.md'));
    expect((await runCli(['release', 'verify', again])).stderr).toMatch(/again: README\.md is missing\n$/);
    cpSync(join(release, 'README.md'), join(again, 'README.md'));
    cpSync(join(release, 'answers.parquet'), join(again, 'answers.parquet'));
    appendFileSync(join(again, 'queries.jsonl'), '{"id":"x"}\n');
    expect((await runCli(['release', 'verify', again])).stderr).toMatch(/again: queries\.jsonl has \d+ bytes where the manifest says \d+\n$/);
    cpSync(join(release, 'queries.jsonl'), join(again, 'queries.jsonl'));
    writeFileSync(join(again, 'notes.txt'), 'mine');
    expect((await runCli(['release', 'verify', again])).stderr).toMatch(/again: notes\.txt is not in the manifest\n$/);
    rmSync(join(again, 'notes.txt'));
    await runCliOk(['release', 'verify', again]);
  }, 120_000);

  it('says what changed since the release before: days added, queries added and retired, answers changed and on which days', async () => {
    const series = join(dir, 'series');
    const early = join(series, 'to-0125');
    const late = join(series, 'to-0201');
    await runCliOk(['--db', db, 'export', 'dailyqa', '--from', FROM, '--to', '2025-01-25', '--out', early]);
    // Beside the earlier release of the series: it follows that one.
    const first = JSON.parse((await runCliOk(['--db', db, '--json', 'export', 'dailyqa', '--from', FROM, '--to', TO, '--out', late])).stdout);
    expect(first.previous).toBe(JSON.parse(readFileSync(join(early, 'MANIFEST.json'), 'utf8')).version);
    expect(first.changes).toEqual({
      queries: { before: 8360, after: 8360, added: 0, retired: 0, replaced: 0 },
      days: { before: { first: FROM, last: '2025-01-25', count: 22 }, after: { first: FROM, last: TO, count: 29 } },
      answers_changed: { queries: 0, days: 0 },
      validity_changed: { queries: 0, days: 0 },
      update_frequency_changed: 0,
    });

    // The store changes: a published answer corrected, a query added, one taken out of the dataset.
    const day = days.find((d) => d.date === '2025-01-20') as DailyQaDay;
    const corrected = day.rows.find((row) => row.answer !== null) as DailyQaDay['rows'][number];
    mkdirSync(join(dir, 'fix'));
    const fix = join(dir, 'fix', 'qa_250120.jsonl');
    writeFileSync(fix, `${JSON.stringify({ ...corrected, answer: `${corrected.answer} (corrected)` })}\n${JSON.stringify({ id: '25012000-99999-0', query: 'A new question?', answer: 'new' })}\n`);
    await runCliOk(['--db', db, 'import', 'dailyqa', fix]);
    const store = new Sqlite(db);
    const dropped = '25011200-1073-0';
    store.prepare('UPDATE queries SET kept = 0 WHERE id = ?').run(dropped);
    store.close();

    const before = join(dir, 'late-before');
    cpSync(late, before, { recursive: true });
    const second = JSON.parse((await runCliOk(['--db', db, '--json', 'export', 'dailyqa', '--from', FROM, '--to', TO, '--out', late])).stdout);
    expect(second.previous).toBe(first.version);
    expect(second.changes).toMatchObject({ queries: { before: 8360, after: 8360, added: 1, retired: 1 }, answers_changed: { queries: 1, days: 1 } });
    const [summary, ...changes] = jsonLines(readFileSync(join(late, 'changes.jsonl'), 'utf8'));
    expect(summary).toEqual({ change: 'summary', kind: 'dailyqa', version: second.version, previous: first.version, counts: second.changes });
    expect(changes).toEqual([
      { change: 'query_added', id: '25012000-99999-0' },
      { change: 'query_retired', id: dropped },
      {
        change: 'answer_changed',
        id: corrected.id,
        days: [{ date: '2025-01-20', before: { answer: corrected.answer, status: 'ok' }, after: { answer: `${corrected.answer} (corrected)`, status: 'ok' } }],
      },
      // The correction cuts the interval the answer held over: the days around it keep their answer, with another validity.
      { change: 'validity_changed', id: corrected.id, days: expect.not.arrayContaining(['2025-01-20']) as unknown },
    ]);
    expect(second.changes).toMatchObject({ validity_changed: { queries: 1 }, update_frequency_changed: 0 });
    const markdown = readFileSync(join(late, 'CHANGES.md'), 'utf8');
    expect(markdown).toContain(`# What changed in dailyqa release ${second.version} since ${first.version}`);
    expect(markdown).toContain(`| \`${corrected.id}\` | 2025-01-20 | ${corrected.answer} | ${corrected.answer} (corrected) |`);
    expect(JSON.parse(readFileSync(join(late, 'MANIFEST.json'), 'utf8')).previous).toEqual({ version: first.version, directory: 'to-0201' });
    const diffed = await runCliOk(['--json', 'release', 'diff', before, late]);
    expect(diffed.stdout).toBe(readFileSync(join(late, 'changes.jsonl'), 'utf8'));
    expect((await runCliOk(['release', 'diff', before, late])).stdout).toBe(markdown);
    const reversed = await runCli(['release', 'diff', late, early]);
    expect([reversed.code, reversed.stderr]).toEqual([2, `wikidelta: E_USAGE: ${late} (${TO}) is later than ${early} (2025-01-25): give the earlier release first\n`]);
    // A file that is not the one its manifest lists is no ground for what changed.
    const edited = join(dirname(late), 'edited');
    cpSync(late, edited, { recursive: true });
    appendFileSync(join(edited, 'queries.jsonl'), '{"id":"made-up","query":"?"}\n');
    const refused = await runCli(['release', 'diff', before, edited]);
    expect([refused.code, refused.errorCode]).toEqual([1, 'E_RELEASE_INVALID']);
    expect(refused.stderr).toMatch(/edited: queries\.jsonl has \d+ bytes where the manifest says \d+\n$/);

    // Nothing changed since: written again as it was, the same version, predecessor and changes.
    const kept = releaseBytes(late);
    const third = JSON.parse((await runCliOk(['--db', db, '--json', 'export', 'dailyqa', '--from', FROM, '--to', TO, '--out', late])).stdout);
    expect(third).toMatchObject({ version: second.version, previous: first.version, changes: 'unchanged' });
    expect(releaseBytes(late)).toEqual(kept);
  }, 300_000);

  it('refuses a range without its other end, one with --date, and a reversed one, with one line each', async () => {
    const half = await runCli(['--db', db, 'export', 'dailyqa', '--from', FROM]);
    expect(half.code).toBe(2);
    expect(half.stderr).toBe('wikidelta: E_USAGE: give both --from and --to for a range release\n');
    expect((await runCli(['--db', db, 'export', 'dailyqa', '--from', FROM, '--to', TO, '--date', TO])).stderr).toMatch(/^wikidelta: E_USAGE: --date and --week are for one day/);
    const reversed = await runCli(['--db', db, 'export', 'dailyqa', '--from', TO, '--to', FROM, '--out', join(dir, 'reversed')]);
    expect(reversed.code).toBe(1);
    expect(reversed.errorCode).toBe('E_DATE_RANGE_INVALID');
  });
});

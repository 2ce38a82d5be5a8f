import Sqlite from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerQuery } from '../../src/timeline/answers.js';
import { dailyQaDay } from '../../src/timeline/dailyqaExport.js';
import { compressDays, importDailyQa, readDailyQaFile } from '../../src/timeline/dailyqaImport.js';
import { classifyUpdateFrequency, finalizeUpdateFrequency } from '../../src/timeline/updateFrequency.js';
import { errorOf, jsonLines, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { Store } from '../../src/store/store.js';

const releaseDir = join(sharedData, 'dailyqa-release');
const files = readdirSync(releaseDir).filter((name) => name.endsWith('.jsonl.gz')).sort().map((name) => join(releaseDir, name));

describe('DailyQA import and export round trip on the published release', () => {
  const dir = tempDir();
  const db = join(dir, 'dailyqa.sqlite');

  beforeAll(async () => {
    const imported = await runCliOk(['--db', db, '--json', 'import', 'dailyqa', ...files]);
    const counts = JSON.parse(imported.stdout) as { files: number; queries: number; days: number; intervals: number };
    expect(counts).toMatchObject({ files: 29, queries: 8360, days: 242_440 });
    // Intervals, not daily rows: reported here, and far fewer than the days they cover.
    console.log(`DailyQA release: ${counts.days} daily answers stored as ${counts.intervals} intervals`);
    expect(counts.intervals).toBeLessThan(counts.days / 5);
  }, 120_000);

  it('gives back, for all 29 dates and every id, exactly the answer of that day\'s file, nulls included', async () => {
    expect(files).toHaveLength(29);
    const store = Store.open(db, { readonly: true });
    try {
      for (const file of files) {
        const day = await readDailyQaFile(file);
        const exported = new Map(jsonLines(dailyQaDay(store, day.date).lines).map((row) => [row.id, row]));
        expect(exported.size).toBe(day.rows.length);
        for (const row of day.rows) expect(exported.get(row.id), `${row.id} on ${day.date}`).toEqual(row);
      }
    } finally {
      store.close();
    }
  }, 120_000);

  it('writes a date through the command line into a qa_YYMMDD.jsonl file', async () => {
    await runCliOk(['--db', db, 'export', 'dailyqa', '--date', '2025-01-20', '--out', dir]);
    const day = await readDailyQaFile(join(releaseDir, 'qa_250120.jsonl.gz'));
    const written = await readDailyQaFile(join(dir, 'qa_250120.jsonl'));
    expect(written.rows).toEqual([...day.rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    // A .gz name is written gzipped, as the published files are, and reads back the same.
    await runCliOk(['--db', db, 'export', 'dailyqa', '--date', '2025-01-20', '--out', join(dir, 'qa_250120.jsonl.gz')]);
    expect([...readFileSync(join(dir, 'qa_250120.jsonl.gz')).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect((await readDailyQaFile(join(dir, 'qa_250120.jsonl.gz'))).rows).toEqual(written.rows);
    // Past the imported days nothing is known: DailyQA's null would say "no value", so nothing is written.
    const unknown = await runCli(['--db', db, 'export', 'dailyqa', '--date', '2026-01-01', '--out', join(dir, 'qa_260101.jsonl')]);
    expect([unknown.code, unknown.errorCode]).toEqual([1, 'E_ANSWERS_UNKNOWN']);
    expect(existsSync(join(dir, 'qa_260101.jsonl'))).toBe(false);
    // A week the store holds no query of (a mistyped first day) is refused, not written as an empty file.
    const noWeek = await runCli(['--db', db, 'export', 'dailyqa', '--date', '2025-01-20', '--week', '2020-06-01', '--out', join(dir, 'week.jsonl')]);
    expect([noWeek.code, noWeek.errorCode]).toEqual([1, 'E_PREREQUISITE_MISSING']);
    expect(existsSync(join(dir, 'week.jsonl'))).toBe(false);
  });

  it('answers an imported query on a date, and says unknown outside the imported days', () => {
    const store = Store.open(db, { readonly: true });
    try {
      const id = '25011200-100-0';
      expect(answerQuery(store, id, '2025-01-20')).toMatchObject({ status: 'ok', answer: '12' });
      expect(answerQuery(store, id, '2024-12-01').status).toBe('unknown');
    } finally {
      store.close();
    }
  });

  it('merges imports made file by file into the same intervals as one import of all', async () => {
    const piecewise = Store.open(join(dir, 'piecewise.sqlite'));
    for (const file of [...files].reverse().slice(0, 10)) await importDailyQa(piecewise, [file]);
    await importDailyQa(piecewise, [...files].reverse().slice(10));
    const whole = new Sqlite(db, { readonly: true });
    const dump = (store: Sqlite.Database) => store.prepare('SELECT * FROM query_answer_intervals ORDER BY query_id, valid_from').all();
    expect(dump(piecewise.db)).toEqual(dump(whole));
    piecewise.close();
    whole.close();
  });

  it('reads a file named twice once, and counts each daily answer once', async () => {
    const store = Store.open(join(dir, 'twice.sqlite'));
    try {
      const [first, second] = files as [string, string];
      const once = await importDailyQa(store, [first, second]);
      const twice = await importDailyQa(store, [first, second, first, join(first, '..', '.', basename(first))]);
      expect(twice).toEqual(once);
      expect(once).toMatchObject({ files: 2, days: (await readDailyQaFile(first)).rows.length + (await readDailyQaFile(second)).rows.length });
    } finally {
      store.close();
    }
  });

  it('refuses a bad file with its name and line, writing nothing', async () => {
    const bad = join(dir, 'qa_250301.jsonl');
    writeFileSync(bad, '{"id": "x-1", "query": "q?", "answer": "a"}\n{"id": "x-2", "query": 5}\n');
    const result = await runCli(['--db', db, 'import', 'dailyqa', bad]);
    expect(result.code).toBe(1);
    expect(errorOf(result.stderr)).toEqual({ code: 'E_DAILYQA_FILE_INVALID', message: expect.stringMatching(/qa_250301\.jsonl line 2: query: /) });
    const store = new Sqlite(db, { readonly: true });
    expect(store.prepare("SELECT COUNT(*) FROM queries WHERE id LIKE 'x-%'").pluck().get()).toBe(0);
    store.close();
    const misnamed = join(dir, 'answers.jsonl');
    writeFileSync(misnamed, '');
    expect((await runCli(['--db', db, 'import', 'dailyqa', misnamed])).errorCode).toBe('E_DAILYQA_FILE_INVALID');
  });
});

describe('readDailyQaFile', () => {
  it('reads a file saved with a byte order mark and CRLF line ends', async () => {
    const path = join(tempDir(), 'qa_250301.jsonl');
    writeFileSync(path, '\uFEFF{"id": "x-1", "query": "q?", "answer": "a"}\r\n{"id": "x-2", "query": "r?", "answer": null}\r\n');
    expect(await readDailyQaFile(path)).toEqual({
      date: '2025-03-01',
      rows: [
        { id: 'x-1', query: 'q?', answer: 'a' },
        { id: 'x-2', query: 'r?', answer: null },
      ],
    });
  });
});

describe('compressDays', () => {
  it('merges equal answers on consecutive days only, never across a missing day', () => {
    const days = new Map<string, string | null>([
      ['2025-01-01', 'a'],
      ['2025-01-02', 'a'],
      ['2025-01-04', 'a'],
      ['2025-01-05', null],
    ]);
    expect(compressDays(days)).toEqual([
      { validFrom: '2025-01-01', validTo: '2025-01-03', answer: 'a' },
      { validFrom: '2025-01-04', validTo: '2025-01-05', answer: 'a' },
      { validFrom: '2025-01-05', validTo: '2025-01-06', answer: null },
    ]);
  });
});

describe('update frequency and answer-change statistics on the published release', () => {
  it('labels queries whose 21 days are covered, leaves the others pending, and reports daily changes', async () => {
    const dir = tempDir();
    const store = Store.open(join(dir, 'frequency.sqlite'));
    await importDailyQa(store, files);
    const counts = finalizeUpdateFrequency(store);
    // Queries made 2025-01-12 are observed through day 21 (2025-02-01): they get a class.
    const labels = store.db.prepare("SELECT update_frequency AS label, COUNT(*) AS n FROM queries WHERE id LIKE '25011200-%' GROUP BY label").all() as Array<{ label: string; n: number }>;
    expect(labels.map((row) => row.label).sort()).toEqual(['frequent_update', 'infrequent_update']);
    // Queries made later are not observed that far: pending, never guessed.
    expect(store.db.prepare("SELECT COUNT(*) FROM queries WHERE id LIKE '25011800-%' AND update_frequency != 'pending'").pluck().get()).toBe(0);
    expect(counts.pending).toBeGreaterThan(0);
    store.close();

    const stats = await runCliOk(['--db', join(dir, 'frequency.sqlite'), '--json', 'stats']);
    const { weeks } = JSON.parse(stats.stdout) as { weeks: Array<{ week: string; queries: number; daily_changes: Array<{ changed: number }>; changes_per_query: Record<string, number> }> };
    expect(weeks[0]?.week).toBe('2025-01-12');
    expect(weeks[0]?.daily_changes).toHaveLength(28);
    const histogramTotal = Object.values(weeks[0]?.changes_per_query ?? {}).reduce((a, b) => a + b, 0);
    expect(histogramTotal).toBe(weeks[0]?.queries);
  }, 120_000);
});

describe('classifyUpdateFrequency', () => {
  const known = (answer: string | null) => ({ answer, known: true });
  it('is frequent when the answer changes from day 8 on, infrequent otherwise, pending while unknown', () => {
    expect(classifyUpdateFrequency(['a', 'a', 'b'].map(known))).toBe('frequent_update');
    expect(classifyUpdateFrequency(['a', 'a', 'a'].map(known))).toBe('infrequent_update');
    expect(classifyUpdateFrequency(['a', null].map(known))).toBe('frequent_update');
    expect(classifyUpdateFrequency([known('a'), { answer: null, known: false }])).toBe('pending');
  });
});

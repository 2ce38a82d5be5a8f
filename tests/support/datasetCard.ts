/**
 * A release read back as its consumers read it: the card's YAML front matter parsed and checked
 * against the files it names, every Parquet file opened by DuckDB (a reader independent of the
 * writer) and compared row by row with the JSON lines beside it, and the manifest verified.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { readManifest } from '../../src/release/manifest.js';
import { verifyRelease } from '../../src/release/verifyRelease.js';

const Feature = z.union([z.object({ name: z.string(), dtype: z.string() }).strict(), z.object({ name: z.string(), sequence: z.string() }).strict()]);
const Card = z.object({
  license: z.enum(['cc-by-sa-4.0', 'cc0-1.0']),
  language: z.array(z.string().min(2)).min(1),
  task_categories: z.array(z.string()).min(1),
  configs: z.array(z.object({ config_name: z.string(), default: z.boolean().optional(), data_files: z.array(z.object({ split: z.string().regex(/^\w+$/), path: z.string() })).min(1) })).min(1),
  dataset_info: z.array(
    z.object({
      config_name: z.string(),
      features: z.array(Feature).min(1),
      splits: z.array(z.object({ name: z.string(), num_examples: z.number().int().min(0) })).min(1),
    }),
  ),
});
export type CheckedCard = z.infer<typeof Card>;
export type Row = Record<string, unknown>;

/** DuckDB's type for each Hugging Face dtype the cards use. */
const DUCKDB_TYPE: Record<string, string> = {
  string: 'VARCHAR',
  date32: 'DATE',
  'timestamp[ms, tz=UTC]': 'TIMESTAMP WITH TIME ZONE',
  int32: 'INTEGER',
  int64: 'BIGINT',
  float64: 'DOUBLE',
  bool: 'BOOLEAN',
};

/** Runs SQL in a fresh in-memory DuckDB and gives the rows as JSON values (dates and big integers as text). */
export async function duckdbRows(sql: string): Promise<Row[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Row[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * A Parquet file's rows as DuckDB reads them, each value in the form its JSON line gives it:
 * dates as YYYY-MM-DD, timestamps as epoch milliseconds (text), 64-bit integers as text, lists as arrays.
 */
export async function parquetRows(path: string): Promise<{ columns: Array<{ name: string; type: string }>; rows: Row[] }> {
  const columns = (await duckdbRows(`DESCRIBE SELECT * FROM read_parquet('${path}')`)).map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
  const select = columns
    .map(({ name, type }) => {
      const column = `"${name}"`;
      if (type === 'DATE') return `CAST(${column} AS VARCHAR) AS ${column}`;
      if (type === 'TIMESTAMP WITH TIME ZONE') return `epoch_ms(${column}) AS ${column}`;
      return column;
    })
    .join(', ');
  return { columns, rows: await duckdbRows(`SELECT ${select} FROM read_parquet('${path}')`) };
}

/** A JSON line's value in the form `parquetRows` gives it, by DuckDB column type. */
function asRead(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return type.endsWith('[]') ? [] : null;
  if (type === 'TIMESTAMP WITH TIME ZONE') return String(Date.parse(String(value)));
  if (type === 'BIGINT') return String(value);
  return value;
}

/**
 * Checks every Parquet file against its JSON-lines twin, row by row: `twin` gives a table's records
 * (by default the same-named .jsonl), in the order of the Parquet rows.
 */
export async function compareWithTwin(path: string, twin: Row[]): Promise<Row[]> {
  const { columns, rows } = await parquetRows(path);
  expect(rows.length, `${path}: rows`).toBe(twin.length);
  const expected = twin.map((record) => Object.fromEntries(columns.map(({ name, type }) => [name, asRead(record[name], type)])));
  // Hundreds of thousands of rows: compared as text, and the first that differs shown as objects.
  const first = rows.findIndex((row, index) => JSON.stringify(row) !== JSON.stringify(expected[index]));
  if (first !== -1) expect(rows[first], `${path} row ${first}`).toEqual(expected[first]);
  return rows;
}

/**
 * The release's card, checked: its YAML parses, every config names files that exist, its features
 * are the Parquet columns' types as DuckDB reads them and its row counts theirs; every Parquet file
 * equals its twin (`twins` gives the records for tables whose JSON lines have another shape); the
 * manifest verifies.
 */
export async function checkCard(dir: string, twins: Record<string, Row[]> = {}): Promise<CheckedCard> {
  const text = readFileSync(join(dir, 'README.md'), 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  expect(match, 'front matter').not.toBeNull();
  const card = Card.parse(parseYaml(match?.[1] ?? ''));
  expect(card.configs.filter((config) => config.default)).toHaveLength(1);
  for (const config of card.configs) {
    const info = card.dataset_info.find((entry) => entry.config_name === config.config_name);
    for (const file of config.data_files) {
      const path = join(dir, file.path);
      expect(existsSync(path), file.path).toBe(true);
      // A registered format whose card names its files without features (docs/ARCHITECTURE.md §8) has
      // no dataset_info; its rows are the manifest's, which verifyRelease checks below.
      if (!file.path.endsWith('.parquet')) continue;
      expect(info, `dataset_info of ${config.config_name}`).toBeDefined();
      const table = file.path.replace(/\.parquet$/, '');
      const twin = twins[table] ?? jsonLinesOf(join(dir, `${table}.jsonl`));
      const { columns } = await parquetRows(path);
      expect(columns, `${file.path}: columns and types`).toEqual(
        (info?.features ?? []).map((feature) => ({ name: feature.name, type: 'dtype' in feature ? DUCKDB_TYPE[feature.dtype] : `${DUCKDB_TYPE[feature.sequence]}[]` })),
      );
      expect(info?.splits.find((split) => split.name === file.split)?.num_examples, `${file.path}: num_examples`).toBe(twin.length);
      await compareWithTwin(path, twin);
    }
  }
  const verified = await verifyRelease(dir);
  expect(verified).toMatchObject({ ok: true });
  const manifest = readManifest(dir);
  for (const file of manifest.files.filter((entry) => entry.path.endsWith('.parquet'))) {
    const [count] = await duckdbRows(`SELECT COUNT(*) AS n FROM read_parquet('${join(dir, file.path)}')`);
    expect(Number(count?.n), `${file.path}: manifest rows`).toBe(file.rows);
  }
  return card;
}

/** The records of a GrowOVER release's tables, from GrowOVER's keyed JSON lines, as the Parquet tables give them. */
export function growoverTwins(dir: string): Record<string, Row[]> {
  const keyed = (file: string) => jsonLinesOf(join(dir, file)).flatMap((line) => Object.entries(line));
  return {
    qa: keyed('qa.jsonl').flatMap(([article, items]) => (items as Row[]).map((item) => ({ article_id: article, ...item }))),
    dialogue: keyed('dialogue.jsonl').map(([id, dialogue]) => {
      const { turn, ...rest } = dialogue as Row & { turn: Record<string, string> };
      return { id, ...rest, turn_ids: Object.values(turn) };
    }),
    turn: keyed('turn.jsonl').map(([id, turn]) => ({ id, ...(turn as Row), turn_number: Number((turn as Row).turn_number) })),
  };
}

export function jsonLinesOf(path: string): Row[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Row);
}

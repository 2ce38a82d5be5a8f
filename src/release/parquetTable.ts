/**
 * A release table's columns and the two encodings the registered formats write (`./formats`): JSON
 * lines and typed Parquet (docs/ARCHITECTURE.md §8), with the Hugging Face features its dataset card
 * declares. One column list drives the Parquet schema, the conversion of each value and the card's
 * types, so the three cannot drift apart. Parquet is written by hyparquet-writer: plain JavaScript (no native
 * build, no threads), whose output depends on its input alone, so the same store still gives
 * byte-identical files.
 */
import type { SchemaElement } from 'hyparquet-writer';

/**
 * A column's type, as written to Parquet and declared to Hugging Face: dates are DATE (days), times
 * TIMESTAMP (milliseconds, UTC), lists Parquet LISTs of their element; `json` is any JSON value (an
 * object in JSON lines, its JSON text in Parquet: a map has no column type every reader shares).
 */
export type ColumnType = 'string' | 'date' | 'timestamp' | 'int32' | 'int64' | 'float64' | 'bool' | 'strings' | 'int32s' | 'json';

export interface Column {
  name: string;
  type: ColumnType;
  /** May be null (a list column is never null: an empty list says "none"). */
  nullable?: boolean;
  /** Few distinct values over many rows (ids repeated per day, dates, statuses): dictionary-encoded. */
  repeats?: boolean;
  /** Min/max per row group, which readers skip row groups by (default on; off where no one filters by range, to save the writing). */
  statistics?: boolean;
}

/** A table of a release: its file stem (`answers` → answers.jsonl, answers.parquet: one file per format), which also names its card config. */
export interface TableSpec {
  name: string;
  columns: readonly Column[];
}

/**
 * A record as its JSON line gives it: dates as YYYY-MM-DD, times as ISO 8601 instants, lists as
 * arrays. A column absent from a record is null.
 */
export type TableRecord = Readonly<Record<string, unknown>>;

/** The feature of one column in the card's `dataset_info` (datasets' YAML form). */
export type CardFeature = { name: string; dtype: string } | { name: string; sequence: string };

/**
 * Rows per row group: a row group is the unit a streaming reader (datasets with `streaming=True`,
 * DuckDB over HTTP) fetches and holds, so it is bounded by about 32 MB of JSON text and 65,536 rows,
 * whichever comes first.
 */
const ROW_GROUP_BYTES = 32 * 1024 * 1024;
const ROW_GROUP_ROWS = 65_536;
const DAY_MS = 86_400_000;

const DTYPE: Record<ColumnType, string> = {
  string: 'string',
  date: 'date32',
  timestamp: 'timestamp[ms, tz=UTC]',
  int32: 'int32',
  int64: 'int64',
  float64: 'float64',
  bool: 'bool',
  strings: 'string',
  int32s: 'int32',
  json: 'string',
};

/** The table's columns as Hugging Face features. */
export function cardFeatures(spec: TableSpec): CardFeature[] {
  return spec.columns.map((column) =>
    column.type === 'strings' || column.type === 'int32s' ? { name: column.name, sequence: DTYPE[column.type] } : { name: column.name, dtype: DTYPE[column.type] },
  );
}

/**
 * The records as JSON lines, each with the table's columns in order (null when absent), as UTF-8
 * bytes: a line is put together from its values' JSON without building an object per record, and
 * the text is turned into bytes a megabyte at a time, so a table of millions of rows is held once.
 */
export function jsonLinesOf(spec: TableSpec, records: readonly TableRecord[]): Buffer {
  const names = spec.columns.map((column) => column.name);
  const prefixes = names.map((name, index) => `${index === 0 ? '{' : ','}${JSON.stringify(name)}:`);
  // A repeated value (an id on each of its days, a date, a status) is turned into JSON once.
  const known = spec.columns.map((column) => (column.repeats ? new Map<unknown, string>() : undefined));
  const json = (index: number, value: unknown): string => {
    const cache = known[index];
    if (cache === undefined) return JSON.stringify(value);
    let text = cache.get(value);
    if (text === undefined) cache.set(value, (text = JSON.stringify(value)));
    return text;
  };
  const pieces: Buffer[] = [];
  let text = '';
  for (const record of records) {
    for (let index = 0; index < names.length; index++) text += (prefixes[index] as string) + json(index, record[names[index] as string] ?? null);
    text += '}\n';
    if (text.length >= 1 << 20) {
      pieces.push(Buffer.from(text));
      text = '';
    }
  }
  pieces.push(Buffer.from(text));
  return Buffer.concat(pieces);
}

/**
 * The records as a Parquet file; the size of their JSON lines (`jsonBytes`, measured when not given,
 * a JSON column as the text Parquet holds) sizes the row groups. The writer is loaded on first use,
 * so commands that write no release never load it.
 */
export async function parquetOf(spec: TableSpec, rows: readonly TableRecord[], jsonBytes?: number): Promise<Uint8Array> {
  const records = withJsonAsText(spec, rows);
  const bytes = jsonBytes ?? jsonLinesOf(spec, records).byteLength;
  const { ParquetWriter, ByteWriter } = await import('hyparquet-writer');
  const perRow = records.length === 0 ? 1 : Math.max(1, bytes / records.length);
  const rowGroupSize = Math.max(1, Math.min(ROW_GROUP_ROWS, Math.floor(ROW_GROUP_BYTES / perRow)));
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({ writer, schema: schemaOf(spec), createdBy: 'wikidelta' });
  parquet.write({
    columnData: spec.columns.map((column) => ({
      name: column.name,
      data: columnValues(column, records),
      ...(column.repeats ? { encoding: 'RLE_DICTIONARY' as const } : {}),
      ...(column.statistics === false ? { statistics: false } : {}),
    })),
    rowGroupSize,
  });
  parquet.finish();
  return writer.getBytes();
}

/** The records with each `json` column's value as its JSON text (null stays null). */
function withJsonAsText(spec: TableSpec, records: readonly TableRecord[]): readonly TableRecord[] {
  const json = spec.columns.filter((column) => column.type === 'json').map((column) => column.name);
  if (json.length === 0) return records;
  return records.map((record) => ({ ...record, ...Object.fromEntries(json.map((name) => [name, record[name] == null ? null : JSON.stringify(record[name])])) }));
}

function schemaOf(spec: TableSpec): SchemaElement[] {
  const schema: SchemaElement[] = [{ name: 'root', num_children: spec.columns.length }];
  for (const column of spec.columns) {
    if (column.type === 'strings' || column.type === 'int32s') {
      // The three-level LIST of the Parquet spec, which every reader maps to a list of the element.
      schema.push(
        { name: column.name, repetition_type: 'REQUIRED', converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { ...primitive(column.type === 'strings' ? 'string' : 'int32'), name: 'element', repetition_type: 'REQUIRED' },
      );
    } else {
      schema.push({ ...primitive(column.type), name: column.name, repetition_type: column.nullable ? 'OPTIONAL' : 'REQUIRED' });
    }
  }
  return schema;
}

function primitive(type: Exclude<ColumnType, 'strings' | 'int32s'>): Omit<SchemaElement, 'name'> {
  switch (type) {
    case 'string':
    case 'json':
      return { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'date':
      return { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'timestamp':
      return { type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } };
    case 'int32':
      return { type: 'INT32' };
    case 'int64':
      return { type: 'INT64' };
    case 'float64':
      return { type: 'DOUBLE' };
    case 'bool':
      return { type: 'BOOLEAN' };
  }
}

/** One column's values in the form the writer takes; dates and times are converted once per distinct text. */
function columnValues(column: Column, records: readonly TableRecord[]): unknown[] {
  if (column.type === 'strings' || column.type === 'int32s') return records.map((record) => (record[column.name] ?? []) as unknown[]);
  const converted = new Map<unknown, unknown>();
  return records.map((record) => {
    const value = record[column.name] ?? null;
    if (value === null) {
      if (!column.nullable) throw new Error(`column ${column.name} of a release table is null`);
      return null;
    }
    if (column.type !== 'date' && column.type !== 'timestamp' && column.type !== 'int64') return value;
    let result = converted.get(value);
    if (result === undefined) converted.set(value, (result = valueOf(column, value)));
    return result;
  });
}

function valueOf(column: Column, value: unknown): number | bigint {
  if (column.type === 'int64') return BigInt(value as number);
  const time = Date.parse(column.type === 'date' ? `${String(value)}T00:00:00Z` : String(value));
  if (Number.isNaN(time)) throw new Error(`column ${column.name} of a release table holds ${JSON.stringify(value)}, not a ${column.type}`);
  return column.type === 'date' ? time / DAY_MS : BigInt(time);
}

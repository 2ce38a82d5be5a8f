/**
 * Parquet: each table typed, with its row groups and statistics (`../parquetTable.ts`), the files the
 * card's configs name with their features, so `load_dataset(DIR)` reads them (docs/ARCHITECTURE.md §8).
 * The manifest gives the row count of the file's footer.
 */
import { parquetOf } from '../parquetTable.js';
import type { ReleaseFormat } from './format.js';

export const parquetFormat = {
  name: 'parquet',
  extension: 'parquet',
  // The JSON lines size the row groups; a table with a JSON column is measured with that column as the text Parquet holds.
  render: (table) => parquetOf(table.spec, table.records, table.spec.columns.some((column) => column.type === 'json') ? undefined : table.jsonLines().byteLength),
  rows: async (content) => {
    if (typeof content === 'string') return null;
    const { parquetMetadata } = await import('hyparquet');
    return Number(parquetMetadata(content).num_rows);
  },
  card: { config: (spec) => spec.name, features: true },
} satisfies ReleaseFormat;

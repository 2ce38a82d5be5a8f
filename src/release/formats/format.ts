/**
 * What a release format is (docs/ARCHITECTURE.md §8): a way of writing a release's tables as files
 * (JSON lines, Parquet), with what its files mean to the card and how the manifest counts their
 * rows. Release kinds give tables and never name a format, so a new format is one file
 * implementing `ReleaseFormat` and one entry in the registry (`./index.ts`).
 */
import type { TableRecord, TableSpec } from '../parquetTable.js';

/** A table of a release: its columns and rows, which each registered format writes as `NAME.EXTENSION`. */
export interface ReleaseTable {
  spec: TableSpec;
  records: readonly TableRecord[];
  /**
   * Formats whose file of this table the release writes itself, in a shape of its own (GrowOVER's
   * lines keyed by id; the labels as `export labels` prints them): the format leaves that file to it.
   */
  ownShape?: readonly string[];
}

/** A table as a format renders it: the JSON lines of its records are made once, however many formats read them. */
export interface TableToRender extends ReleaseTable {
  /** The records as JSON lines, each with the table's columns in order (`jsonLinesOf`). */
  jsonLines(): Buffer;
}

export interface ReleaseFormat {
  /** How tables and the docs name it (`jsonl`, `parquet`). */
  readonly name: string;
  /** A table's file is `TABLE.EXTENSION`; every file of a release with this extension is one of this format. */
  readonly extension: string;
  /** The file of one table. */
  render(table: TableToRender): string | Uint8Array | Promise<string | Uint8Array>;
  /** The rows the manifest gives a file of this format; null when the format cannot tell. */
  rows(content: string | Uint8Array): number | null | Promise<number | null>;
  /**
   * Its files as the card's `configs` (one config per table, its file the `test` split) with the
   * columns' features when `features`; absent: the card's configs do not name its files.
   */
  readonly card?: { config(spec: TableSpec): string; features: boolean };
}

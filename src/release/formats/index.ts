/**
 * The release formats, in the order a table's files are listed: the registry a new format joins
 * (docs/ARCHITECTURE.md §8). Everything that writes a release's tables, lists its files in the card,
 * names the card's configs, counts rows for the manifest or tells a release's files from foreign
 * ones reads this list; a format from outside the code base joins it with `registerReleaseFormat`.
 */
import type { CardConfig } from '../datasetCard.js';
import { cardFeatures, jsonLinesOf } from '../parquetTable.js';
import type { ReleaseFormat, ReleaseTable, TableToRender } from './format.js';
import { jsonLinesFormat } from './jsonLines.js';
import { parquetFormat } from './parquet.js';

const FORMATS: ReleaseFormat[] = [parquetFormat, jsonLinesFormat];

/** The registered formats, in listing order. */
export function releaseFormats(): readonly ReleaseFormat[] {
  return FORMATS;
}

/**
 * Adds a format to every release written after it in this process.
 *
 * @example registerReleaseFormat({ name: 'csv', extension: 'csv', render: (table) => csvOf(table), rows: (content) => lineCount(content) - 1 })
 */
export function registerReleaseFormat(format: ReleaseFormat): void {
  const taken = FORMATS.find((known) => known.name === format.name || known.extension === format.extension);
  if (taken) throw new Error(`a release format named ${taken.name} with extension .${taken.extension} is registered already`);
  FORMATS.push(format);
}

/** Every table's file in every format, but those the release writes itself (`ownShape`), by name. */
export async function tableFiles(tables: readonly ReleaseTable[]): Promise<Map<string, string | Uint8Array>> {
  const files = new Map<string, string | Uint8Array>();
  for (const table of tables) {
    let jsonLines: Buffer | undefined;
    const toRender: TableToRender = { ...table, jsonLines: () => (jsonLines ??= jsonLinesOf(table.spec, table.records)) };
    for (const format of FORMATS) {
      if (!table.ownShape?.includes(format.name)) files.set(fileName(table, format), await format.render(toRender));
    }
  }
  return files;
}

/**
 * The tables' files as a card's file table names them: `` `queries.parquet`, `queries.jsonl` ``; with
 * `rendered`, only the files a format renders (not those of the release's own shape).
 */
export function tableFileList(tables: readonly ReleaseTable[], which: 'all' | 'rendered' = 'all'): string {
  return tables
    .flatMap((table) => FORMATS.filter((format) => which === 'all' || !table.ownShape?.includes(format.name)).map((format) => `\`${fileName(table, format)}\``))
    .join(', ');
}

/** The card's configs of the tables: one per table and format that has them, the first the default. */
export function cardConfigs(tables: readonly ReleaseTable[]): CardConfig[] {
  const configs = FORMATS.flatMap(({ card, extension }) =>
    card === undefined
      ? []
      : tables.map(({ spec, records }) => ({
          name: card.config(spec),
          files: [{ split: 'test', path: `${spec.name}.${extension}`, rows: records.length }],
          ...(card.features ? { features: cardFeatures(spec) } : {}),
        })),
  );
  return configs.map((config, index) => (index === 0 ? { ...config, default: true } : config));
}

/** The rows the manifest gives a release file: as its format counts them, null for a file of none (the card, figures, CHANGES.md). */
export async function rowsOf(path: string, content: string | Uint8Array): Promise<number | null> {
  const format = FORMATS.find((known) => path.endsWith(`.${known.extension}`));
  return format ? format.rows(content) : null;
}

/**
 * What a release directory holds: the card, manifest and changelog, the figures (`src/plots` draws
 * them as SVG) and files of the registered formats; any other entry means the directory is someone's,
 * not a release.
 */
export function releaseEntry(): RegExp {
  const extensions = [...FORMATS.map((format) => format.extension), 'svg'].map((extension) => extension.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^(README\\.md|MANIFEST\\.json|CHANGES\\.md|[^/]+\\.(${extensions.join('|')}))$`);
}

function fileName(table: ReleaseTable, format: ReleaseFormat): string {
  return `${table.spec.name}.${format.extension}`;
}

export { jsonLinesFormat, readJsonLines } from './jsonLines.js';
export type { ReleaseFormat, ReleaseTable, TableToRender } from './format.js';

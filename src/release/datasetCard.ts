/**
 * The Hugging Face dataset-card front matter that opens every release's README.md, so that
 * `load_dataset(DIR)` (or `load_dataset(DIR, CONFIG)`) reads the files as published: licence,
 * language, task categories, the `configs` whose `data_files` name each file, and the features
 * and row counts of each config (`dataset_info`), so the Parquet columns load with their types.
 * Written with the `yaml` package so that titles and paths are always quoted correctly.
 */
import { stringify } from 'yaml';
import type { CardFeature } from './parquetTable.js';

/** A config of the card: the registered formats make one per table (`cardConfigs` in `./formats`). */
export interface CardConfig {
  name: string;
  /** One split per file, named as Hugging Face allows (`\w+`), with its rows when known. */
  files: Array<{ split: string; path: string; rows?: number }>;
  /** The columns' types, for a config of typed (Parquet) files. */
  features?: CardFeature[];
  default?: boolean;
}

export interface CardMetadata {
  prettyName: string;
  language: string[];
  taskCategories: string[];
  taskIds: string[];
  configs: CardConfig[];
}

/** `---`, the YAML metadata, `---` and a blank line. */
export function cardFrontMatter(card: CardMetadata): string {
  const metadata = {
    pretty_name: card.prettyName,
    license: 'cc-by-sa-4.0',
    language: card.language,
    task_categories: card.taskCategories,
    task_ids: card.taskIds,
    configs: card.configs.map((config) => ({
      config_name: config.name,
      ...(config.default ? { default: true } : {}),
      data_files: config.files.map((file) => ({ split: file.split, path: file.path })),
    })),
    ...(card.configs.some((config) => config.features)
      ? {
          dataset_info: card.configs.flatMap((config) =>
            config.features
              ? [{ config_name: config.name, features: config.features, splits: config.files.map((file) => ({ name: file.split, num_examples: file.rows ?? 0 })) }]
              : [],
          ),
        }
      : {}),
  };
  return `---\n${stringify(metadata)}---\n\n`;
}

/** The card's section on loading the release: Hugging Face datasets, DuckDB and pandas, one line each. */
export function loadingSection(config: string, table: string): string {
  return `## Loading

\`\`\`python
from datasets import load_dataset; ds = load_dataset("path/to/release", "${config}", split="test")
import duckdb; duckdb.sql("SELECT * FROM 'path/to/release/${table}.parquet'").df()
import pandas as pd; df = pd.read_parquet("path/to/release/${table}.parquet")
\`\`\`

Each table is also given as JSON lines beside its Parquet file. MANIFEST.json gives the release's
version and every file's SHA-256 (\`wikidelta release verify DIR\` checks them); CHANGES.md and
changes.jsonl say what changed since the release before it.
`;
}

/** The language code of a Wikimedia wiki named by its host ("de.wikipedia.org" → "de") or its dump's database ("dewiki" → "de"); English otherwise. */
export function wikiLanguage(wiki: string): string {
  const database = /^([a-z]{2,3}(?:_[a-z]+)?)(?:wiki|wiktionary|wikibooks|wikinews|wikiquote|wikisource|wikiversity|wikivoyage)$/.exec(wiki)?.[1]?.replace(/_/g, '-');
  return database ?? /^([a-z]{2,3}(?:-[a-z]+)?)\.wiki[a-z]+\.org$/.exec(wiki)?.[1] ?? 'en';
}

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
  /** Of the facts' source (`factSource`): Wikipedia's text is CC BY-SA, Wikidata's statements CC0. */
  license?: FactSource;
  language: string[];
  taskCategories: string[];
  taskIds: string[];
  configs: CardConfig[];
}

/** `---`, the YAML metadata, `---` and a blank line. */
export function cardFrontMatter(card: CardMetadata): string {
  const metadata = {
    pretty_name: card.prettyName,
    license: card.license === 'wikidata' ? 'cc0-1.0' : 'cc-by-sa-4.0',
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

/** Where a release's facts were read: Wikipedia's wikitext, Wikidata's statements, or some of each. */
export type FactSource = 'wikipedia' | 'wikidata' | 'both';

/** The template of a Wikidata entity's facts (src/content/wikibaseItemFacts.ts). */
const ENTITY_TEMPLATE = 'wikibase-item';

/** The source of facts read with these templates (imported queries, null, are DailyQA's, from Wikipedia). */
export function factSource(templates: Iterable<string | null>): FactSource {
  let wikidata = false;
  let wikipedia = false;
  for (const template of templates) {
    if (template === ENTITY_TEMPLATE) wikidata = true;
    else wikipedia = true;
  }
  return wikidata && wikipedia ? 'both' : wikidata ? 'wikidata' : 'wikipedia';
}

/** What the facts are, in the card's first sentence: "made from …". */
export function factsMadeFrom(source: FactSource): string {
  return source === 'wikidata' ? 'the Wikidata statements' : source === 'both' ? 'the Wikipedia infobox values and Wikidata statements' : 'the Wikipedia infobox values';
}

/**
 * The card's licence section. Wikipedia's text (values, titles, first paragraphs) is CC BY-SA 4.0,
 * which a release holding any of it keeps; Wikidata's structured data is CC0, and so is a release
 * made from it alone.
 */
export function licenceSection(source: FactSource): string {
  const wikipedia = `The text of this release derived from Wikipedia (infobox values, titles, first paragraphs) is
available under the Creative Commons Attribution-ShareAlike licence (CC BY-SA 4.0); its authors
are the contributors named in each page's history, linked from the URLs in the files.`;
  const wikidata = `The facts of this release${source === 'both' ? ' read from Wikidata' : ''} come from Wikidata, whose structured data is available under
the Creative Commons CC0 1.0 public domain dedication${source === 'both' ? '; the release as a whole is CC BY-SA 4.0' : ', as is this release'}.`;
  return `## Licence\n\n${source === 'wikidata' ? wikidata : source === 'both' ? `${wikipedia}\n${wikidata}` : wikipedia}\n`;
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

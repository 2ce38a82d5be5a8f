/**
 * The Hugging Face dataset-card front matter that opens every release's README.md, so that
 * `load_dataset(DIR)` (or `load_dataset(DIR, CONFIG)`) reads the files as published: licence,
 * language, task categories and the `configs` whose `data_files` name each file. Written with the
 * `yaml` package so that titles and paths are always quoted correctly.
 */
import { stringify } from 'yaml';

export interface CardConfig {
  name: string;
  /** One split per file, named as Hugging Face allows (`\w+`). */
  files: Array<{ split: string; path: string }>;
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
  };
  return `---\n${stringify(metadata)}---\n\n`;
}

/** The language code of a Wikimedia wiki named by its host ("de.wikipedia.org" → "de"); English otherwise. */
export function wikiLanguage(wiki: string): string {
  return /^([a-z]{2,3}(?:-[a-z]+)?)\.wiki[a-z]+\.org$/.exec(wiki)?.[1] ?? 'en';
}

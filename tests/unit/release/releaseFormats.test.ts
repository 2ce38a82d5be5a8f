/**
 * A release format is one object and one registration (docs/ARCHITECTURE.md §8): a CSV format built
 * here and registered here appears in a release written by an unchanged release kind, with every
 * table's file, the rows its manifest gives them, the card's configs and file table, and a release
 * that `release verify` accepts and the next release's changes still compare. The modules are loaded
 * afresh, so the registration does not outlive this file in the worker.
 */
import { Store } from '../../../src/store/store.js';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import type { ReleaseFormat } from '../../../src/release/formats/index.js';
import { tempDir } from '../../../testkit/cli.js';

afterEach(() => vi.resetModules());

/** RFC 4180 CSV of the table's columns, a header first; lists and objects as their JSON. */
const csvFormat: ReleaseFormat = {
  name: 'csv',
  extension: 'csv',
  render: ({ spec, records }) => {
    const cell = (value: unknown) => {
      if (value === undefined || value === null) return '';
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    };
    const lines = [spec.columns.map((column) => column.name), ...records.map((record) => spec.columns.map((column) => cell(record[column.name])))];
    return lines.map((line) => `${line.join(',')}\r\n`).join('');
  },
  rows: (content) => (typeof content === 'string' ? content : Buffer.from(content).toString('utf8')).split('\r\n').length - 2,
  card: { config: (spec) => `${spec.name}_csv`, features: false },
};

/** Two published DailyQA days of two queries, the second with a comma and a quote in its answer. */
function dailyQaDays(dir: string): string[] {
  const days = {
    'qa_250113.jsonl': [
      { id: '25011300-1-0', query: 'Who leads Port Aldwin?', answer: 'Edda Marrow' },
      { id: '25011300-2-0', query: 'What is the gross of The Saltmarsh Lantern?', answer: 'CRN 2.1 million' },
    ],
    'qa_250114.jsonl': [
      { id: '25011300-1-0', query: 'Who leads Port Aldwin?', answer: 'Oren Blake' },
      { id: '25011300-2-0', query: 'What is the gross of The Saltmarsh Lantern?', answer: 'CRN 6.8 million, "so far"' },
    ],
  };
  return Object.entries(days).map(([name, lines]) => {
    writeFileSync(join(dir, name), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    return join(dir, name);
  });
}

describe('a release format registered from outside the release kinds', () => {
  it('is written for every table of a release, counted in its manifest, named in its card, and verified', async () => {
    vi.resetModules();
    const { registerReleaseFormat, releaseFormats } = await import('../../../src/release/formats/index.js');
    registerReleaseFormat(csvFormat);
    expect(() => registerReleaseFormat({ ...csvFormat, name: 'other' })).toThrow('a release format named csv with extension .csv is registered already');
    expect(releaseFormats().map((format) => format.name)).toEqual(['parquet', 'jsonl', 'csv']);
    const [{ importDailyQa }, { renderDailyQaRelease }, { writeRelease }, { verifyRelease }, { diffReleases, directorySource }, { readManifest }] = await Promise.all([
      import('../../../src/timeline/dailyqaImport.js'),
      import('../../../src/release/dailyqaRelease.js'),
      import('../../../src/release/writeRelease.js'),
      import('../../../src/release/verifyRelease.js'),
      import('../../../src/release/releaseDiff.js'),
      import('../../../src/release/manifest.js'),
    ]);
    const dir = tempDir();
    const store = Store.open(join(dir, 'store.sqlite'));
    await importDailyQa(store, dailyQaDays(dir));
    const release = join(dir, 'releases', 'dailyqa');
    const { manifest } = await writeRelease(store, release, (await renderDailyQaRelease(store, '2025-01-13', '2025-01-14')).draft);

    expect(readdirSync(release).filter((name) => /^(answers|queries)\./.test(name)).sort()).toEqual([
      'answers.csv',
      'answers.jsonl',
      'answers.parquet',
      'queries.csv',
      'queries.jsonl',
      'queries.parquet',
    ]);
    const answers = readFileSync(join(release, 'answers.csv'), 'utf8');
    expect(answers.split('\r\n')[0]).toBe('id,date,answer,status,valid_from,valid_to,aliases');
    expect(answers).toContain('25011300-2-0,2025-01-14,"CRN 6.8 million, ""so far""",ok,');
    const rows = Object.fromEntries(manifest.files.map((file) => [file.path, file.rows]));
    expect(rows).toMatchObject({ 'answers.csv': 4, 'answers.jsonl': 4, 'answers.parquet': 4, 'queries.csv': 2, 'queries.jsonl': 2, 'queries.parquet': 2, 'README.md': null });

    const card = readFileSync(join(release, 'README.md'), 'utf8');
    const front = parse(card.split('---\n')[1] ?? '') as { configs: Array<{ config_name: string; default?: boolean; data_files: Array<{ path: string }> }>; dataset_info: Array<{ config_name: string }> };
    expect(front.configs.map((config) => [config.config_name, config.default ?? false, config.data_files[0]?.path])).toEqual([
      ['answers', true, 'answers.parquet'],
      ['queries', false, 'queries.parquet'],
      ['answers_csv', false, 'answers.csv'],
      ['queries_csv', false, 'queries.csv'],
    ]);
    // Features are declared for the typed configs only.
    expect(front.dataset_info.map((info) => info.config_name)).toEqual(['answers', 'queries']);
    expect(card).toContain('| `answers.parquet`, `answers.jsonl`, `answers.csv` | one row per query and day');

    expect(await verifyRelease(release)).toMatchObject({ ok: true });
    // Written again over itself, the directory of CSV files is the release's own, not someone else's.
    const next = await writeRelease(store, release, (await renderDailyQaRelease(store, '2025-01-13', '2025-01-14')).draft);
    expect(next.changes).toBe('unchanged');
    const longer = join(dir, 'releases', 'dailyqa-longer');
    await writeRelease(store, longer, (await renderDailyQaRelease(store, '2025-01-13', '2025-01-15')).draft, { dir: release });
    expect(diffReleases(directorySource(release, readManifest(release)), directorySource(longer, readManifest(longer))).counts).toMatchObject({ queries: { before: 2, after: 2 } });
    store.close();
  });

  it('is not written once the modules are loaded again without it', async () => {
    const { releaseFormats } = await import('../../../src/release/formats/index.js');
    expect(releaseFormats().map((format) => format.name)).toEqual(['parquet', 'jsonl']);
  });
});

import Sqlite from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { checkCard, parquetRows } from '../support/datasetCard.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
let db: string;
let dir: string;

beforeAll(() => {
  dir = tempDir();
  db = join(dir, 'store.sqlite');
});

describe('snapshot, label and export labels commands', () => {
  it('refuse bad input with one line and a non-zero code', async () => {
    const noSource = await runCli(['--db', db, 'snapshot', '--name', 'x']);
    expect(noSource.code).toBe(1);
    expect(noSource.errorCode).toBe('E_FLAGS_CONFLICT');
    const noDate = await runCli(['--db', db, 'snapshot', '--name', 'x', '--api', 'http://127.0.0.1:9/api.php', '--titles', SAMPLE]);
    expect(noDate.errorCode).toBe('E_FLAG_MISSING');
    for (const api of ['notaurl', 'ftp://127.0.0.1:9/api.php']) {
      const badApi = await runCli(['--db', db, 'snapshot', '--name', 'x', '--api', api, '--as-of', '2025-03-01', '--titles', SAMPLE]);
      expect([badApi.code, badApi.errorCode]).toEqual([1, 'E_FLAG_INVALID']);
    }
    // A binary file given as the title list: refused before a request carries its bytes as titles.
    const binary = join(dir, 'titles.bin');
    writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0xff, 0xfe, 0x0a, 0x41]));
    const binaryTitles = await runCli(['--db', db, 'snapshot', '--name', 'x', '--api', 'http://127.0.0.1:9/api.php', '--as-of', '2025-03-01', '--titles', binary]);
    expect([binaryTitles.code, binaryTitles.errorCode]).toEqual([1, 'E_TITLE_LIST_INVALID']);
    expect(binaryTitles.stderr).toMatch(/control characters or bytes that are not UTF-8/);
    const titlesOfDump = await runCli(['--db', db, 'snapshot', '--name', 'x', '--dump', SAMPLE, '--as-of', '2025-03-01', '--titles', SAMPLE]);
    expect([titlesOfDump.code, titlesOfDump.errorCode]).toEqual([1, 'E_FLAGS_CONFLICT']);
    const badDate = await runCli(['--db', db, 'snapshot', '--name', 'x', '--dump', SAMPLE, '--as-of', '2025-02-30']);
    expect(badDate.code).toBe(2);
    const unknown = await runCli(['--db', db, 'label', '--old', 'nope', '--new', 'nada']);
    expect(unknown.code).toBe(1);
    expect(unknown.errorCode).toBe('E_SNAPSHOT_NOT_FOUND');
  });

  it('make two snapshots from the dump, label them with the counts printed, and export one line per sentence', async () => {
    for (const date of ['2025-03-01', '2025-04-01']) {
      const made = await runCliOk(['--db', db, 'snapshot', '--name', date, '--dump', SAMPLE, '--as-of', date]);
      expect(made.stdout).toMatch(new RegExp(`^snapshot ${date}: 11 articles \\(11 stored now, \\d+ sentences\\)\n$`));
    }
    const early = await runCli(['--db', db, 'export', 'labels', '--old', '2025-03-01', '--new', '2025-04-01']);
    expect(early.errorCode).toBe('E_PREREQUISITE_MISSING');
    const labeled = await runCliOk(['--db', db, 'label', '--old', '2025-03-01', '--new', '2025-04-01']);
    const counts = Object.fromEntries([...labeled.stdout.matchAll(/^ {2}(\w+) +(\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
    expect(Object.keys(counts)).toEqual(['unchanged', 'changed', 'new', 'undecided', 'deleted']);
    expect(counts.unchanged).toBeGreaterThan(50);
    expect(counts.changed).toBeGreaterThan(0);
    const out = join(dir, 'labels.jsonl');
    await runCliOk(['--db', db, 'export', 'labels', '--old', '2025-03-01', '--new', '2025-04-01', '--out', out]);
    const lines = jsonLines(readFileSync(out, 'utf8'));
    expect(lines.filter((line) => line.label === 'deleted')).toHaveLength(counts.deleted as number);
    expect(lines.filter((line) => line.label !== 'deleted')).toHaveLength((counts.unchanged ?? 0) + (counts.changed ?? 0) + (counts.new ?? 0) + (counts.undecided ?? 0));
    const moved = lines.filter((line) => line.title === 'Glass Orchard (band)' && line.label === 'unchanged');
    expect(moved.length).toBeGreaterThan(3);
    const changed = lines.find((line) => line.label === 'changed');
    expect(changed).toMatchObject({ old_indices: [expect.any(Number)], backend: 'use-lite+heuristic-nli' });
    expect(typeof changed?.old_text).toBe('string');
  }, 120_000);

  it('refuse a pair given backwards (--old not earlier than --new) in one line, writing nothing', async () => {
    const rows = () => {
      const store = new Sqlite(db, { readonly: true });
      try {
        return store.prepare('SELECT (SELECT COUNT(*) FROM runs) AS runs, (SELECT COUNT(*) FROM label_articles) AS labeled, (SELECT COUNT(*) FROM growover_done) AS done').get();
      } finally {
        store.close();
      }
    };
    const before = rows();
    for (const command of ['label', 'monthly']) {
      const reversed = await runCli(['--db', db, command, '--old', '2025-04-01', '--new', '2025-03-01', '--llm', 'offline']);
      expect(reversed.code).toBe(1);
      expect(reversed.errorCode).toBe('E_DATE_RANGE_INVALID');
      expect(reversed.stderr).toBe(
        'wikidelta: E_DATE_RANGE_INVALID: --old 2025-04-01 (as of 2025-04-01T00:00:00Z) is not earlier than --new 2025-03-01 (as of 2025-03-01T00:00:00Z): give the earlier snapshot as --old\n',
      );
      expect(reversed.stdout).toBe('');
    }
    expect(rows()).toEqual(before);
  }, 120_000);

  it('write the labels as a release that DuckDB reads back row for row; labeled again, its changes name the sentences whose label changed', async () => {
    const release = join(dir, 'labels-release');
    const labels = ['export', 'labels', '--old', '2025-03-01', '--new', '2025-04-01'];
    const written = await runCliOk(['--db', db, ...labels, '--release', release]);
    expect(written.stdout).toMatch(/^release of the labels 2025-03-01 → 2025-04-01 written to .*\n {2}version 2025-04-01\+[0-9a-f]{12}, the first of its series\n$/);
    // The same records as `export labels` prints, and as a typed table.
    expect(readFileSync(join(release, 'labels.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'labels.jsonl'), 'utf8'));
    const card = await checkCard(release);
    expect(card.dataset_info[0]?.features).toContainEqual({ name: 'old_indices', sequence: 'int32' });
    const rows = (await parquetRows(join(release, 'labels.parquet'))).rows;
    expect(rows.filter((row) => row.label === 'deleted').every((row) => row.new_index === null && Array.isArray(row.old_indices) && row.old_indices.length === 0)).toBe(true);

    // Labeled again with another verdict for one sentence: the release written over it lists that sentence.
    const store = new Sqlite(db);
    const relabeled = store.prepare("SELECT l.idx, a.title FROM sentence_labels l JOIN snapshot_articles a ON a.snapshot = l.new_snapshot AND a.page_id = l.new_page_id WHERE l.side = 'new' AND l.label = 'unchanged' ORDER BY a.title, l.idx LIMIT 1").get() as { idx: number; title: string };
    store.prepare("UPDATE sentence_labels SET label = 'changed' WHERE side = 'new' AND idx = ? AND new_page_id = (SELECT page_id FROM snapshot_articles WHERE snapshot = '2025-04-01' AND title = ?)").run(relabeled.idx, relabeled.title);
    store.close();
    const again = await runCliOk(['--db', db, '--json', ...labels, '--release', release]);
    const summary = JSON.parse(again.stdout);
    expect(summary.changes).toMatchObject({ relabeled: 1, labels: { changed: { after: (summary.changes.labels.changed.before as number) + 1 } } });
    const changes = jsonLines(readFileSync(join(release, 'changes.jsonl'), 'utf8')).slice(1);
    expect(changes).toEqual([{ change: 'label_changed', title: relabeled.title, new_index: relabeled.idx, before: 'unchanged', after: 'changed' }]);
    const refused = await runCli(['--db', db, ...labels, '--release', release, '--out', join(dir, 'x.jsonl')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('wikidelta: E_USAGE: --out writes one file, --release a release directory: give one of them\n');
  }, 120_000);
});

describe('--embed-threads', () => {
  it('refuses a thread count that is not a whole number from 1 to 64, in one line', async () => {
    for (const threads of ['0', '2.5', 'many']) {
      const result = await runCli(['--db', join(tempDir(), 'flags.sqlite'), 'label', '--old', 'a', '--new', 'b', '--embed-threads', threads]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.errorCode).toBe('E_FLAG_INVALID');
    }
  });
});

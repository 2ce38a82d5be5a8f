import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, repoRoot, runCli, tempDir } from '../../../testkit/cli.js';

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
    expect(noSource.stderr).toBe('wikidelta: give either --dump PATH or --api URL (exactly one)\n');
    const noDate = await runCli(['--db', db, 'snapshot', '--name', 'x', '--api', 'http://127.0.0.1:9/api.php', '--titles', SAMPLE]);
    expect(noDate.stderr).toBe('wikidelta: --api needs --as-of DATE\n');
    const badDate = await runCli(['--db', db, 'snapshot', '--name', 'x', '--dump', SAMPLE, '--as-of', '2025-02-30']);
    expect(badDate.code).toBe(2);
    const unknown = await runCli(['--db', db, 'label', '--old', 'nope', '--new', 'nada']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^wikidelta: no snapshot named "nope"/);
  });

  it('make two snapshots from the dump, label them with the counts printed, and export one line per sentence', async () => {
    for (const date of ['2025-03-01', '2025-04-01']) {
      const made = await runCli(['--db', db, 'snapshot', '--name', date, '--dump', SAMPLE, '--as-of', date]);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toMatch(new RegExp(`^snapshot ${date}: 11 articles \\(11 stored now, \\d+ sentences\\)\n$`));
    }
    const early = await runCli(['--db', db, 'export', 'labels', '--old', '2025-03-01', '--new', '2025-04-01']);
    expect(early.stderr).toMatch(/^wikidelta: no labels between "2025-03-01" and "2025-04-01": run wikidelta label/);
    const labeled = await runCli(['--db', db, 'label', '--old', '2025-03-01', '--new', '2025-04-01']);
    expect(labeled.code, labeled.stderr).toBe(0);
    const counts = Object.fromEntries([...labeled.stdout.matchAll(/^ {2}(\w+) +(\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
    expect(Object.keys(counts)).toEqual(['unchanged', 'changed', 'new', 'undecided', 'deleted']);
    expect(counts.unchanged).toBeGreaterThan(50);
    expect(counts.changed).toBeGreaterThan(0);
    const out = join(dir, 'labels.jsonl');
    const exported = await runCli(['--db', db, 'export', 'labels', '--old', '2025-03-01', '--new', '2025-04-01', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = jsonLines(readFileSync(out, 'utf8'));
    expect(lines.filter((line) => line.label === 'deleted')).toHaveLength(counts.deleted as number);
    expect(lines.filter((line) => line.label !== 'deleted')).toHaveLength((counts.unchanged ?? 0) + (counts.changed ?? 0) + (counts.new ?? 0) + (counts.undecided ?? 0));
    const moved = lines.filter((line) => line.title === 'Glass Orchard (band)' && line.label === 'unchanged');
    expect(moved.length).toBeGreaterThan(3);
    const changed = lines.find((line) => line.label === 'changed');
    expect(changed).toMatchObject({ old_indices: [expect.any(Number)], backend: 'use-lite+heuristic-nli' });
    expect(typeof changed?.old_text).toBe('string');
  }, 120_000);
});

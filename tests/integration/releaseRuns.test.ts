/**
 * The runs a release's manifest names are those that wrote its data (docs/ARCHITECTURE.md §8): in a
 * store shared by two wikis, a weekly release names its own wiki's runs only; a GrowOVER release
 * written again after a later month names no run of that month, and is written byte for byte as it was.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCliOk, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const ENGLISH = join(sharedData, 'enwiki-history-sample.xml');
const dir = tempDir();

const runsOf = (release: string) => (JSON.parse(readFileSync(join(release, 'MANIFEST.json'), 'utf8')) as { store: { runs: Array<{ id: number; pipeline: string }> } }).store.runs;

describe('the runs a manifest names', () => {
  it("names a weekly release's own wiki's runs, not another wiki's in the same store", async () => {
    const db = join(dir, 'two-wikis.sqlite');
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-06', '--dump', SAMPLE, '--llm', 'offline', '--out', join(dir, 'sample-1')]);
    await runCliOk(['--db', db, 'weekly', '--start', '2021-01-18', '--dump', ENGLISH, '--llm', 'offline', '--out', join(dir, 'english')]);
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-13', '--dump', SAMPLE, '--llm', 'offline', '--out', join(dir, 'sample-2')]);
    expect(runsOf(join(dir, 'english'))).toEqual([{ id: 2, pipeline: 'weekly' }]);
    expect(runsOf(join(dir, 'sample-2'))).toEqual([
      { id: 1, pipeline: 'weekly' },
      { id: 3, pipeline: 'weekly' },
    ]);
  }, 180_000);

  it('writes a GrowOVER release again as it was after a later month ran, naming none of its runs', async () => {
    const db = join(dir, 'months.sqlite');
    for (const month of ['2025-02', '2025-03']) await runCliOk(['--db', db, 'snapshot', '--name', month, '--dump', SAMPLE, '--as-of', `${month}-01`]);
    await runCliOk(['--db', db, 'monthly', '--new', '2025-02', '--llm', 'offline']);
    const release = join(dir, 'growover-2025-02');
    await runCliOk(['--db', db, 'export', 'growover', '--snapshot', '2025-02', '--out', release]);
    const manifest = readFileSync(join(release, 'MANIFEST.json'), 'utf8');
    expect(runsOf(release).map((run) => run.pipeline)).toEqual(['monthly-snapshot', 'monthly']);

    await runCliOk(['--db', db, 'monthly', '--old', '2025-02', '--new', '2025-03', '--llm', 'offline']);
    await runCliOk(['--db', db, 'export', 'growover', '--snapshot', '2025-02', '--out', release]);
    expect(readFileSync(join(release, 'MANIFEST.json'), 'utf8')).toBe(manifest);
    const later = join(dir, 'growover-2025-03');
    await runCliOk(['--db', db, 'export', 'growover', '--snapshot', '2025-03', '--out', later]);
    expect(runsOf(later).map((run) => run.pipeline)).toEqual(['monthly-snapshot', 'monthly-snapshot', 'monthly', 'monthly-label', 'monthly']);
  }, 180_000);
});

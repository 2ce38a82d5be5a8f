/**
 * sync given another wiki's source than the one the store's queries are of (a wrong --dump in a
 * crontab): nothing to sync, and the line says why and what to give, not to run the weekly
 * pipeline, which has run.
 */
import Sqlite from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, repoRoot, runCliOk, tempDir } from '../../testkit/cli.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');

describe('sync through another wiki', () => {
  it("names the wiki the store tracks pages of when the source is another wiki's", async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const other = join(dir, 'other.xml');
    writeFileSync(
      other,
      `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10"><siteinfo><sitename>Other</sitename><dbname>otherwiki</dbname></siteinfo><page><title>Tiny Town</title><ns>0</ns><id>1</id><revision><id>1</id><timestamp>2025-01-25T10:00:00Z</timestamp><contributor><username>A</username><id>1</id></contributor><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">Tiny Town is a town.</text></revision></page></mediawiki>\n`,
    );
    const fresh = await runCliOk(['--db', db, 'sync', '--until', '2025-02-01', '--dump', SAMPLE]);
    expect(fresh.stdout).toBe('no tracked pages of samplewiki: no weekly run has kept a query of it yet (sync follows the pages behind kept queries)\n');
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-20', '--dump', SAMPLE, '--llm', 'offline']);
    const wrong = await runCliOk(['--db', db, 'sync', '--until', '2025-02-01', '--dump', other]);
    expect(wrong.stdout).toBe(
      "no tracked pages of otherwiki, the wiki of the source given; the store tracks pages of another wiki (3 of samplewiki): give that wiki's --dump or --api\n",
    );
  }, 120_000);

  it('names the wiki setting dump for the weeks an older wikidelta stored under that name, and says a sync of the dump left them behind', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    // A store made before dumps were named by their <siteinfo> (and before migration 23 recorded wikis).
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-20', '--dump', SAMPLE, '--llm', 'offline'], { env: { WIKIDELTA_WIKI: 'dump' } });
    const store = new Sqlite(db);
    store.exec("DELETE FROM wikis WHERE wiki = 'dump'");
    store.close();
    const first = await runCliOk(['--db', db, 'sync', '--until', '2025-02-01', '--dump', SAMPLE]);
    expect(first.stdout).toBe(
      'no tracked pages of samplewiki, the wiki of the source given; the store tracks pages of another wiki (3 of dump): the pages of dump are those of the weeks an older wikidelta stored under that name: sync them with the wiki setting dump (WIKIDELTA_WIKI=dump)\n',
    );
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-27', '--dump', SAMPLE, '--llm', 'offline']);
    const left = await runCliOk(['--db', db, '--json', 'sync', '--until', '2025-02-03', '--dump', SAMPLE]);
    expect(jsonLines(left.stderr).filter((line) => line.level === 'warn').map((line) => line.message)).toContain(
      "this sync of samplewiki leaves the store's 3 tracked pages of dump behind 2025-02-03T00:00:00Z; the pages of dump are those of the weeks an older wikidelta stored under that name: sync them with the wiki setting dump (WIKIDELTA_WIKI=dump)",
    );
    await runCliOk(['--db', db, 'sync', '--until', '2025-02-03', '--dump', SAMPLE], { env: { WIKIDELTA_WIKI: 'dump' } });
    const after = await runCliOk(['--db', db, '--json', 'sync', '--until', '2025-02-03', '--dump', SAMPLE]);
    expect(jsonLines(after.stderr).filter((line) => line.level === 'warn')).toEqual([]);
  }, 180_000);
});

/**
 * `export dailyqa --date D --time world` on a store that holds English Wikipedia queries beside
 * Wikidata's: an infobox fact has no time-qualified statement, so it has no world-time answer on any
 * day (docs/ARCHITECTURE.md §16). The line that says so must not send the user to `sync`, which
 * cannot give a fact dates (and D may lie inside the week the store holds whole).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { errorOf, runCli, tempDir } from '../../testkit/cli.js';

const dir = tempDir();
const db = join(dir, 'mixed.sqlite');

beforeAll(() => {
  const store = Store.open(db);
  const query = store.db.prepare(
    "INSERT INTO queries (id, text, origin, wiki, page_id, slot, template, key, window_start, window_end, created_at) VALUES (?, ?, 'generated', ?, ?, ?, ?, ?, ?, ?, '2023-02-01T00:00:00Z')",
  );
  query.run('21011800-3354-0', 'What is the total population of Berlin?', 'enwiki', 3354, 'settlement', 'settlement', 'population_total', '2021-01-18T00:00:00Z', '2021-01-25T00:00:00Z');
  query.run('23010900-2112-0', 'What is the population of Bielefeld?', 'wikidatawiki', 2112, 'wikibase-item', 'wikibase-item', 'P1082', '2023-01-09T00:00:00Z', '2023-01-16T00:00:00Z');
  store.db
    .prepare("INSERT INTO world_intervals (wiki, page_id, key, value, aliases, valid_from, valid_to, rev_id) VALUES ('wikidatawiki', 2112, 'P1082', '334002', NULL, '2019-12-31T00:00:00Z', NULL, 21120002)")
    .run();
  store.close();
});

describe('DailyQA per-date export on world time', () => {
  it('leaves out the facts without dates, saying why, without sending the user to sync', async () => {
    const run = await runCli(['--db', db, 'export', 'dailyqa', '--date', '2021-01-20', '--time', 'world']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('{"id":"23010900-2112-0","query":"What is the population of Bielefeld?","answer":"334002"}\n');
    expect(run.stderr).toContain('left out 1 kept queries');
    expect(run.stderr).toContain('P580, P582, P585');
    expect(run.stderr).not.toContain('sync');
  });

  it('refuses in one line when no query has a world-time answer, naming the reason', async () => {
    const run = await runCli(['--db', db, 'export', 'dailyqa', '--date', '2021-01-20', '--time', 'world', '--week', '2021-01-18']);
    expect(run.code).toBe(1);
    expect(errorOf(run.stderr)?.code).toBe('E_ANSWERS_UNKNOWN');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toContain('sync');
  });
});

/**
 * A store an older wikidelta parsed (docs/ARCHITECTURE.md §5): the revisions it read keep the facts
 * its reading gave (before 2026-11-25 `{{film date|2025|1|10}}` was an empty `released`, and link
 * aliases were not kept). A later week whose window opens on such a revision collects its text
 * again; read again as this version reads it, the week diffs like values against like and releases
 * what the same week gives on a fresh store, not a question about a change no edit made; and a value
 * an older revision set, whose text no collection brings again, takes the aliases this version's
 * reading gives the same value in a revision read again.
 */
import Sqlite from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, repoRoot, runCliOk, tempDir } from '../../testkit/cli.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const dir = tempDir('wikidelta-older-parse-');

const weekly = (db: string, start: string, out: string) => runCliOk(['--db', db, 'weekly', '--start', start, '--dump', SAMPLE, '--llm', 'offline', '--threads', '1', '--out', out]);
const release = (out: string) => ({
  queries: jsonLines(readFileSync(join(out, 'queries.jsonl'), 'utf8')).map(({ id, query, answer, aliases }) => ({ id, query, answer, aliases })),
  firstDay: readFileSync(join(out, 'qa_250203.jsonl'), 'utf8'),
});

/**
 * Turns the store into one the code before migration 25 left: The Saltmarsh Lantern's revision
 * 1017 as that reading stored it (`released` empty), and no parse version recorded.
 */
function asAnOlderWikideltaParsedIt(db: string): void {
  const store = new Sqlite(db);
  const row = store.prepare('SELECT rowid, fields FROM infoboxes WHERE page_id = 106 AND rev_id = 1017').get() as { rowid: number; fields: string };
  const fields = (JSON.parse(row.fields) as Array<[string, string]>).map(([key, value]): [string, string] => [key, key === 'released' ? '' : value]);
  expect(fields.some(([key]) => key === 'released')).toBe(true);
  store.prepare('UPDATE infoboxes SET fields = ?, aliases = NULL WHERE rowid = ?').run(JSON.stringify(fields), row.rowid);
  const columns = store.prepare("SELECT name FROM pragma_table_info('revisions')").pluck().all();
  if (columns.includes('parse_version')) store.exec('ALTER TABLE revisions DROP COLUMN parse_version; DELETE FROM schema_migrations WHERE version >= 25');
  store.close();
}

/**
 * Turns Brightwater Logistics' first revision, 1003, into one the code before PARSE_VERSION 2 read:
 * every link target of a value kept as its alias, "Chairperson" for "Ingrid Solberg (Chair), …".
 */
function asTheFirstAliasReadingLeftIt(db: string): void {
  const store = new Sqlite(db);
  store.prepare('UPDATE infoboxes SET aliases = ? WHERE page_id = 103 AND rev_id = 1003').run(JSON.stringify({ type: ['Public company'], key_people: ['Chairperson', 'Chief executive officer'] }));
  store.prepare('UPDATE revisions SET parse_version = 1 WHERE page_id = 103 AND rev_id = 1003').run();
  store.close();
}

const dayAnswers = (out: string, id: string) =>
  jsonLines(readFileSync(join(out, 'answers.jsonl'), 'utf8'))
    .filter((answer) => answer.id === id)
    .map(({ date, answer, status, aliases }) => ({ date, answer, status, aliases }));

describe('a store whose revisions an older wikidelta parsed', () => {
  it("releases the next week as a fresh store does: the revision its window opens on is read again, not diffed as it was read", async () => {
    const fresh = join(dir, 'fresh.sqlite');
    await weekly(fresh, '2025-02-03', join(dir, 'fresh-0203'));
    const reference = release(join(dir, 'fresh-0203'));
    expect(reference.queries.find((query) => query.id === '25020300-106-0')).toMatchObject({ query: 'What is the gross of The Saltmarsh Lantern?' });

    const old = join(dir, 'old.sqlite');
    await weekly(old, '2025-01-27', join(dir, 'old-0127'));
    asAnOlderWikideltaParsedIt(old);
    await weekly(old, '2025-02-03', join(dir, 'old-0203'));
    expect(release(join(dir, 'old-0203'))).toEqual(reference);

    const store = new Sqlite(old, { readonly: true });
    const released = store.prepare("SELECT value FROM infoboxes, json_each(fields) WHERE page_id = 106 AND rev_id = 1017 AND json_extract(json_each.value, '$[0]') = 'released'").pluck().get();
    store.close();
    expect(JSON.parse(String(released))).toEqual(['released', '10 January 2025']);
  }, 300_000);

  it('answers a value an older reading set with the aliases this reading gives it, as a fresh store does', async () => {
    const fresh = join(dir, 'fresh-aliases.sqlite');
    await weekly(fresh, '2025-02-17', join(dir, 'fresh-aliases-0217'));
    const reference = dayAnswers(join(dir, 'fresh-aliases-0217'), '25021700-103-0');
    expect(reference[0]).toEqual({ date: '2025-02-17', answer: 'Ingrid Solberg (Chair), Marcus Penhallow (CEO)', status: 'ok', aliases: [] });

    const old = join(dir, 'old-aliases.sqlite');
    await weekly(old, '2025-02-03', join(dir, 'old-aliases-0203'));
    asTheFirstAliasReadingLeftIt(old);
    await weekly(old, '2025-02-17', join(dir, 'old-aliases-0217'));
    expect(dayAnswers(join(dir, 'old-aliases-0217'), '25021700-103-0')).toEqual(reference);
  }, 300_000);
});

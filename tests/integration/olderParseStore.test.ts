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
import { jsonLines, repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';

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
 * Turns The Saltmarsh Lantern's revisions 1010 and 1017 (the week of 2025-01-27 and the one before
 * it) into ones the code before migration 25 read: `released` empty, no parse version recorded.
 */
function asAnOlderWikideltaParsedTheWeek(db: string): void {
  const store = new Sqlite(db);
  for (const revId of [1010, 1017]) {
    const row = store.prepare('SELECT rowid, fields FROM infoboxes WHERE page_id = 106 AND rev_id = ?').get(revId) as { rowid: number; fields: string };
    const fields = (JSON.parse(row.fields) as Array<[string, string]>).map(([key, value]): [string, string] => [key, key === 'released' ? '' : value]);
    store.prepare('UPDATE infoboxes SET fields = ?, aliases = NULL WHERE rowid = ?').run(JSON.stringify(fields), row.rowid);
    store.prepare('UPDATE revisions SET parse_version = NULL WHERE page_id = 106 AND rev_id = ?').run(revId);
  }
  store.close();
}

const changesOfTheWeek = async (db: string) =>
  jsonLines((await runCliOk(['--db', db, 'changes', '--start', '2025-01-27', '--end', '2025-02-02', '--all'])).stdout)
    .filter((change) => change.page_id === 106)
    .map(({ rev_id, key, old, new: value }) => ({ rev_id, key, old, new: value }));

/**
 * Turns Brightwater Logistics' first revision, 1003, into one the code before reading version 2 read:
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

  it('diffs an earlier week again only once its revisions are read again, not across the two readings', async () => {
    const fresh = join(dir, 'fresh-redo.sqlite');
    await weekly(fresh, '2025-01-27', join(dir, 'fresh-redo-0127'));
    const reference = await changesOfTheWeek(fresh);
    expect(reference.map((change) => change.key)).toEqual(['gross']);

    const old = join(dir, 'old-redo.sqlite');
    await weekly(old, '2025-01-27', join(dir, 'old-redo-0127'));
    asAnOlderWikideltaParsedTheWeek(old);
    // The next week reads 1017, its window's predecessor, again: the week before now holds both readings,
    // and the next week's timeline 1010 as the older wikidelta read it: said, with the way out.
    await weekly(old, '2025-02-03', join(dir, 'old-redo-0203'));
    const status = (await runCliOk(['--db', old, 'status', '--limit', '1'])).stdout;
    expect(status).toContain('older_readings=1 older_reading_pages=1');
    expect(status).toMatch(/note: 1 revision\(s\) of 1 page\(s\) were read by an older wikidelta: .* --redo collect/);
    expect((await runCliOk(['--db', fresh, 'status', '--limit', '1'])).stdout).not.toContain('older_readings');
    const redo = (stage: string) => runCli(['--db', old, 'weekly', '--start', '2025-01-27', '--dump', SAMPLE, '--llm', 'offline', '--threads', '1', '--redo', stage, '--out', join(dir, `old-redo-0127-${stage}`)]);
    const refused = await redo('diff');
    expect([refused.code, refused.errorCode], refused.stderr).toEqual([1, 'E_PREREQUISITE_MISSING']);
    expect(refused.stderr).toContain('--redo collect');
    expect(await changesOfTheWeek(old)).toEqual(reference);

    const again = await redo('collect');
    expect(again.code, again.stderr).toBe(0);
    expect(await changesOfTheWeek(old)).toEqual(reference);
  }, 300_000);

  it("asks a week's question again when collecting the week again reads its answer another way", async () => {
    const fresh = join(dir, 'fresh-answer.sqlite');
    await weekly(fresh, '2025-01-27', join(dir, 'fresh-answer-0127'));
    const reference = release(join(dir, 'fresh-answer-0127')).queries;
    expect(reference.find((query) => query.id === '25012700-106-0')).toMatchObject({ answer: 'CRN 6.8 million' });

    const old = join(dir, 'old-answer.sqlite');
    await runCliOk(['--db', old, 'weekly', '--start', '2025-01-27', '--dump', SAMPLE, '--llm', 'offline', '--threads', '1', '--stages', 'collect,parse']);
    const store = new Sqlite(old);
    const row = store.prepare('SELECT rowid, fields FROM infoboxes WHERE page_id = 106 AND rev_id = 1017').get() as { rowid: number; fields: string };
    const fields = (JSON.parse(row.fields) as Array<[string, string]>).map(([key, value]): [string, string] => [key, key === 'gross' ? 'CRN 6,800,000' : value]);
    store.prepare('UPDATE infoboxes SET fields = ? WHERE rowid = ?').run(JSON.stringify(fields), row.rowid);
    store.prepare('UPDATE revisions SET parse_version = NULL WHERE page_id = 106').run();
    store.close();
    await weekly(old, '2025-01-27', join(dir, 'old-answer-0127'));
    expect(release(join(dir, 'old-answer-0127')).queries.find((query) => query.id === '25012700-106-0')).toMatchObject({ answer: 'CRN 6,800,000' });

    await runCliOk(['--db', old, 'weekly', '--start', '2025-01-27', '--dump', SAMPLE, '--llm', 'offline', '--threads', '1', '--redo', 'collect', '--out', join(dir, 'old-answer-0127-again')]);
    expect(release(join(dir, 'old-answer-0127-again')).queries).toEqual(reference);
  }, 300_000);
});

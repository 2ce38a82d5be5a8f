/**
 * A dump names its wiki (docs/ARCHITECTURE.md §3): `<siteinfo><dbname>` is the name its pages are
 * stored and released under and `<base>` where its articles are, so a French dump's queries say
 * `frwiki` and link to fr.wikipedia.org, whether the dump comes from a file or standard input, and a
 * later run given no source links as the first did. The settings still win, and a store made before
 * the wiki was read (every dump under "dump") opens, answers and exports as it did.
 */
import Sqlite from 'better-sqlite3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, jsonLines, runCli, runCliOk, startCli, tempDir, waitForOutput } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { TOWN_WEEK_START, townDump } from '../../testkit/townDump.js';

const dir = tempDir('wikidelta-siteinfo-');
const week = ['--start', TOWN_WEEK_START, '--llm', 'offline'];

/** The French sample's real `<siteinfo>` put at the head of the town dump's pages. */
function frenchTownDump(): string {
  const french = readFileSync(join(sharedData, 'frwiki-history-sample.xml'), 'utf8');
  const siteinfo = /<siteinfo>[\s\S]*?<\/siteinfo>/.exec(french)?.[0];
  expect(siteinfo).toContain('<dbname>frwiki</dbname>');
  return townDump(3).replace(/(<mediawiki[^>]*>)/, `$1\n${siteinfo}`);
}

const queries = (release: string) => jsonLines(readFileSync(join(release, 'queries.jsonl'), 'utf8'));

describe("a dump's <siteinfo> names the wiki of a snapshot", () => {
  it("keeps a French snapshot's month apart from the English ones of the same store: making it clears no English item", async () => {
    const db = join(dir, 'snapshots.sqlite');
    const english = join(sharedData, 'enwiki-history-sample.xml');
    for (const date of ['2020-01-01', '2021-01-01']) await runCliOk(['--db', db, 'snapshot', '--name', `en-${date}`, '--dump', english, '--as-of', date]);
    await runCliOk(['--db', db, 'monthly', '--new', 'en-2020-01-01', '--llm', 'offline']);
    await runCliOk(['--db', db, 'monthly', '--old', 'en-2020-01-01', '--new', 'en-2021-01-01', '--llm', 'offline']);
    const englishItems = () => {
      const store = new Sqlite(db, { readonly: true });
      try {
        return store.prepare("SELECT COUNT(*) FROM growover_done WHERE snapshot = 'en-2021-01-01'").pluck().get();
      } finally {
        store.close();
      }
    };
    const before = englishItems();
    expect(before).toBeGreaterThan(0);
    await runCliOk(['--db', db, 'snapshot', '--name', 'fr-2020-06-01', '--dump', join(sharedData, 'frwiki-history-sample.xml'), '--as-of', '2020-06-01']);
    const made = await runCliOk(['--db', db, 'monthly', '--new', 'fr-2020-06-01', '--llm', 'offline']);
    expect(made.stderr).not.toMatch(/clear/i);
    expect(englishItems()).toBe(before);
    const store = new Sqlite(db, { readonly: true });
    expect(store.prepare('SELECT name, wiki FROM snapshots ORDER BY name').all()).toEqual([
      { name: 'en-2020-01-01', wiki: 'dump' },
      { name: 'en-2021-01-01', wiki: 'dump' },
      { name: 'fr-2020-06-01', wiki: 'frwiki' },
    ]);
    store.close();
  }, 180_000);
});

describe("a dump's <siteinfo> names the wiki of its run", () => {
  const dump = join(dir, 'frwiki-towns.xml');
  writeFileSync(dump, frenchTownDump());

  it('stores and releases a French dump as frwiki, linked to fr.wikipedia.org; a run given no source links the same', async () => {
    const db = join(dir, 'fr.sqlite');
    const release = join(dir, 'fr-release');
    await runCliOk(['--db', db, 'weekly', ...week, '--dump', dump, '--out', release]);
    const kept = queries(release);
    expect(kept.length).toBe(3);
    for (const query of kept) {
      expect(query.wiki).toBe('frwiki');
      expect(query.url).toBe(`https://fr.wikipedia.org/wiki/${String(query.title).replace(/ /g, '_')}`);
    }
    expect(readFileSync(join(release, 'README.md'), 'utf8')).toMatch(/language:\n {2}- fr\n/);
    const title = String(kept[0]?.title);
    const answer = await runCliOk(['--db', db, '--json', 'answer', '--title', title, '--key', 'population_total', '--date', '2021-01-06', '--wiki', 'frwiki']);
    expect(JSON.parse(answer.stdout)).toMatchObject({ status: 'ok' });

    // select and export again with no --dump: the store's run of the window is frwiki's, its articles where collect found them.
    const again = join(dir, 'fr-again');
    const rerun = await runCliOk(['--db', db, 'weekly', ...week, '--stages', 'select,export', '--redo', 'select', '--out', again]);
    expect(rerun.stdout).toMatch(/run 1 \(done\)/);
    expect(queries(again).map((query) => [query.wiki, query.url])).toEqual(kept.map((query) => [query.wiki, query.url]));
  }, 900_000);

  it('reads the same from a pipe, whose run begins before its head comes; and the settings win over the dump', async () => {
    // `xzcat frwiki….xml.xz | wikidelta weekly --dump -` whose pipe gives the root and then waits:
    // the run holds the store and shows in status, unnamed, until the <siteinfo> comes and names it.
    const db = join(dir, 'stdin.sqlite');
    const fromStdin = join(dir, 'stdin-release');
    const bytes = readFileSync(dump);
    const rootEnd = bytes.indexOf('>') + 1;
    const child = startCli(['--db', db, '--json', 'weekly', ...week, '--dump', '-', '--out', fromStdin]);
    const ended = collect(child);
    child.stdin?.write(bytes.subarray(0, rootEnd));
    await waitForOutput(child, 'stderr', /"stage":"collect"/);
    const waiting = await runCliOk(['--db', db, 'status']);
    expect(waiting.stdout).toMatch(/^run 1 weekly running /m);
    expect(waiting.stdout).toMatch(/^ {2}window=\S+ days=7 wiki=- /m);
    expect(existsSync(join(fromStdin, 'queries.jsonl'))).toBe(false);
    child.stdin?.end(bytes.subarray(rootEnd));
    const piped = await ended;
    expect(piped.code, piped.stderr).toBe(0);
    expect(queries(fromStdin)).toEqual(queries(join(dir, 'fr-release')));
    const named = await runCliOk(['--db', db, 'status']);
    expect(named.stdout).toMatch(/^run 1 weekly done /m);
    expect(named.stdout).toMatch(/^ {2}window=\S+ days=7 wiki=frwiki /m);

    const set = join(dir, 'set-release');
    const env = { WIKIDELTA_WIKI: 'towns', WIKIDELTA_ARTICLE_BASE_URL: 'https://towns.example/wiki/' };
    await runCliOk(['--db', join(dir, 'set.sqlite'), 'weekly', ...week, '--dump', dump, '--out', set], { env });
    for (const query of queries(set)) {
      expect(query.wiki).toBe('towns');
      expect(String(query.url)).toMatch(/^https:\/\/towns\.example\/wiki\/Town_/);
    }
  }, 900_000);

  it('refuses a <dbname> that is no wiki name, and dump files of two wikis, in one line each', async () => {
    const bad = join(dir, 'bad.xml');
    writeFileSync(bad, frenchTownDump().replace('<dbname>frwiki</dbname>', '<dbname>fr wiki/../x</dbname>'));
    const refused = await runCli(['--db', join(dir, 'bad.sqlite'), 'weekly', ...week, '--dump', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`wikidelta: E_DUMP_MALFORMED: dump ${bad}: its <siteinfo> names the wiki "fr wiki/../x", which is not a database name (letters, digits, _ . -)`);

    const english = join(dir, 'enwiki-towns.xml');
    writeFileSync(english, frenchTownDump().replace('<dbname>frwiki</dbname>', '<dbname>enwiki</dbname>'));
    const mixed = await runCli(['--db', join(dir, 'mixed.sqlite'), 'weekly', ...week, '--dump', dump, '--dump', english]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr.trim()).toMatch(/^wikidelta: E_FLAGS_CONFLICT: the dump files are of different wikis: .*frwiki-towns\.xml \(frwiki, https:\/\/fr\.wikipedia\.org\/wiki\/\) and .*enwiki-towns\.xml \(enwiki, /);

    // On a pipe the run has begun when the head comes: refused there, it fails with nothing written,
    // and the pipe given again with a good dump continues it, named by the dump.
    const pipe = join(dir, 'bad-pipe.sqlite');
    const piped = await runCli(['--db', pipe, 'weekly', ...week, '--dump', '-'], { input: readFileSync(bad) });
    expect(piped.code).toBe(1);
    expect(piped.stderr.trim().split('\n').pop()).toBe('wikidelta: E_DUMP_MALFORMED: dump on standard input: its <siteinfo> names the wiki "fr wiki/../x", which is not a database name (letters, digits, _ . -)');
    const store = new Sqlite(pipe, { readonly: true });
    expect(store.prepare('SELECT COUNT(*) FROM revisions').pluck().get()).toBe(0);
    expect(store.prepare('SELECT COUNT(*) FROM wikis').pluck().get()).toBe(0);
    expect(store.prepare("SELECT id, status, json_extract(params, '$.wiki') AS wiki FROM runs").all()).toEqual([{ id: 1, status: 'failed', wiki: null }]);
    store.close();
    const again = await runCliOk(['--db', pipe, 'weekly', ...week, '--dump', '-', '--stages', 'collect'], { input: readFileSync(dump) });
    expect(again.stdout).toMatch(/^run 1 \(partial\)/);
    const status = await runCliOk(['--db', pipe, 'status']);
    expect(status.stdout).toMatch(/^ {2}window=\S+ days=7 wiki=frwiki /m);
  }, 900_000);
});

describe('a store made before dumps were named by their <siteinfo>', () => {
  it('opens, answers, exports and runs its weeks again under "dump"; the same week under the name the dump now gives is refused', async () => {
    const db = join(dir, 'old.sqlite');
    const dump = join(dir, 'old-towns.xml');
    writeFileSync(dump, frenchTownDump());
    // What the code before migration 23 made of this dump: every page under "dump", English Wikipedia's links, no wikis table.
    await runCliOk(['--db', db, 'weekly', ...week, '--dump', dump, '--out', join(dir, 'old-release')], {
      env: { WIKIDELTA_WIKI: 'dump', WIKIDELTA_ARTICLE_BASE_URL: 'https://en.wikipedia.org/wiki/' },
    });
    const old = new Sqlite(db);
    old.exec('DROP TABLE wikis; DELETE FROM schema_migrations WHERE version = 23');
    old.close();
    const before = queries(join(dir, 'old-release'));
    expect(before.every((query) => query.wiki === 'dump' && String(query.url).startsWith('https://en.wikipedia.org/wiki/'))).toBe(true);

    // Readers first: the store is migrated as it opens, and reads as before.
    const title = String(before[0]?.title);
    const answer = await runCliOk(['--db', db, '--json', 'answer', '--title', title, '--key', 'population_total', '--date', '2021-01-06']);
    expect(JSON.parse(answer.stdout)).toMatchObject({ status: 'ok' });
    const check = new Sqlite(db, { readonly: true });
    expect(check.prepare('SELECT COUNT(*) FROM schema_migrations WHERE version = 23').pluck().get()).toBe(1);
    check.close();
    const exported = join(dir, 'old-export');
    await runCliOk(['--db', db, 'export', 'weekly', '--start', TOWN_WEEK_START, '--out', exported]);
    expect(queries(exported)).toEqual(before);
    // A run of the week with no source is the store's "dump" run, as it was.
    const rerun = await runCliOk(['--db', db, 'weekly', ...week, '--stages', 'select,export', '--redo', 'select', '--out', join(dir, 'old-rerun')]);
    expect(rerun.stdout).toMatch(/run 1 \(done\)/);
    expect(queries(join(dir, 'old-rerun'))).toEqual(before);

    // The dump given again is now read as frwiki, a wiki of its own: the same pages' week would take
    // over the old run's query ids (the first day and the page id), so it is refused, naming that run.
    const renamed = await runCli(['--db', db, 'weekly', ...week, '--dump', dump, '--out', join(dir, 'old-frwiki')]);
    expect(renamed.code).toBe(1);
    expect(renamed.errorCode).toBe('E_WINDOW_CONFLICT');
    expect(renamed.stderr).toMatch(/the store holds the window \S+ \.\. \S+ of dump, whose query ids/);
    // The line names the way on that the README gives, not only another store.
    expect(renamed.stderr).toMatch(/set the wiki setting to dump \(WIKIDELTA_WIKI=dump\)/);
    // Under "dump", as the README says, the dump goes on with its old runs.
    const asBefore = await runCliOk(['--db', db, 'weekly', ...week, '--dump', dump, '--out', join(dir, 'old-again')], { env: { WIKIDELTA_WIKI: 'dump' } });
    expect(asBefore.stdout).toMatch(/run 1 \(done\)/);
    expect(queries(join(dir, 'old-again'))).toEqual(before);
  }, 900_000);
});

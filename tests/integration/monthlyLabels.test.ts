/**
 * Monthly snapshots of the real 30-page sample, from its dump and through a real MediaWiki that
 * imported it, labeled by the command as a user runs it: both paths must give the same sentences
 * and therefore the same labels.
 */
import Sqlite from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCliOk, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { adminClient, startMediaWiki, type MediaWikiServer } from '../../testkit/mediawiki.js';

const SAMPLE = join(sharedData, 'enwiki-history-sample.xml');
const USER_AGENT = 'wikidelta-tests/0.1 (https://example.org/wikidelta; wikidelta-tests@example.org)';
/** Titles held twice in the dump (article, later a redirect) that MediaWiki's importer merges into one page. */
const MERGED_ON_IMPORT = ['The Amazing Spider-Man (2012 film)', "`Abdu'l-Bahá"];
/** January 2021 holds 20 of the sample's revisions. */
const [OLD_DATE, NEW_DATE] = ['2021-01-01', '2021-02-01'];

let wiki: MediaWikiServer;
let dir: string;
let db: string;

/** A step on the test's store that must succeed without logging an error on the way. */
async function cli(args: string[]) {
  const result = await runCliOk(['--db', db, ...args]);
  expect(result.stderr.split('\n').filter((line) => line.includes('"level":"error"'))).toEqual([]);
  return result;
}

/** Title → sentences, for the titles both paths can hold. */
function sentencesByTitle(snapshot: string): Map<string, string[]> {
  const store = new Sqlite(db, { readonly: true });
  const rows = store
    .prepare(
      `SELECT a.title, s.text FROM snapshot_articles a JOIN snapshot_sentences s ON s.snapshot = a.snapshot AND s.page_id = a.page_id
       WHERE a.snapshot = ? ORDER BY a.title, s.idx`,
    )
    .all(snapshot) as Array<{ title: string; text: string }>;
  store.close();
  const byTitle = new Map<string, string[]>();
  for (const row of rows) if (!MERGED_ON_IMPORT.includes(row.title)) byTitle.set(row.title, [...(byTitle.get(row.title) ?? []), row.text]);
  return byTitle;
}

beforeAll(async () => {
  dir = tempDir();
  db = join(dir, 'store.sqlite');
  wiki = await startMediaWiki({ dumps: [SAMPLE] });
}, 180_000);
afterAll(async () => wiki?.stop());

describe('monthly snapshots and labels of the shared sample, from the dump and through the API', () => {
  it('makes both snapshots from the dump, and the same ones through the API from a title list', async () => {
    for (const date of [OLD_DATE, NEW_DATE]) await cli(['snapshot', '--name', `dump-${date}`, '--dump', SAMPLE, '--as-of', date]);
    const titles = [...sentencesByTitle(`dump-${NEW_DATE}`).keys(), ...sentencesByTitle(`dump-${OLD_DATE}`).keys()];
    const titleFile = join(dir, 'titles.txt');
    writeFileSync(titleFile, `# the sample's articles\n${[...new Set(titles)].join('\n')}\n`);
    for (const date of [OLD_DATE, NEW_DATE]) {
      const result = await cli(['snapshot', '--name', `api-${date}`, '--api', wiki.apiUrl, '--as-of', date, '--titles', titleFile, '--user-agent', USER_AGENT]);
      expect(result.stdout).toMatch(new RegExp(`^snapshot api-${date}: \\d+ articles`));
      const fromDump = sentencesByTitle(`dump-${date}`);
      expect(fromDump.size).toBeGreaterThan(15);
      expect(Object.fromEntries(sentencesByTitle(`api-${date}`))).toEqual(Object.fromEntries(fromDump));
    }
  }, 180_000);

  it('labels both pairs, prints the counts per label, and the two paths agree sentence by sentence', async () => {
    const labelsByPath: Record<string, Array<Record<string, unknown>>> = {};
    for (const path of ['dump', 'api']) {
      const printed = await cli(['label', '--old', `${path}-${OLD_DATE}`, '--new', `${path}-${NEW_DATE}`]);
      process.stdout.write(`${path}: ${printed.stdout}`);
      for (const label of ['unchanged', 'changed', 'new', 'undecided', 'deleted']) expect(printed.stdout).toMatch(new RegExp(`^  ${label} +\\d+$`, 'm'));
      const exported = await cli(['export', 'labels', '--old', `${path}-${OLD_DATE}`, '--new', `${path}-${NEW_DATE}`]);
      labelsByPath[path] = jsonLines(exported.stdout).filter((line) => !MERGED_ON_IMPORT.includes(line.title as string));
    }
    const dump = labelsByPath.dump ?? [];
    expect(dump.filter((line) => line.label === 'unchanged').length).toBeGreaterThan(1000);
    expect(dump.filter((line) => line.label === 'changed' || line.label === 'new').length).toBeGreaterThan(0);
    const key = (line: Record<string, unknown>) => JSON.stringify([line.title, line.new_index ?? -1, line.old_index ?? -1, line.label, line.old_indices ?? null]);
    expect((labelsByPath.api ?? []).map(key).sort()).toEqual(dump.map(key).sort());
  }, 600_000);

  it('exports one line per new sentence and per deleted old sentence', async () => {
    const out = join(dir, 'labels.jsonl');
    await cli(['export', 'labels', '--old', `dump-${OLD_DATE}`, '--new', `dump-${NEW_DATE}`, '--out', out]);
    const { readFileSync } = await import('node:fs');
    const lines = jsonLines(readFileSync(out, 'utf8'));
    const newSentences = [...sentencesByTitle(`dump-${NEW_DATE}`).values()].flat().length;
    const sentenceLines = lines.filter((line) => line.label !== 'deleted');
    expect(sentenceLines.length).toBeGreaterThanOrEqual(newSentences);
    for (const line of sentenceLines) {
      expect(Object.keys(line)).toEqual(expect.arrayContaining(['title', 'new_index', 'new_text', 'label', 'old_indices', 'old_text', 'similarity', 'backend']));
    }
    const deleted = lines.filter((l) => l.label === 'deleted');
    expect(deleted.length).toBeGreaterThan(0);
    for (const line of deleted) expect(Object.keys(line).sort()).toEqual(['label', 'old_index', 'old_text', 'title']);
  });

  it('takes the title list from the links of given pages (as from the daily Portal:Current events pages)', async () => {
    const admin = await adminClient(wiki, USER_AGENT);
    await admin.create('Portal:Current events/2021 January 5', '* [[Berlin]] announces a new budget.\n* [[IBM]] reports results; see also [[Talk:IBM]].', 'test portal page');
    await admin.create('Portal:Current events/2021 January 6', '* [[Angela Merkel]] meets [[IBM]] executives in [[Nowhere Land]].', 'test portal page');
    const result = await cli([
      'snapshot', '--name', 'linked', '--api', wiki.apiUrl, '--as-of', NEW_DATE, '--user-agent', USER_AGENT,
      '--titles-from-links', 'Portal:Current events/2021 January 5', 'Portal:Current events/2021 January 6',
    ]);
    expect(result.stdout).toMatch(/^snapshot linked: 3 articles/);
    const linked = sentencesByTitle('linked');
    expect([...linked.keys()].sort()).toEqual(['Angela Merkel', 'Berlin', 'IBM']);
    expect(linked.get('Berlin')).toEqual(sentencesByTitle(`dump-${NEW_DATE}`).get('Berlin'));
  });
});

/**
 * Entity revisions through the API of a real MediaWiki (Debian's, on loopback): the history of
 * testkit/entityWeeks.ts imported with the `wikibase-item` content model on MediaWiki's JSON content
 * handler, and the entities naming its facts imported beside it, which a `wbgetentities` module of the
 * test wiki answers for (testkit/wikibaseApi.ts). The API path gives the dump path's questions and
 * answers, names entities 50 ids a request through the polite client, and asks no id twice.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WbGetEntities } from '../../src/sources/entityNames.js';
import { jsonLines, runCli, tempDir, type CliResult } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { entityHistoryDump, type EntityPage } from '../../testkit/entityHistories.js';
import { ENGLISH_NAMES, entityWeeksPages, labelsDump } from '../../testkit/entityWeeks.js';
import { startFaultProxy } from '../../testkit/faultProxy.js';
import { startMediaWiki, type MediaWikiServer } from '../../testkit/mediawiki.js';
import { wikibaseItemSettings } from '../../testkit/wikibaseApi.js';

const USER_AGENT = 'wikidelta-tests/0.1 (integration tests; wikidelta@example.org)';
/**
 * The descriptiveness check searches the local index: the test wiki's own search reads the JSON text
 * word by word, where Wikidata's (WikibaseCirrusSearch, not packaged) matches labels.
 */
const env = { WIKIDELTA_USER_AGENT: USER_AGENT, WIKIDELTA_SEARCH: 'local' };
const dir = tempDir();
const history = join(dir, 'history.xml');
const labels = join(dir, 'labels.json');
const names = join(dir, 'names.xml');

/** The naming entities as pages of their own, long before the weeks. */
function namePages(): EntityPage[] {
  return Object.entries(ENGLISH_NAMES).map(([id, name], index) => ({
    pageId: 900_000 + index,
    revisions: [{
      revId: 9_000_000 + index,
      timestamp: '2022-01-01T00:00:00Z',
      comment: 'names',
      entity: { type: id.startsWith('P') ? 'property' : 'item', id, labels: { en: { language: 'en', value: name.label } }, aliases: { en: (name.aliases ?? []).map((value) => ({ language: 'en', value })) }, claims: {} },
    }],
  }));
}

async function ok(args: string[]): Promise<CliResult> {
  const run = await runCli(args, { env });
  expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(0);
  return run;
}

describe('entity revisions through the API of a real MediaWiki', () => {
  let wiki: MediaWikiServer;

  beforeAll(async () => {
    writeFileSync(history, entityHistoryDump(entityWeeksPages(sharedData)));
    writeFileSync(labels, labelsDump());
    // The test wiki's wbgetentities (testkit/wikibaseApi.ts) finds properties, as items, by their ids as main-namespace titles.
    writeFileSync(names, entityHistoryDump(namePages(), { propertiesAsItems: true }));
    wiki = await startMediaWiki({ dumps: [history, names], localSettings: wikibaseItemSettings() });
  }, 120_000);
  afterAll(async () => {
    await wiki?.stop();
  });

  it('gives the questions and day answers of the dump, naming entities by wbgetentities instead of a labels file', async () => {
    const fromApi = join(dir, 'api');
    const fromDump = join(dir, 'dump');
    const api = await ok(['--db', join(dir, 'api.sqlite'), 'weekly', '--start', '2023-01-09', '--api', wiki.apiUrl, '--llm', 'offline', '--out', fromApi]);
    expect(api.stdout).toMatch(/labels\s+done\s+ids=\d+ known=\d+ from_wbgetentities=\d+/);
    await ok(['--db', join(dir, 'dump.sqlite'), 'weekly', '--start', '2023-01-09', '--dump', history, '--labels', labels, '--llm', 'offline', '--out', fromDump]);
    const read = (out: string, name: string) => jsonLines(readFileSync(join(out, name), 'utf8')).map(({ query, answer }) => ({ query, answer }));
    expect(read(fromApi, 'queries.jsonl')).toEqual([{ query: 'What is the population of Bielefeld?', answer: '334002' }]);
    for (const day of ['qa_230109.jsonl', 'qa_230112.jsonl', 'qa_230116.jsonl']) expect(read(fromApi, day), day).toEqual(read(fromDump, day));
    const country = await ok(['--db', join(dir, 'api.sqlite'), '--json', 'answer', '--title', 'Bielefeld', '--key', 'P17', '--date', '2023-01-12']);
    expect(JSON.parse(country.stdout)).toMatchObject({ answer: 'Germany', aliases: ['Federal Republic of Germany', 'FRG', 'DE'] });
    // The next week asks for no name the store already has: the first week's ids are all known, only Neihu District's are new.
    const asked = Number(/labels\s+done\s+ids=(\d+)/.exec(api.stdout)?.[1]);
    const next = await ok(['--db', join(dir, 'api.sqlite'), 'weekly', '--start', '2023-01-16', '--api', wiki.apiUrl, '--llm', 'offline', '--out', join(dir, 'api-next')]);
    const [, ids, known] = /labels\s+done\s+ids=(\d+) known=(\d+)/.exec(next.stdout) ?? [];
    expect(Number(known)).toBe(asked);
    expect(Number(ids)).toBeGreaterThan(asked);
  }, 300_000);

  it('names a dump run\'s entities from --labels-api; a wiki that keeps failing stops the labels stage with one line, and the rerun goes on', async () => {
    const proxy = await startFaultProxy(wiki.baseUrl);
    try {
      const db = join(dir, 'labels-api.sqlite');
      const args = ['--db', db, 'weekly', '--start', '2023-01-09', '--dump', history, '--labels-api', `${proxy.baseUrl}/api.php`, '--llm', 'offline', '--out', join(dir, 'labels-api')];
      proxy.failNext(Infinity, { status: 503 });
      const down = await runCli(args, { env: { ...env, WIKIDELTA_MAX_RETRIES: '1', WIKIDELTA_RETRY_BASE_MS: '100' } });
      proxy.heal();
      expect(down.code).toBe(1);
      expect(down.errorCode).toBe('E_WIKI_UNREACHABLE');
      const again = await ok(args);
      expect(again.stdout).toMatch(/collect\s+done.*already done, skipped/);
      expect(again.stdout).toMatch(/labels\s+done\s+ids=\d+ known=\d+ from_wbgetentities=\d+/);
      expect(jsonLines(readFileSync(join(dir, 'labels-api', 'queries.jsonl'), 'utf8')).map(({ query, answer }) => ({ query, answer }))).toEqual([
        { query: 'What is the population of Bielefeld?', answer: '334002' },
      ]);
    } finally {
      await proxy.close();
    }
  }, 300_000);

  it('asks wbgetentities 50 ids a request, and tells a missing entity from one without an English label', async () => {
    const source = new WbGetEntities({ apiUrl: wiki.apiUrl, userAgent: USER_AGENT });
    const ids = [...Object.keys(ENGLISH_NAMES), ...Array.from({ length: 110 }, (_, n) => `Q${10_000_000 + n}`)];
    const before = await wiki.settledRequestCount();
    const found = new Map<string, unknown>();
    await source.names(ids, (batch) => {
      expect(batch.size).toBeLessThanOrEqual(50);
      for (const [id, name] of batch) found.set(id, name);
    });
    expect((await wiki.settledRequestCount()) - before).toBe(Math.ceil(ids.length / 50));
    expect(found.get('P1082')).toEqual({ label: 'population', aliases: [] });
    expect(found.get('Q183')).toEqual({ label: 'Germany', aliases: ['Federal Republic of Germany', 'FRG', 'DE'] });
    expect(found.get('Q10000000')).toBeNull();
    expect(found.size).toBe(ids.length);
  }, 120_000);
});

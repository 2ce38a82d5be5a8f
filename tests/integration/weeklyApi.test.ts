import Sqlite from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { embeddedSampleAnswerCases } from '../support/answerCases.js';
import { startFaultProxy, type FaultProxy } from '../../testkit/faultProxy.js';
import { adminClient, startMediaWiki, type MediaWikiServer } from '../../testkit/mediawiki.js';
import { writeDumpPart } from '../support/splitDump.js';

const USER_AGENT = 'wikidelta-tests/0.1 (integration tests; wikidelta@example.org)';
const env = { WIKIDELTA_USER_AGENT: USER_AGENT, WIKIDELTA_WIKI: 'testwiki' };
/** MediaWiki merges the two histories these titles have in the dump into one (redirect) page. */
const MERGED_ON_IMPORT = new Set(['The Amazing Spider-Man (2012 film)', "`Abdu'l-Bahá"]);

type Change = Record<string, unknown>;
const comparable = (changes: Change[]) =>
  changes
    .filter((change) => !MERGED_ON_IMPORT.has(String(change.title)))
    .map((change) => [change.title, change.timestamp, change.template, change.key, change.old, change.new].join(' | '))
    .sort();

async function changesOf(db: string, start: string, end: string): Promise<Change[]> {
  const listed = await runCliOk(['--db', db, 'changes', '--start', start, '--end', end], { env });
  return jsonLines(listed.stdout);
}

describe('weekly pipeline through the API of a real MediaWiki', () => {
  const dumpXml = join(sharedData, 'enwiki-history-sample.xml');
  let wiki: MediaWikiServer;
  let proxy: FaultProxy;
  const dir = tempDir();

  beforeAll(async () => {
    wiki = await startMediaWiki({ dumps: [dumpXml] });
    proxy = await startFaultProxy(wiki.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await wiki?.stop();
  });

  it.each([
    ['2021-01-01', '365', '2021-12-31'],
    ['2020-03-30', '7', '2020-04-05'],
  ])('yields the same changes as the dump for the window from %s (%s days)', async (start, days, end) => {
    const fromApi = join(dir, `api-${start}.sqlite`);
    const fromDump = join(dir, `dump-${start}.sqlite`);
    await runCliOk(['--db', fromApi, 'weekly', '--start', start, '--days', days, '--api', wiki.apiUrl], { env });
    await runCliOk(['--db', fromDump, 'weekly', '--start', start, '--days', days, '--dump', dumpXml], { env });
    const apiChanges = await changesOf(fromApi, start, end);
    expect(apiChanges.length).toBeGreaterThan(0);
    expect(comparable(apiChanges)).toEqual(comparable(await changesOf(fromDump, start, end)));
  });

  it('answers between two changes and on the day of a change from the API-built timelines', async () => {
    const db = join(dir, 'api-2021-01-01.sqlite');
    const changes = (await changesOf(db, '2021-01-01', '2021-12-31')).filter((c) => c.title === 'Berlin' && c.key === 'population_total');
    expect(changes.length).toBeGreaterThan(0);
    const change = changes[0] as { timestamp: string; old: string; new: string };
    const day = change.timestamp.slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const ask = async (date: string) => {
      const result = await runCliOk(['--db', db, '--json', 'answer', '--title', 'Berlin', '--key', 'population_total', '--date', date], { env });
      return JSON.parse(result.stdout) as { answer: string; status: string; valid_from: string };
    };
    expect(await ask(day)).toMatchObject({ status: 'ok', answer: change.old });
    expect(await ask(next)).toMatchObject({ status: 'ok', answer: change.new, valid_from: change.timestamp });
  });

  it('waits out a wiki that answers 429 and 500 for a while, losing nothing', async () => {
    const clean = join(dir, 'api-2021-01-01.sqlite');
    const db = join(dir, 'faulty.sqlite');
    proxy.resetCounts();
    proxy.failNext(2, { status: 429, retryAfterSeconds: 1 });
    proxy.failNext(3, { status: 500 });
    proxy.failNext(1, { status: 503 });
    await runCliOk(['--db', db, 'weekly', '--start', '2021-01-01', '--days', '365', '--api', `${proxy.baseUrl}/api.php`], {
      env: { ...env, WIKIDELTA_MAX_RETRIES: '8', WIKIDELTA_RETRY_BASE_MS: '100' },
    });
    expect(proxy.counts().faulted).toBe(6);
    expect(comparable(await changesOf(db, '2021-01-01', '2021-12-31'))).toEqual(comparable(await changesOf(clean, '2021-01-01', '2021-12-31')));
  });

  it('fails with one line naming the wiki when it keeps failing, and the rerun completes', async () => {
    const db = join(dir, 'down.sqlite');
    proxy.failNext(Infinity, { status: 503 });
    const run = await runCli(['--db', db, 'weekly', '--start', '2021-01-01', '--days', '365', '--api', `${proxy.baseUrl}/api.php`], {
      env: { ...env, WIKIDELTA_MAX_RETRIES: '1', WIKIDELTA_RETRY_BASE_MS: '100' },
    });
    proxy.heal();
    expect(run.code).toBe(1);
    expect(run.errorCode).toBe('E_WIKI_UNREACHABLE');
    await runCliOk(['--db', db, 'weekly', '--start', '2021-01-01', '--days', '365', '--api', `${proxy.baseUrl}/api.php`], { env });
  });
});

describe('answers for any date on the embedded sample served by a real MediaWiki', () => {
  let wiki: MediaWikiServer;
  afterAll(async () => {
    await wiki?.stop();
  });
  // Imported pages have no move log: moves through the API are covered by the sync test below.
  embeddedSampleAnswerCases(async () => {
    wiki = await startMediaWiki({ dumps: [join(repoRoot, 'data/sample/sample-history.xml')] });
    const db = join(tempDir(), 'sample-api.sqlite');
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-06', '--days', '91', '--api', wiki.apiUrl, '--stages', 'collect,parse,diff,select,timeline'], { env });
    return db;
  }, { movesRecorded: false });
});

describe('sync against a real MediaWiki that received more edits', () => {
  const sample = join(repoRoot, 'data/sample/sample-history.xml');
  const dir = tempDir();
  const split = '2025-02-17T00:00:00Z';
  const first = join(dir, 'first.xml');
  const second = join(dir, 'second.xml');
  const db = join(dir, 'sync.sqlite');
  let wiki: MediaWikiServer;
  let proxy: FaultProxy;
  const answer = async (title: string, key: string, date: string) => {
    const result = await runCliOk(['--db', db, '--json', 'answer', '--title', title, '--key', key, '--date', date], { env });
    return JSON.parse(result.stdout) as { answer: string | null; status: string; valid_to: string | null };
  };

  beforeAll(async () => {
    writeDumpPart(sample, first, { before: split });
    writeDumpPart(sample, second, { from: split });
    wiki = await startMediaWiki({ dumps: [first] });
    proxy = await startFaultProxy(wiki.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await wiki?.stop();
  });

  it('sees a revert early in the week undo an edit made just before it, as the dump does', async () => {
    // Port Aldwin: vandalism on 2025-02-09 22:51, reverted on 2025-02-10 01:14, the only edit of the
    // 48 hours before the week: its revert is known only from the revision before the vandalism.
    const selected = async (source: string[]) => {
      const store = join(dir, `revert-${source[0]}.sqlite`);
      await runCliOk(['--db', store, 'weekly', '--start', '2025-02-10', ...source, '--stages', 'collect,parse,diff,select'], { env });
      const listed = await runCliOk(['--db', store, 'changes', '--start', '2025-02-10', '--end', '2025-02-16', '--selected'], { env });
      return jsonLines(listed.stdout).map((change) => `${change.title} | ${change.key} | ${change.new}`).sort();
    };
    const fromApi = await selected(['--api', wiki.apiUrl]);
    expect(fromApi.some((unit) => unit.startsWith('Port Aldwin |'))).toBe(false);
    expect(fromApi).toEqual(await selected(['--dump', first]));
  });

  it('fetches only the tracked pages that changed, and extends their answers', async () => {
    const api = `${proxy.baseUrl}/api.php`;
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-27', '--api', api], { env });
    expect((await answer('The Saltmarsh Lantern', 'gross', '2025-02-02')).answer).toBe('CRN 6.8 million');
    expect((await answer('The Saltmarsh Lantern', 'gross', '2025-03-30')).status).toBe('unknown');

    await wiki.importDump(second);
    proxy.resetCounts();
    const sync = await runCliOk(['--db', db, '--json', 'sync', '--until', '2025-04-01', '--api', api], { env });

    const store = new Sqlite(db, { readonly: true });
    const tracked = new Set(store.prepare('SELECT DISTINCT page_id FROM data_units').pluck().all() as number[]);
    const changedSince = (since: string) =>
      new Set(store.prepare('SELECT DISTINCT page_id FROM revisions WHERE timestamp >= ? AND metadata_only = 0').pluck().all(since) as number[]);
    const changedTracked = [...changedSince('2025-02-03T00:00:00Z')].filter((pageId) => tracked.has(pageId));
    store.close();
    const { stages } = JSON.parse(sync.stdout) as { stages: { collect: { pages: number } } };
    expect(stages.collect.pages).toBe(changedTracked.length);
    // Only tracked pages were asked about (page facts, revision lists): the wiki changed many more.
    const asked = new Set(
      proxy
        .requests()
        .flatMap((request) => (request.params.get('pageids') ?? '').split('|').filter(Boolean).map(Number)),
    );
    expect(asked.size).toBeGreaterThan(0);
    expect([...asked].every((pageId) => tracked.has(pageId))).toBe(true);
    const recentlyChanged = proxy.requests().filter((request) => request.kind === 'list=recentchanges').length;
    expect(recentlyChanged).toBeGreaterThan(0);
    const counts = proxy.counts();
    console.log(`sync: ${counts.total} requests for ${changedTracked.length} changed of ${tracked.size} tracked pages`, counts.byKind);
    expect(counts.total).toBeLessThan(6 + 2 * changedTracked.length);

    expect((await answer('The Saltmarsh Lantern', 'gross', '2025-03-30')).answer).toBe('CRN 14.6 million');
    expect((await answer('The Saltmarsh Lantern', 'gross', '2025-02-02')).answer).toBe('CRN 6.8 million');
  });

  it('follows a move, a merge into another page and a deletion made through the API', async () => {
    const admin = await adminClient(wiki, USER_AGENT);
    const before = await answer('Quillstone', 'latest_release_version', '2025-03-30');
    expect(before.status).toBe('ok');
    await admin.move('The Saltmarsh Lantern', 'The Saltmarsh Lantern (film)', 'disambiguation');
    await admin.edit('The Saltmarsh Lantern (film)', () => ({ text: '#REDIRECT [[Port Aldwin]]', summary: 'merged into [[Port Aldwin]]' }));
    await admin.delete('Quillstone', 'test deletion');
    const [today, tomorrow] = [0, 1].map((days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10));
    // Asked up to tomorrow, the sync holds the history up to now: the days to come are not known yet.
    const synced = await runCliOk(['--db', db, 'sync', '--until', tomorrow as string, '--api', `${proxy.baseUrl}/api.php`], { env });
    expect(synced.stderr).toMatch(/is still to come: synced up to now/);
    // The value held until the deletion, today, and no longer open.
    const held = await answer('Quillstone', 'latest_release_version', '2025-03-30');
    expect(held).toEqual({ ...before, valid_to: held.valid_to });
    expect(held.valid_to?.slice(0, 10)).toBe(today);
    expect((await answer('Quillstone', 'latest_release_version', tomorrow as string)).status).toBe('unknown');
    // The deletion is recorded at its time (its answers are `deleted` from the first date after it).
    const store = new Sqlite(db, { readonly: true });
    const deletedAt = store.prepare("SELECT l.deleted_at FROM page_lifetimes l JOIN pages p ON p.wiki = l.wiki AND p.page_id = l.page_id WHERE p.title = 'Quillstone'").pluck().get() as string | null;
    store.close();
    expect(deletedAt?.slice(0, 10)).toBe(today);
    const renamed = await answer('The Saltmarsh Lantern (film)', 'gross', today as string);
    expect(renamed).toMatchObject({ status: 'ok', answer: 'CRN 14.6 million' });
    // Its value held until the page became a redirect, now: no later date has it.
    expect(renamed.valid_to?.slice(0, 10)).toBe(today);
    expect(await answer('The Saltmarsh Lantern', 'gross', today as string)).toEqual(renamed);
  });

  it('takes a deleted page that is restored through the API as alive again', async () => {
    const admin = await adminClient(wiki, USER_AGENT);
    await admin.request({ action: 'undelete', title: 'Quillstone', reason: 'restored', token: await admin.getCsrfToken() });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const synced = await runCliOk(['--db', db, 'sync', '--until', tomorrow, '--api', `${proxy.baseUrl}/api.php`], { env });
    expect(synced.stdout).toMatch(/1 restorations/);
    const store = new Sqlite(db, { readonly: true });
    const deletedAt = store.prepare("SELECT l.deleted_at FROM page_lifetimes l JOIN pages p ON p.wiki = l.wiki AND p.page_id = l.page_id WHERE p.title = 'Quillstone'").pluck().get();
    store.close();
    // Restored, its answers are no longer `deleted` once the days after the restoration are synced.
    expect(deletedAt).toBeNull();
  });
});

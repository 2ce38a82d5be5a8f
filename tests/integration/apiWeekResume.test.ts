/**
 * The weekly collect through the API, killed with SIGKILL while it lists recent changes and again
 * while it fetches content, against the simulated wiki of testkit/ on loopback: the reruns continue
 * the listing and the pages where they stopped, end with the same store as an uninterrupted run,
 * and the last rerun asks the wiki less than a whole run does. The listing is gone once collected.
 */
import Sqlite from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, runCliOk, startCli, tempDir } from '../../testkit/cli.js';
import { startSimulatedWiki, type SimulatedWiki } from '../../testkit/simulatedWiki.js';
import { snapshotStore } from '../support/storeSnapshot.js';

const env = { WIKIDELTA_USER_AGENT: 'wikidelta-tests/0.1 (https://example.org/wikidelta; wikidelta-tests@example.org)', WIKIDELTA_WIKI: 'simwiki' };
// 3,000 edits on 700 pages: 20 listing requests for the window and its 48 follow-up hours, about 90 in all.
const WEEK = { start: '2025-01-06T00:00:00Z', edits: 3000, pages: 700 };

let wiki: SimulatedWiki;
beforeAll(async () => {
  wiki = await startSimulatedWiki(WEEK);
});
afterAll(async () => {
  await wiki.stop();
});

function collectArgs(db: string): string[] {
  return ['--db', db, 'weekly', '--start', '2025-01-06', '--api', wiki.apiUrl, '--stages', 'collect'];
}

/** Runs collect and kills it with SIGKILL once `due` says so (asked every 5 ms). */
async function killedWhen(db: string, due: () => boolean): Promise<void> {
  const child = startCli(collectArgs(db), { env });
  const ended = collect(child);
  const timer = setInterval(() => {
    if (due()) child.kill('SIGKILL');
  }, 5);
  const result = await ended;
  clearInterval(timer);
  expect(result.signal, result.stderr).toBe('SIGKILL');
}

/** Killed once the wiki has answered `requests` more requests. */
function killedAfter(db: string, requests: number): Promise<void> {
  const from = wiki.requestCount();
  return killedWhen(db, () => wiki.requestCount() - from >= requests);
}

/** Pages the store has done for the window (0 before the store exists). */
function pagesDone(db: string): number {
  if (!existsSync(db)) return 0;
  const store = new Sqlite(db, { readonly: true });
  try {
    return store.prepare('SELECT COUNT(*) FROM window_pages').pluck().get() as number;
  } finally {
    store.close();
  }
}

function listingRows(db: string): number {
  const store = new Sqlite(db, { readonly: true });
  try {
    return store.prepare('SELECT COUNT(*) FROM rc_listing_edits').pluck().get() as number;
  } finally {
    store.close();
  }
}

describe('API collect killed and rerun', () => {
  it('continues the listing and the pages where it stopped and ends with the store of an uninterrupted run', async () => {
    const whole = join(tempDir(), 'whole.sqlite');
    const before = wiki.requestCount();
    await runCliOk(collectArgs(whole), { env });
    const wholeRequests = wiki.requestCount() - before;
    expect(snapshotStore(whole).window_pages?.length).toBe(WEEK.pages);

    const db = join(tempDir(), 'killed.sqlite');
    await killedAfter(db, 10);
    const spooled = listingRows(db);
    expect(spooled).toBeGreaterThan(0);
    expect(snapshotStore(db).window_pages).toEqual([]);
    // Parsed parts are written a few dozen at a time (docs/ARCHITECTURE.md §4): killed once some pages are done.
    await killedWhen(db, () => pagesDone(db) > 0);
    expect(listingRows(db)).toBeGreaterThan(spooled);
    // Killed while fetching content: some pages are stored and done, not all.
    expect(snapshotStore(db).window_pages?.length).toBeGreaterThan(0);
    expect(snapshotStore(db).window_pages?.length).toBeLessThan(WEEK.pages);
    const last = wiki.requestCount();
    await runCliOk(collectArgs(db), { env });
    const rerunRequests = wiki.requestCount() - last;
    expect(rerunRequests).toBeLessThan(wholeRequests);
    expect(snapshotStore(db)).toEqual(snapshotStore(whole));
    expect(listingRows(db)).toBe(0);
    expect(listingRows(whole)).toBe(0);
  }, 120_000);
});

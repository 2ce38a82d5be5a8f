/**
 * A tracked page merged into another after its week: sync follows it into the redirect, so its
 * answers are those of the same sync through a dump without the merge up to the revision that made it
 * a redirect, and no value from then on, never its last value for ever. The same for a Wikidata item
 * merged into another (its redirect JSON ends its facts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays, formatDate, parseDate } from '../../src/dates.js';
import { Store } from '../../src/store/store.js';
import { answerQuery, type Answer } from '../../src/timeline/answers.js';
import { repoRoot, runCliOk, tempDir } from '../../testkit/cli.js';
import { entityHistoryDump, type EntityPage } from '../../testkit/entityHistories.js';
import { ENTITY_WEEKS, entityWeeksPages, labelsDump, namedEntityPages, NEIHU } from '../../testkit/entityWeeks.js';
import { MERGED_AT, MERGED_PAGE, REDIRECT_REV_ID, writeRedirectedSample } from '../../testkit/redirectedSample.js';
import { sharedData } from '../../testkit/sharedData.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');

/** Each day from `from` until `until` (excluded). */
function daysBetween(from: string, until: string): string[] {
  const days: string[] = [];
  for (let day = from; day < until; day = formatDate(addDays(parseDate(day), 1))) days.push(day);
  return days;
}

/**
 * Every kept query's answer on each day, by query id and day, without the end of its interval: a
 * value's last interval ends at the merge in one store and is open in the other.
 */
function answersOn(db: string, days: readonly string[]): Map<string, Omit<Answer, 'valid_to'>> {
  const store = Store.open(db, { readonly: true });
  try {
    const ids = store.db.prepare('SELECT id FROM queries WHERE kept = 1 ORDER BY id').pluck().all() as string[];
    return new Map(
      ids.flatMap((id) =>
        days.map((day) => {
          const { valid_to: _end, ...answer } = answerQuery(store, id, day);
          return [`${id} ${day}`, answer] as const;
        }),
      ),
    );
  } finally {
    store.close();
  }
}

function queryOf(db: string, pageId: number): string {
  const store = Store.open(db, { readonly: true });
  try {
    return store.db.prepare('SELECT id FROM queries WHERE kept = 1 AND page_id = ?').pluck().get(pageId) as string;
  } finally {
    store.close();
  }
}

/** The weekly run of `week`, then a sync up to `until`, once through each dump into its own store. */
async function syncedThrough(dumps: { plain: string; merged: string }, week: string, until: string, extra: string[] = []): Promise<{ plain: string; merged: string }> {
  const dir = tempDir();
  const dbs = { plain: join(dir, 'plain.sqlite'), merged: join(dir, 'merged.sqlite') };
  for (const which of ['plain', 'merged'] as const) {
    await runCliOk(['--db', dbs[which], 'weekly', '--start', week, '--dump', dumps.plain, '--llm', 'offline', ...extra]);
    await runCliOk(['--db', dbs[which], 'sync', '--until', until, '--dump', dumps[which], ...extra]);
  }
  return dbs;
}

/** The merged store answers as the plain one before `mergedOn`, and the merged page's query with no value from then on. */
function expectEndedAt(dbs: { plain: string; merged: string }, mergedPageId: number, days: readonly string[], mergedOn: string): void {
  const plain = answersOn(dbs.plain, days);
  const merged = answersOn(dbs.merged, days);
  const query = queryOf(dbs.merged, mergedPageId);
  expect(plain.get(`${query} ${days[0]}`)?.status).toBe('ok');
  for (const [key, answer] of merged) {
    const [id, day] = key.split(' ') as [string, string];
    if (id === query && day >= mergedOn) expect(answer, key).toMatchObject({ status: 'no_key', answer: null });
    else expect(answer, key).toEqual(plain.get(key));
  }
  // Without the merge, the page keeps its value: the ending is the redirect's doing.
  expect(plain.get(`${query} ${days.at(-1)}`)?.status).toBe('ok');
}

describe('a tracked page merged into another', () => {
  it("ends the article's values at the redirect revision a sync collects, every answer before it unchanged", async () => {
    const merged = writeRedirectedSample(join(tempDir(), 'merged.xml'));
    const dbs = await syncedThrough({ plain: SAMPLE, merged }, '2025-01-20', '2025-04-01');
    // Both dumps end on 27 March. The answer on a day is the value at 00:00: a merge at noon shows the next day.
    expectEndedAt(dbs, MERGED_PAGE.pageId, daysBetween('2025-01-20', '2025-03-28'), formatDate(addDays(parseDate(MERGED_AT.slice(0, 10)), 1)));
    const store = Store.open(dbs.merged, { readonly: true });
    try {
      const last = store.db.prepare('SELECT rev_id FROM revisions WHERE page_id = ? ORDER BY timestamp DESC LIMIT 1').pluck().get(MERGED_PAGE.pageId);
      expect(last).toBe(REDIRECT_REV_ID);
    } finally {
      store.close();
    }
  }, 180_000);

  it("ends a merged Wikidata item's facts at its redirect", async () => {
    const dir = tempDir();
    const labels = join(dir, 'labels.json');
    writeFileSync(labels, labelsDump());
    // An item edited after the merge in both dumps, so that both hold the history up to the same instant.
    const pages = [...entityWeeksPages(sharedData), ...namedEntityPages(['Q5'], ['2023-01-31T00:00:00Z'])];
    const mergedAt = '2023-01-25T09:30:00Z';
    const withMerge: EntityPage[] = pages.map((page) => {
      const last = page.revisions.at(-1);
      if (page.pageId !== NEIHU.pageId || !last) return page;
      const redirect = { revId: last.revId + 1_000_000, timestamp: mergedAt, comment: 'merged into Q1', entity: last.entity, text: JSON.stringify({ entity: NEIHU.id, redirect: 'Q1' }) };
      return { ...page, redirect: 'Q1', revisions: [...page.revisions, redirect] };
    });
    const plain = join(dir, 'plain.xml');
    const merged = join(dir, 'merged.xml');
    writeFileSync(plain, entityHistoryDump(pages));
    writeFileSync(merged, entityHistoryDump(withMerge));
    const dbs = await syncedThrough({ plain, merged }, ENTITY_WEEKS[0], '2023-02-01', ['--labels', labels]);
    expectEndedAt(dbs, NEIHU.pageId, daysBetween(ENTITY_WEEKS[0], '2023-02-01'), '2023-01-26');
  }, 180_000);
});

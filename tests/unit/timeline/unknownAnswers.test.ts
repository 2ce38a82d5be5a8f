/**
 * Why answers are unknown, and what would make them known: the line names where the store holds the
 * kept queries' histories, so a date past a dump's end does not send the user to a sync that cannot
 * reach it, a date before them is not sent to a sync at all, and imported queries are sent to the
 * published files.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../../src/store/store.js';
import { unknownAnswersReason } from '../../../src/timeline/unknownAnswers.js';
import { tempDir } from '../../../testkit/cli.js';

let store: Store;
beforeEach(() => {
  store = Store.open(join(tempDir(), 'store.sqlite'));
});
afterEach(() => store.close());

/** A kept generated query on the page, of the week starting `week`, and the stretches of the page's history held. */
function generated(id: string, pageId: number, week: string, held: Array<[string, string]>): void {
  store.db
    .prepare("INSERT INTO queries (id, text, origin, wiki, page_id, slot, template, key, window_start, created_at) VALUES (?, 'q', 'generated', 'w', ?, 's', 't', 'k', ?, '2025-01-01T00:00:00Z')")
    .run(id, pageId, `${week}T00:00:00Z`);
  const cover = store.db.prepare("INSERT INTO page_coverage (wiki, page_id, covered_from, covered_until) VALUES ('w', ?, ?, ?)");
  for (const [from, until] of held) cover.run(pageId, from, until);
}

describe('the reason answers are unknown', () => {
  it('names where the histories end, one end or the first to the last, and the sync that extends them', () => {
    generated('a', 1, '2025-01-06', [['2025-01-06T09:00:00Z', '2025-03-27T17:40:00Z']]);
    expect(unknownAnswersReason(store, ['2025-09-01'])).toBe(
      "their pages' histories held end at 2025-03-27T17:40:00Z: sync --until 2025-09-01 from a source that holds that day (a newer dump, or the API) extends them",
    );
    generated('b', 2, '2025-01-13', [['2025-01-13T10:00:00Z', '2025-02-03T00:00:00Z'], ['2025-01-20T00:00:00Z', '2025-03-31T00:00:00Z']]);
    expect(unknownAnswersReason(store, ['2025-03-20', '2025-04-03'])).toBe(
      "their pages' histories held end from 2025-03-27T17:40:00Z to 2025-03-31T00:00:00Z: sync --until 2025-04-03 from a source that holds that day (a newer dump, or the API) extends them",
    );
    // One week's queries: the other page's history does not count.
    expect(unknownAnswersReason(store, ['2025-09-01'], { windowStart: '2025-01-13T00:00:00Z' })).toMatch(/^their pages' histories held end at 2025-03-31T00:00:00Z:/);
  });

  it('on world time names the missing time qualifiers, whatever history the store holds', () => {
    generated('a', 1, '2025-01-06', [['2025-01-06T09:00:00Z', '2025-03-27T17:40:00Z']]);
    expect(unknownAnswersReason(store, ['2025-01-10'], { axis: 'world' })).toBe(
      'their facts have no start, end or point-in-time qualifier (P580, P582, P585) to answer from on world time (--time edit reads what the page said)',
    );
    expect(unknownAnswersReason(store, ['2025-01-10'], { axis: 'world', queryId: 'a' })).toMatch(/^its fact has no start, end or point-in-time qualifier/);
  });

  it('speaks of one query alone, kept or not, when asked of one', () => {
    generated('a', 1, '2025-01-06', [['2025-01-06T09:00:00Z', '2025-03-27T17:40:00Z']]);
    generated('b', 2, '2025-01-13', [['2025-01-13T10:00:00Z', '2025-03-31T00:00:00Z']]);
    store.db.prepare("UPDATE queries SET kept = 0 WHERE id = 'b'").run();
    expect(unknownAnswersReason(store, ['2025-09-01'], { queryId: 'b' })).toBe(
      "its page's history held ends at 2025-03-31T00:00:00Z: sync --until 2025-09-01 from a source that holds that day (a newer dump, or the API) extends it",
    );
    expect(unknownAnswersReason(store, ['2024-01-01'], { queryId: 'a' })).toBe("its page's history held begins at 2025-01-06T09:00:00Z, and a sync extends it forward only");
  });

  it('sends a day before the histories to no sync, and a day between them to the sync that fills the gap', () => {
    generated('a', 1, '2025-01-06', [['2025-01-06T09:00:00Z', '2025-01-13T00:00:00Z'], ['2025-02-03T08:00:00Z', '2025-02-10T00:00:00Z']]);
    expect(unknownAnswersReason(store, ['2024-12-01'])).toBe("their pages' histories held begin at 2025-01-06T09:00:00Z, and a sync extends them forward only");
    expect(unknownAnswersReason(store, ['2025-01-20'])).toBe(
      "the store holds their pages' histories from 2025-01-06T09:00:00Z to 2025-02-10T00:00:00Z with gaps, between the weeks that collected them: run sync --until 2025-01-20",
    );
  });

  it('sends imported queries to the published files, later ones only for a later day', () => {
    store.db.prepare("INSERT INTO queries (id, text, origin, created_at) VALUES ('i', 'q', 'imported', '2025-01-01T00:00:00Z')").run();
    store.db.prepare("INSERT INTO query_answer_intervals (query_id, valid_from, valid_to, answer) VALUES ('i', '2025-02-01T00:00:00Z', '2025-02-04T00:00:00Z', 'x')").run();
    expect(unknownAnswersReason(store, ['2025-03-01'])).toBe('the published files imported hold the days from 2025-02-01 to 2025-02-03: import the later qa_YYMMDD.jsonl files');
    expect(unknownAnswersReason(store, ['2025-01-01'])).toBe('the published files imported hold the days from 2025-02-01 to 2025-02-03');
    generated('a', 1, '2025-01-06', [['2025-01-06T09:00:00Z', '2025-01-13T00:00:00Z']]);
    expect(unknownAnswersReason(store, ['2025-03-01'])).toMatch(/^their pages' histories held end at 2025-01-13T00:00:00Z: .*; the published files imported hold/);
  });
});

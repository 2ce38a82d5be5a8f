import { describe, expect, it } from 'vitest';
import { answerQuery, answersOverDays } from '../../../src/timeline/answers.js';
import { Store } from '../../../src/store/store.js';

/**
 * A page deleted while a value was in effect: the days before the deletion answer that value, held
 * until the deletion (as a value ends where its page became a redirect), the days from it `deleted`;
 * a value that had ended before keeps its own end.
 */
function storeWithDeletedPage(): Store {
  const store = Store.open(':memory:');
  const db = store.db;
  db.prepare('INSERT INTO page_lifetimes (wiki, page_id, created_at, deleted_at) VALUES (?, ?, ?, ?)').run('enwiki', 1, '2025-01-01T00:00:00Z', '2025-03-10T12:00:00Z');
  db.prepare('INSERT INTO page_coverage (wiki, page_id, covered_from, covered_until) VALUES (?, ?, ?, ?)').run('enwiki', 1, '2025-01-01T00:00:00Z', '2025-04-01T00:00:00Z');
  const interval = db.prepare('INSERT INTO infobox_intervals (wiki, page_id, slot, key, template, value, valid_from, valid_to, rev_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  interval.run('enwiki', 1, 'settlement', 'population_total', 'settlement', '100', '2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z', 11);
  interval.run('enwiki', 1, 'settlement', 'population_total', 'settlement', '120', '2025-02-01T00:00:00Z', null, 12);
  db.prepare(
    `INSERT INTO queries (id, text, origin, wiki, page_id, slot, template, key, window_start, window_end, created_at)
     VALUES ('25010600-1-0', 'What is the population of Riverton?', 'generated', 'enwiki', 1, 'settlement', 'settlement', 'population_total', '2025-01-06T00:00:00Z', '2025-01-13T00:00:00Z', '2025-01-13T00:00:00Z')`,
  ).run();
  return store;
}

describe('answers of a deleted page', () => {
  it('ends the value in effect at the deletion, for one query and over a range of days alike', () => {
    const store = storeWithDeletedPage();
    try {
      const days = ['2025-01-15', '2025-03-01', '2025-03-11'];
      const single = days.map((day) => answerQuery(store, '25010600-1-0', day));
      expect(single.map(({ answer, status, valid_to }) => ({ answer, status, valid_to }))).toEqual([
        { answer: '100', status: 'ok', valid_to: '2025-02-01T00:00:00Z' },
        { answer: '120', status: 'ok', valid_to: '2025-03-10T12:00:00Z' },
        { answer: null, status: 'deleted', valid_to: null },
      ]);
      const [overDays] = [...answersOverDays(store, days)];
      expect(overDays?.answers).toEqual(single);
    } finally {
      store.close();
    }
  });
});

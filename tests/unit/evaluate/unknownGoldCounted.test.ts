import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateWeekly } from '../../../src/evaluate/weeklyEvaluation.js';
import { StoreGold } from '../../../src/evaluate/storeCases.js';
import { Store } from '../../../src/store/store.js';

/**
 * A date expects only the kept queries whose answer is known that day; the others are still counted
 * as unknown gold, as `export dailyqa --date` counts them left out, rather than reported as none.
 */
let store: Store;

beforeAll(() => {
  store = Store.open(':memory:');
  const query = store.db.prepare(
    "INSERT INTO queries (id, text, origin, wiki, page_id, slot, template, key, window_start, created_at) VALUES (?, ?, 'generated', 'wikidatawiki', ?, 'wikibase-item', 'wikibase-item', ?, '2023-01-02T00:00:00Z', '2023-01-03T00:00:00Z')",
  );
  const world = store.db.prepare("INSERT INTO world_intervals (wiki, page_id, key, value, aliases, valid_from, valid_to, rev_id) VALUES ('wikidatawiki', ?, ?, ?, NULL, ?, NULL, 5)");
  query.run('population', 'What is the population of Bielefeld?', 1, 'P1082');
  query.run('mayor', 'Who is the mayor of Port Aldwin?', 3, 'P6');
  // No time-qualified statement: unknown on world time, whatever the date.
  query.run('occupation', 'What is the occupation of Henning Christophersen?', 2, 'P106');
  world.run(1, 'P1082', '334002', '2021-12-31T00:00:00Z');
  world.run(3, 'P6', 'Cy', '2023-01-01T00:00:00Z');
});

afterAll(() => store.close());

describe('evaluateWeekly on a date', () => {
  it('expects the known answers only, and counts the unknown ones as unknown gold', () => {
    const report = evaluateWeekly(
      new StoreGold(store),
      (sink) => sink({ id: 'population', prediction: '334002', date: '2023-01-10' }, 'test.jsonl', 1),
      { dates: ['2023-01-10'], week: null, axis: 'world' },
      { seed: 1 },
    );
    expect(report).toMatchObject({ n: 2, scored: 1, missing: 1, unknown: 1 });
  });
});

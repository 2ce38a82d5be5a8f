import { beforeAll, describe, expect, it } from 'vitest';
import { answerChangeStats } from '../../../src/timeline/answerStats.js';
import { answerQuery, answersOverDays } from '../../../src/timeline/answers.js';
import { updateFrequenciesOf } from '../../../src/timeline/updateFrequency.js';
import { Store } from '../../../src/store/store.js';

/**
 * Answers on world time read from a real store: the span of days and the one-day lookup agree on
 * ok (an interval held), no_key (the key has intervals, none then) and unknown (none at all, or an
 * imported query), however many intervals a key has.
 */
let store: Store;

beforeAll(() => {
  store = Store.open(':memory:');
  const db = store.db;
  const query = db.prepare(
    "INSERT INTO queries (id, text, origin, wiki, page_id, slot, template, key, window_start, created_at) VALUES (?, ?, ?, 'wikidatawiki', ?, 'wikibase-item', 'wikibase-item', ?, '2023-01-02T00:00:00Z', '2023-01-03T00:00:00Z')",
  );
  const world = db.prepare("INSERT INTO world_intervals (wiki, page_id, key, value, aliases, valid_from, valid_to, rev_id) VALUES ('wikidatawiki', ?, ?, ?, ?, ?, ?, 5)");
  query.run('population', 'What is the population of Bielefeld?', 'generated', 1, 'P1082');
  query.run('office', 'Which office did Henning Christophersen hold?', 'generated', 2, 'P39');
  query.run('occupation', 'What is the occupation of Henning Christophersen?', 'generated', 2, 'P106');
  query.run('imported', 'Who is the mayor?', 'imported', null, null);
  query.run('mayor', 'Who is the mayor of Port Aldwin?', 'generated', 3, 'P6');
  for (let year = 2000; year <= 2020; year++) world.run(1, 'P1082', String(300_000 + year), null, `${year}-12-31T00:00:00Z`, year === 2020 ? null : `${year + 1}-12-31T00:00:00Z`);
  world.run(2, 'P39', 'European Commissioner', '["Commissioner"]', '1985-01-06T00:00:00Z', '1995-01-22T00:00:00Z');
  world.run(3, 'P6', 'Ann', null, '2020-01-01T00:00:00Z', '2023-01-05T00:00:00Z');
  world.run(3, 'P6', 'Bea', null, '2023-01-05T00:00:00Z', '2023-01-14T00:00:00Z');
  world.run(3, 'P6', 'Cy', null, '2023-01-14T00:00:00Z', null);
});

const statuses = (dates: string[], options: { timelines?: boolean } = {}) => {
  const queries = options.timelines ? answersOverDays(store, dates, { axis: 'world', timelines: true }) : answersOverDays(store, dates, { axis: 'world' });
  return Object.fromEntries([...queries].map(({ id, answers }) => [id, answers.map((a) => [a.status, a.answer, a.aliases])]));
};

describe('answers on world time', () => {
  it('over a span of days: ok where an interval holds, no_key where the key has others, unknown where it has none', () => {
    const dates = ['1990-06-01', '2010-06-01', '2021-06-01'];
    const expected = {
      population: [['no_key', null, []], ['ok', '302009', []], ['ok', '302020', []]],
      office: [['ok', 'European Commissioner', ['Commissioner']], ['no_key', null, []], ['no_key', null, []]],
      occupation: [['unknown', null, []], ['unknown', null, []], ['unknown', null, []]],
      imported: [['unknown', null, []], ['unknown', null, []], ['unknown', null, []]],
      mayor: [['no_key', null, []], ['no_key', null, []], ['ok', 'Ann', []]],
    };
    expect(statuses(dates)).toEqual(expected);
    expect(statuses(dates, { timelines: true })).toEqual(expected);
    for (const [id, answers] of Object.entries(expected)) {
      dates.forEach((date, day) => expect([answerQuery(store, id, date, 'world')].map((a) => [a.status, a.answer, a.aliases])).toEqual([answers[day]]));
    }
  });

  it('says no_key, not unknown, for a timed key on a day outside the span of its intervals', () => {
    expect(statuses(['1800-01-01'])).toMatchObject({ population: [['no_key', null, []]], office: [['no_key', null, []]] });
    expect(answerQuery(store, 'office', '2000-01-01', 'world')).toMatchObject({ status: 'no_key', answer: null });
    expect(answerQuery(store, 'population', '2000-12-31', 'world')).toMatchObject({ status: 'ok', answer: '302000', valid_from: '2000-12-31T00:00:00Z', valid_to: '2001-12-31T00:00:00Z' });
  });

  it("counts a week's answer changes and classes its queries' update frequency on the axis asked for", () => {
    const [world] = answerChangeStats(store, 'world');
    const changed = world?.daily_changes.filter((day) => day.changed > 0);
    // Three queries known on world time every day (the imported one and the fact without dates never are); the mayor changed twice.
    expect(changed).toEqual([
      { date: '2023-01-05', changed: 1, compared: 3 },
      { date: '2023-01-14', changed: 1, compared: 3 },
    ]);
    // On edit time no page of this store has a history held: nothing is known, nothing compared.
    expect(answerChangeStats(store)[0]?.daily_changes.every((day) => day.compared === 0)).toBe(true);
    expect(Object.fromEntries(updateFrequenciesOf(store, '2023-01-02T00:00:00Z', 'world'))).toEqual({
      population: 'infrequent_update',
      office: 'infrequent_update',
      occupation: 'pending',
      imported: 'pending',
      mayor: 'frequent_update',
    });
    expect(new Set(updateFrequenciesOf(store, '2023-01-02T00:00:00Z', 'edit').values())).toEqual(new Set(['pending']));
  });
});

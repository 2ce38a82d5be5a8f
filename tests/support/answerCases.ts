import { beforeAll, expect, it } from 'vitest';
import { answerInstant, answerSubject, type Answer } from '../../src/timeline/answers.js';
import { findPageByTitle } from '../../src/timeline/pageLookup.js';
import { Store } from '../../src/store/store.js';

/**
 * The answers the embedded sample must give on chosen dates, whatever source built the store: before
 * a page existed, between changes, on the day of a change, after a key's removal, around a reverted
 * vandal edit, after a template replacement (and, where the source records moves, under an old title).
 */
export function embeddedSampleAnswerCases(buildStore: () => Promise<string>, options: { movesRecorded: boolean }): void {
  let store: Store;
  const answer = (title: string, key: string, date: string, template?: string): Answer =>
    answerSubject(store, { ...findPageByTitle(store, title), key, template }, answerInstant(date));

  beforeAll(async () => {
    store = Store.open(await buildStore(), { readonly: true });
  });

  it('says the page did not exist yet before its creation', () => {
    expect(answer('2025 Port Aldwin mayoral election', 'turnout', '2025-02-04').status).toBe('no_page');
    expect(answer('2025 Port Aldwin mayoral election', 'turnout', '2025-02-05').status).not.toBe('no_page');
  });

  it('gives the value between two changes, and on the day of a change the value of that midnight', () => {
    const changes = store.db
      .prepare("SELECT timestamp, old, new FROM infobox_changes c JOIN pages p USING (wiki, page_id) WHERE p.title = 'The Saltmarsh Lantern' AND key = 'gross' AND kind = 'changed' ORDER BY timestamp")
      .all() as Array<{ timestamp: string; old: string; new: string }>;
    expect(changes.length).toBeGreaterThan(1);
    const [first, second] = changes as [(typeof changes)[0], (typeof changes)[0]];
    const dayOfChange = first.timestamp.slice(0, 10);
    const dayAfter = new Date(Date.parse(`${dayOfChange}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(answer('The Saltmarsh Lantern', 'gross', dayOfChange)).toMatchObject({ status: 'ok', answer: first.old });
    expect(answer('The Saltmarsh Lantern', 'gross', dayAfter)).toMatchObject({ status: 'ok', answer: first.new, valid_from: first.timestamp, valid_to: second.timestamp });
  });

  it('says no_key after a key was removed', () => {
    expect(answer('Brightwater Logistics', 'num_locations', '2025-03-26')).toMatchObject({ status: 'ok', answer: '219 depots (2025)' });
    expect(answer('Brightwater Logistics', 'num_locations', '2025-03-27').status).toBe('no_key');
  });

  it('never shows a reverted vandal value', () => {
    for (const date of ['2025-02-09', '2025-02-10', '2025-02-11']) {
      expect(answer('Port Aldwin', 'population_total', date)).toMatchObject({ status: 'ok', answer: '418,950' });
    }
    const values = store.db.prepare("SELECT value FROM infobox_intervals WHERE key = 'population_total'").pluck().all();
    expect(values.some((value) => String(value).includes('lol'))).toBe(false);
  });

  it('follows the key across a template replacement', () => {
    expect(answer('Edda Marrow', 'party', '2025-02-05')).toMatchObject({ status: 'ok', answer: 'Independent' });
    expect(answer('Edda Marrow', 'party', '2025-02-06')).toMatchObject({ status: 'ok', answer: 'Civic Harbour Party' });
    expect(answer('Edda Marrow', 'party', '2025-02-06', 'officeholder')).toMatchObject({ answer: 'Civic Harbour Party' });
  });

  if (options.movesRecorded) {
    it('answers under the old and the new title after a move', () => {
      const now = answer('Glass Orchard (band)', 'current_members', '2025-03-01');
      expect(now.status).toBe('ok');
      expect(answer('Glass Orchard', 'current_members', '2025-03-01')).toEqual(now);
    });
  }
}

/**
 * A `--week` the store holds no query of is refused naming the nearest weeks it holds: a day inside a
 * week (a Tuesday for its Monday) was sent to run the weekly pipeline, which cannot help.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireKeptWeek } from '../../../src/cli/keptWeek.js';
import { Store } from '../../../src/store/store.js';
import { tempDir } from '../../../testkit/cli.js';
import { withCode } from '../../support/errorCodes.js';

let store: Store;
beforeEach(() => {
  store = Store.open(join(tempDir(), 'store.sqlite'));
});
afterEach(() => store.close());

function keptQueryOfWeek(id: string, week: string, kept = 1): void {
  store.db
    .prepare("INSERT INTO queries (id, text, origin, wiki, page_id, key, window_start, created_at, kept) VALUES (?, 'q', 'generated', 'w', 1, 'k', ?, '2025-01-01T00:00:00Z', ?)")
    .run(id, `${week}T00:00:00Z`, kept);
}

describe('a --week', () => {
  it('is taken when a kept query was made that week', () => {
    keptQueryOfWeek('a', '2025-02-03');
    expect(() => requireKeptWeek(store, '2025-02-03')).not.toThrow();
  });

  it('is refused naming the nearest weeks held on either side, a week of dropped queries only not among them', () => {
    expect(() => requireKeptWeek(store, '2025-02-04')).toThrow(withCode('E_PREREQUISITE_MISSING', 'the store holds no kept query of any week: run wikidelta weekly, or import the published files'));
    keptQueryOfWeek('a', '2025-01-27');
    keptQueryOfWeek('b', '2025-02-03');
    keptQueryOfWeek('c', '2025-02-10', 0);
    keptQueryOfWeek('d', '2025-02-17');
    expect(() => requireKeptWeek(store, '2025-02-04')).toThrow(
      withCode('E_PREREQUISITE_MISSING', 'the store holds no kept query of a week starting 2025-02-04: give the first day of a week it ran or imported (the nearest: 2025-02-03 before it, 2025-02-17 after it)'),
    );
    expect(() => requireKeptWeek(store, '2025-03-03')).toThrow(withCode('E_PREREQUISITE_MISSING', /\(the nearest: 2025-02-17 before it\)$/));
  });
});

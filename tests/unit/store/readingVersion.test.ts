import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { READING_VERSIONS } from '../../../src/model.js';
import { currentReading } from '../../../src/store/readingVersion.js';

describe('the current reading of a stored revision', () => {
  const db = new Sqlite(':memory:');
  const current = (version: number | null, model: string | null) =>
    db.prepare(`SELECT ? IS ${currentReading('?')} AS current`).pluck().get(version, model) === 1;

  it("compares a revision with its own content model's version, so an upgrade that reads one model anew leaves the others be", () => {
    expect(READING_VERSIONS['wikibase-item']).not.toBe(READING_VERSIONS['wikitext']);
    // A wikitext revision (no model stored) read by the build before this one is current: its reading did not change.
    expect(current(READING_VERSIONS['wikitext'] as number, null)).toBe(true);
    expect(current(READING_VERSIONS['wikitext'] as number, 'wikibase-item')).toBe(false);
    expect(current(READING_VERSIONS['wikibase-item'] as number, 'wikibase-item')).toBe(true);
  });

  it('reads a model it has no version for as wikitext, and a revision with no version recorded as older', () => {
    expect(current(READING_VERSIONS['wikitext'] as number, 'json')).toBe(true);
    expect(current(null, null)).toBe(false);
    expect(current(1, null)).toBe(false);
  });
});

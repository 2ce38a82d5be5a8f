/**
 * A run begun before its source named its wiki (a dump on standard input, docs/ARCHITECTURE.md §3):
 * found by its unnamed parameters until `nameWiki`, then by its wiki's, and left out of the wikis a
 * window ran on meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { Store } from '../../../src/store/store.js';

const WINDOW = { start: '2021-01-04T00:00:00Z', end: '2021-01-11T00:00:00Z' };
const params = (wiki: string | null) => ({ window: WINDOW, days: 7, wiki, seed: 1 });

describe('RunStore.nameWiki', () => {
  it('makes an unnamed run the run of its wiki, found by those parameters from then on', () => {
    const store = Store.open(':memory:');
    const runs = store.runs;
    const { run } = runs.openRun('weekly', params(null), ['collect']);
    expect(runs.findRun('weekly', params(null))?.id).toBe(run.id);
    expect(runs.wikisRunFor('weekly', WINDOW)).toEqual([]);

    runs.nameWiki(run.id, 'frwiki');
    expect(runs.findRun('weekly', params(null))).toBeUndefined();
    expect(runs.findRun('weekly', params('frwiki'))?.id).toBe(run.id);
    expect(runs.getRun(run.id)?.params).toEqual(params('frwiki'));
    expect(runs.wikisRunFor('weekly', WINDOW)).toEqual(['frwiki']);
    store.close();
  });

  it('lets the newer run of a wiki be the one continued when that wiki had run the window already', () => {
    const store = Store.open(':memory:');
    const runs = store.runs;
    const older = runs.openRun('weekly', params('frwiki'), ['collect']).run;
    runs.finishRun(older.id, { status: 'done' });
    const unnamed = runs.openRun('weekly', params(null), ['collect']).run;
    runs.nameWiki(unnamed.id, 'frwiki');
    expect(runs.findRun('weekly', params('frwiki'))?.id).toBe(unnamed.id);
    expect(runs.wikisRunFor('weekly', WINDOW)).toEqual(['frwiki']);
    store.close();
  });
});

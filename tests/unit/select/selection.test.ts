import { describe, expect, it } from 'vitest';
import { filterReason, isFileValue, isStylingKey } from '../../../src/select/changeFilters.js';
import { selectDataUnits, unnamedThroughWindow, type CandidateChange } from '../../../src/select/dataUnits.js';

describe('change filters', () => {
  it('drops styling and layout keys but keeps facts', () => {
    for (const key of ['image', 'image_size', 'bgcolor', 'module', 'embed', 'logo_caption', 'image2', 'flag_size', 'header_style', 'map_caption']) {
      expect(isStylingKey(key), key).toBe(true);
    }
    for (const key of ['population_total', 'revenue', 'successor', 'caps', 'num_locations', 'leader_name', 'gross']) {
      expect(isStylingKey(key), key).toBe(false);
    }
  });

  it('recognises file names as values', () => {
    expect(isFileValue('Berlin Skyline.JPG')).toBe(true);
    expect(isFileValue('File:Logo of IKEA.svg')).toBe(true);
    expect(isFileValue('3,644,826')).toBe(false);
    expect(isFileValue('Example.com')).toBe(false);
  });

  it('gives the reason a change is dropped', () => {
    expect(filterReason({ key: 'image', new: 'x.png' })).toBe('styling_key');
    expect(filterReason({ key: 'population_total', new: ' ' })).toBe('empty_value');
    expect(filterReason({ key: 'photo_of_team', new: 'Team 2024.jpg' })).toBe('file_value');
    expect(filterReason({ key: 'population_total', new: '3,669,491' })).toBeNull();
  });
});

describe('selectDataUnits', () => {
  const change = (pageId: number, revId: number, timestamp: string, key: string): CandidateChange => ({ pageId, revId, timestamp, template: 't', key });

  it('keeps one change per page, from the last revision with a change', () => {
    const units = selectDataUnits(
      [change(1, 10, '2025-01-01T00:00:00Z', 'x'), change(1, 12, '2025-01-03T00:00:00Z', 'y'), change(2, 11, '2025-01-02T00:00:00Z', 'z')],
      7,
    );
    expect(units.map((u) => [u.pageId, u.revId, u.key])).toEqual([[1, 12, 'y'], [2, 11, 'z']]);
  });

  it('draws the key of a multi-key revision from the seed, the same whatever the input order', () => {
    const keys = ['a', 'b', 'c', 'd', 'e', 'f'].map((key) => change(5, 50, '2025-01-01T00:00:00Z', key));
    const first = selectDataUnits(keys, 1)[0]?.key;
    expect(['a', 'b', 'c', 'd', 'e', 'f']).toContain(first);
    expect(selectDataUnits([...keys].reverse(), 1)[0]?.key).toBe(first);
    const drawn = new Set(Array.from({ length: 40 }, (_, seed) => selectDataUnits(keys, seed)[0]?.key));
    expect(drawn.size).toBeGreaterThan(3);
  });
});

describe('unnamedThroughWindow', () => {
  const change = (revId: number, timestamp: string, key: string, value: string): CandidateChange & { value: string } => ({ pageId: 1, revId, timestamp, template: 'wikibase-item', key, value });

  it('rejects a change whose key later in the window takes a value without a name: the days after it would answer an id', () => {
    // Germany -> Taiwan (named), then Taiwan -> Q999999 (no label) two days later in the same week.
    const named = change(2, '2025-01-10T10:00:00Z', 'P17', 'Taiwan');
    const unnamed = change(3, '2025-01-12T10:00:00Z', 'P17', 'Q999999');
    const other = change(2, '2025-01-10T10:00:00Z', 'P6', 'Taiwan');
    const rejected = unnamedThroughWindow([named, unnamed, other], (c) => c.value.startsWith('Q'));
    expect([...rejected].map((c) => [c.revId, c.key])).toEqual([[3, 'P17'], [2, 'P17']]);
    expect(selectDataUnits([named, unnamed, other].filter((c) => !rejected.has(c)), 1).map((c) => c.key)).toEqual(['P6']);
  });

  it('carries an unnamed value back to the earlier changes of its key only, never forward (a later change: its own old value is checked)', () => {
    const unnamed = change(2, '2025-01-10T10:00:00Z', 'P17', 'Q999999');
    const named = change(3, '2025-01-12T10:00:00Z', 'P17', 'Germany');
    const rejected = unnamedThroughWindow([unnamed, named], (c) => c.value.startsWith('Q'));
    expect([...rejected].map((c) => c.revId)).toEqual([2]);
  });
});

import { describe, expect, it } from 'vitest';
import { diffInfoboxes, pairedBefore, pairInfoboxes } from '../../../src/diff/infoboxDiff.js';
import type { Infobox } from '../../../src/model.js';

const box = (template: string, fields: Record<string, string>): Infobox => ({ template, fields: Object.entries(fields) });

describe('diffInfoboxes', () => {
  it('reports changed, added and removed keys of the same infobox', () => {
    const before = [box('settlement', { name: 'Berlin', population_total: '3,644,826', leader_name: 'Michael Müller' })];
    const after = [box('settlement', { name: 'Berlin', population_total: '3,669,491', leader_title: 'Governing Mayor' })];
    expect(diffInfoboxes(before, after)).toEqual([
      { template: 'settlement', key: 'population_total', kind: 'changed', old: '3,644,826', new: '3,669,491' },
      { template: 'settlement', key: 'leader_title', kind: 'added', old: '', new: 'Governing Mayor' },
      { template: 'settlement', key: 'leader_name', kind: 'removed', old: 'Michael Müller', new: '' },
    ]);
  });

  it('gives no change when only the order of two infoboxes changed', () => {
    const a = box('company', { name: 'Acme', revenue: '1' });
    const b = box('football club', { name: 'Acme FC', ground: 'Park' });
    expect(diffInfoboxes([a, b], [b, a])).toEqual([]);
  });

  it('follows a template replacement that keeps most keys, reporting under the new template', () => {
    const before = [box('person', { name: 'Ann Lee', birth_date: '1970', office: 'Senator', party: 'Green' })];
    const after = [box('officeholder', { name: 'Ann Lee', birth_date: '1970', office: 'Governor', party: 'Green' })];
    expect(diffInfoboxes(before, after)).toEqual([{ template: 'officeholder', key: 'office', kind: 'changed', old: 'Senator', new: 'Governor' }]);
  });

  it('treats unrelated templates as one infobox removed and another added', () => {
    const before = [box('person', { name: 'X', spouse: 'Y' })];
    const after = [box('film', { director: 'Z', budget: '$1' })];
    const kinds = diffInfoboxes(before, after).map((c) => `${c.template}:${c.key}:${c.kind}`);
    expect(kinds).toEqual(['film:director:added', 'film:budget:added', 'person:name:removed', 'person:spouse:removed']);
  });

  it('tells two infoboxes of one template apart by occurrence', () => {
    const before = [box('election', { party1: 'A', votes1: '10' }), box('election', { party1: 'B', votes1: '20' })];
    const after = [box('election', { party1: 'A', votes1: '11' }), box('election', { party1: 'B', votes1: '20' })];
    expect(diffInfoboxes(before, after)).toEqual([{ template: 'election', key: 'votes1', kind: 'changed', old: '10', new: '11' }]);
    const after2 = [box('election', { party1: 'A', votes1: '10' }), box('election', { party1: 'B', votes1: '21' })];
    expect(diffInfoboxes(before, after2)[0]?.template).toBe('election#2');
  });

  it('pairs every infobox exactly once', () => {
    const pairs = pairInfoboxes([box('a', { x: '1' }), box('b', { y: '1' })], [box('a', { x: '2' })]);
    expect(pairs).toEqual([
      { oldIndex: 0, newIndex: 0 },
      { oldIndex: 1, newIndex: null },
    ]);
  });
});

describe('pairedBefore', () => {
  it('gives the earlier box a change was found against: a second box of one template, a replaced template, a removed box', () => {
    const before = [box('settlement', { name: 'A', population: '1' }), box('settlement', { name: 'B', population: '2' }), box('person', { name: 'Ann', office: 'Mayor', party: 'X' })];
    const after = [box('settlement', { name: 'A', population: '1' }), box('settlement', { name: 'B', population: '3' }), box('officeholder', { name: 'Ann', office: 'Mayor', party: 'Y' })];
    expect(pairedBefore(before, after, 'settlement#2')).toBe(before[1]);
    expect(diffInfoboxes(before, after).map((change) => change.template)).toEqual(['settlement#2', 'officeholder']);
    expect(pairedBefore(before, after, 'officeholder')).toBe(before[2]);
    expect(pairedBefore(before, [after[0] as Infobox], 'settlement#2')).toBe(before[1]);
    expect(pairedBefore([], after, 'settlement')).toBeUndefined();
  });
});

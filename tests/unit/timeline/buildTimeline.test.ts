import { describe, expect, it } from 'vitest';
import type { Infobox } from '../../../src/model.js';
import { buildTimeline } from '../../../src/timeline/buildTimeline.js';
import type { TimelineRevision } from '../../../src/model/timelines.js';

const box = (template: string, fields: Record<string, string>): Infobox => ({ template, fields: Object.entries(fields) });
let nextId = 1;
const rev = (timestamp: string, infoboxes: Infobox[] | null, sha1: string | null = `h${nextId}`, parentId: number | null = 1): TimelineRevision => ({
  revId: nextId++,
  parentId,
  timestamp,
  sha1,
  infoboxes,
});

describe('buildTimeline', () => {
  it('gives one interval per value, closed where the value changes or the key disappears', () => {
    const revisions = [
      rev('2025-01-01T10:00:00Z', [box('settlement', { population: '100', mayor: 'A' })], 's1', null),
      rev('2025-01-05T10:00:00Z', [box('settlement', { population: '100', mayor: 'B' })]),
      rev('2025-01-09T10:00:00Z', [box('settlement', { population: '120' })]),
    ];
    const timeline = buildTimeline(revisions, 48);
    expect(timeline.createdAt).toBe('2025-01-01T10:00:00Z');
    expect(timeline.intervals.map((i) => [i.key, i.value, i.validFrom, i.validTo])).toEqual([
      ['mayor', 'A', '2025-01-01T10:00:00Z', '2025-01-05T10:00:00Z'],
      ['mayor', 'B', '2025-01-05T10:00:00Z', '2025-01-09T10:00:00Z'],
      ['population', '100', '2025-01-01T10:00:00Z', '2025-01-09T10:00:00Z'],
      ['population', '120', '2025-01-09T10:00:00Z', null],
    ]);
  });

  it('keeps a reverted vandal value out entirely, the restored value unbroken', () => {
    const revisions = [
      rev('2025-01-01T00:00:00Z', [box('settlement', { population: '100' })], 'good'),
      rev('2025-01-02T22:00:00Z', [box('settlement', { population: '999 lol' })], 'vandal'),
      rev('2025-01-03T01:00:00Z', [box('settlement', { population: '100' })], 'good'),
    ];
    const timeline = buildTimeline(revisions, 48);
    expect(timeline.intervals.map((i) => [i.value, i.validFrom, i.validTo])).toEqual([['100', '2025-01-01T00:00:00Z', null]]);
    expect(timeline.createdAt).toBeNull();
  });

  it('follows a replaced template in the same slot, the key history continuing', () => {
    const revisions = [
      rev('2025-01-01T00:00:00Z', [box('person', { name: 'E', party: 'Independent', born: '1970' })]),
      rev('2025-02-05T18:20:00Z', [box('officeholder', { name: 'E', party: 'Civic', born: '1970', office: 'Mayor' })]),
    ];
    const { intervals } = buildTimeline(revisions, 48);
    const party = intervals.filter((i) => i.key === 'party');
    expect(party.map((i) => [i.slot, i.template, i.value])).toEqual([
      ['person', 'person', 'Independent'],
      ['person', 'officeholder', 'Civic'],
    ]);
    expect(intervals.filter((i) => i.key === 'born').map((i) => [i.template, i.validTo])).toEqual([
      ['person', '2025-02-05T18:20:00Z'],
      ['officeholder', null],
    ]);
  });

  it('knows a metadata-only revision by the content of a revision with the same hash, so a revert across the window start keeps the restored value', () => {
    // A week collected alone: the restored revision before the window is metadata, the vandal baseline and the rollback have content.
    const alone = [
      rev('2025-02-08T10:00:00Z', null, 'good'),
      rev('2025-02-09T22:51:26Z', [box('settlement', { population: '999999999 lol' })], 'vandal'),
      rev('2025-02-10T01:14:10Z', [box('settlement', { population: '418,950' })], 'good'),
    ];
    // The same page in a store that holds the earlier week too: the restored revision has its content.
    const shared = [rev('2025-02-01T00:00:00Z', [box('settlement', { population: '418,950' })], 'older'), ...alone];
    shared[1] = rev('2025-02-08T10:00:00Z', [box('settlement', { population: '418,950' })], 'good');
    const at = (revisions: typeof alone, instant: string) =>
      buildTimeline(revisions, 48).intervals.find((i) => i.validFrom <= instant && (i.validTo === null || i.validTo > instant))?.value;
    expect(at(alone, '2025-02-10T00:00:00Z')).toBe('418,950');
    expect(at(shared, '2025-02-10T00:00:00Z')).toBe('418,950');
    expect(buildTimeline(alone, 48).intervals.map((i) => i.value)).toEqual(['418,950']);
  });

  it('ignores metadata-only revisions for values but uses them to see reverts', () => {
    const revisions = [
      rev('2025-01-01T00:00:00Z', [box('film', { gross: '$1' })], 'a'),
      rev('2025-01-07T23:00:00Z', [box('film', { gross: '$999' })], 'b'),
      rev('2025-01-08T01:00:00Z', null, 'a'),
    ];
    const timeline = buildTimeline(revisions, 48);
    expect(timeline.intervals.map((i) => i.value)).toEqual(['$1']);
  });

  it("gives a value an older reading set the aliases this version's reading gives it later, and keeps its own otherwise", () => {
    const people = 'Ingrid Solberg (Chair), Marcus Penhallow (CEO)';
    const withAliases = (fields: Record<string, string>, aliases: Record<string, string[]>): Infobox => ({ ...box('company', fields), aliases });
    const older = rev('2025-01-07T08:25:00Z', [withAliases({ key_people: people, type: 'Public' }, { key_people: ['Chairperson', 'Chief executive officer'], type: ['Public company'] })], 'a', null);
    const revisions = [
      { ...older, olderReading: true },
      rev('2025-02-06T08:05:00Z', [withAliases({ key_people: people, type: 'Public' }, { type: ['Public company'] })], 'b'),
      { ...rev('2025-02-08T08:05:00Z', [withAliases({ key_people: people, type: 'Public' }, { key_people: ['Chairperson'] })], 'c'), olderReading: true },
    ];
    const timeline = buildTimeline(revisions, 48);
    expect(timeline.intervals.map((i) => [i.key, i.revId, i.validFrom, i.aliases])).toEqual([
      ['key_people', older.revId, '2025-01-07T08:25:00Z', undefined],
      ['type', older.revId, '2025-01-07T08:25:00Z', ['Public company']],
    ]);
    expect(buildTimeline([{ ...older, olderReading: true }], 48).intervals.map((i) => i.aliases)).toEqual([['Chairperson', 'Chief executive officer'], ['Public company']]);
  });
});

/** The weekly parse and diff jobs: pure computations whose data and results survive the trip through JSON. */
import { describe, expect, it } from 'vitest';
import { InProcessRunner } from '../../../src/queue/batchRunner.js';
import { diffPage, diffPagesJob, infoboxesNeeded, type DiffBatch, type DiffedBatch } from '../../../src/queue/diffJob.js';
import { parseRevisionsJob, type ParsedBatch } from '../../../src/queue/parseJob.js';

const runner = new InProcessRunner({ models: () => Promise.reject(new Error('no models expected')) });
const window = { start: '2025-02-03T00:00:00Z', end: '2025-02-10T00:00:00Z' };
const town = (population: string) => [{ template: 'settlement', fields: [['name', 'Aldwin'], ['population', population]] as Array<[string, string]> }];

function throughJson<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value));
}

describe('parse job', () => {
  it('parses infoboxes, renders the first paragraph only when asked, and gives a revision without text nothing', async () => {
    const text = "{{Infobox settlement|name=Aldwin|population=300}}\n'''Aldwin''' is a port town.";
    const batch = {
      revisions: [
        { pageId: 5, revId: 50, text, firstParagraph: false },
        { pageId: 5, revId: 51, text, firstParagraph: true },
        { pageId: 6, revId: 60, text: null, firstParagraph: true },
      ],
    };
    expect(parseRevisionsJob.data.parse(throughJson(batch))).toEqual(batch);
    const results: ParsedBatch[] = [];
    await runner.run(parseRevisionsJob, [batch], (parsed) => results.push(parsed));
    const revisions = results[0]?.revisions ?? [];
    expect(revisions.map((revision) => [revision.revId, revision.infoboxes, revision.firstParagraph])).toEqual([
      [50, town('300'), null],
      [51, town('300'), 'Aldwin is a port town.'],
      [60, [], ''],
    ]);
    expect(parseRevisionsJob.output.parse(throughJson(results[0]))).toEqual(results[0]);
    // Its own result answers the batch; one that leaves a revision out or adds another's does not.
    const own = results[0]!;
    expect(parseRevisionsJob.unanswered?.(batch, own)).toBeNull();
    expect(parseRevisionsJob.unanswered?.(batch, { revisions: own.revisions.slice(1) })).toBe('revision 50 of page 5 missing');
    expect(parseRevisionsJob.unanswered?.(batch, { revisions: [...own.revisions, { ...own.revisions[0]!, pageId: 9 }] })).toBe('revision 50 of page 9 not in the batch');
    expect(parseRevisionsJob.unanswered?.(batch, { revisions: [...own.revisions, own.revisions[0]!] })).toBe('revision 50 of page 5 not in the batch');
  });
});

describe('diff job', () => {
  const revisions = [
    { revId: 1, timestamp: '2025-01-20T00:00:00Z', sha1: 'a', metadataOnly: false },
    { revId: 2, timestamp: '2025-02-04T00:00:00Z', sha1: 'b', metadataOnly: false },
    { revId: 3, timestamp: '2025-02-05T00:00:00Z', sha1: 'a', metadataOnly: false },
    { revId: 4, timestamp: '2025-02-06T00:00:00Z', sha1: 'c', metadataOnly: false },
    { revId: 5, timestamp: '2025-02-10T01:00:00Z', sha1: 'd', metadataOnly: true },
  ];
  const infoboxes: Record<number, ReturnType<typeof town>> = { 1: town('300'), 2: town('310'), 3: town('300'), 4: town('') };

  it('asks for the infoboxes of every in-window revision with text and the one before it, no others', () => {
    expect([...infoboxesNeeded(revisions, window)].sort()).toEqual([1, 2, 3, 4]);
    expect([...infoboxesNeeded(revisions, { start: '2025-02-06T00:00:00Z', end: '2025-02-07T00:00:00Z' })].sort()).toEqual([3, 4]);
  });

  it('diffs each in-window revision against its predecessor, with revert and filter marks, as the job and as the function', async () => {
    const batch: DiffBatch = {
      window,
      revertHours: 48,
      pages: [{ pageId: 7, revisions: revisions.map((revision) => ({ ...revision, infoboxes: infoboxes[revision.revId] ?? null })) }],
    };
    const results: DiffedBatch[] = [];
    await runner.run(diffPagesJob, [diffPagesJob.data.parse(throughJson(batch))], (diffed) => results.push(diffed));
    const page = results[0]?.pages[0];
    expect(page?.revisions.map((revision) => [revision.revId, revision.prevRevId, revision.changes.map((c) => [c.key, c.old, c.new, c.revertedBy, c.filtered])])).toEqual([
      [2, 1, [['population', '300', '310', 3, null]]],
      [3, 2, [['population', '310', '300', 3, null]]],
      [4, 3, [['population', '300', '', null, 'empty_value']]],
    ]);
    expect(page).toEqual(diffPage(7, batch.pages[0]!.revisions, window, 48));
    expect(diffPagesJob.output.parse(throughJson(results[0]))).toEqual(results[0]);
    const own = results[0]!;
    expect(diffPagesJob.unanswered?.(batch, own)).toBeNull();
    expect(diffPagesJob.unanswered?.(batch, { pages: [] })).toBe('page 7 missing');
    expect(diffPagesJob.unanswered?.(batch, { pages: [{ ...page!, pageId: 8 }] })).toBe('page 8 not in the batch');
    expect(diffPagesJob.unanswered?.(batch, { pages: [{ pageId: 7, revisions: [{ ...page!.revisions[0]!, revId: 70 }] }] })).toBe('revision 70 after 1 of page 7 not in the batch');
  });

  it('takes the infoboxes of a revision marked the same as its predecessor from it: no change there, the next one diffed against them', () => {
    const repeated = [
      ...revisions.slice(0, 2),
      { revId: 21, timestamp: '2025-02-04T12:00:00Z', sha1: 'e', metadataOnly: false },
      { revId: 22, timestamp: '2025-02-04T13:00:00Z', sha1: 'f', metadataOnly: false },
      ...revisions.slice(2),
    ];
    const full = repeated.map((revision) => ({ ...revision, infoboxes: infoboxes[revision.revId] ?? (revision.revId > 20 ? town('310') : null) }));
    const marked = full.map((revision) => (revision.revId > 20 ? { ...revision, infoboxes: null, sameInfoboxes: true } : revision));
    expect(diffPage(7, marked, window, 48)).toEqual(diffPage(7, full, window, 48));
    expect(diffPage(7, marked, window, 48).revisions.map((revision) => [revision.revId, revision.prevRevId, revision.changes.length])).toEqual([
      [2, 1, 1],
      [21, 2, 0],
      [22, 21, 0],
      [3, 22, 1],
      [4, 3, 1],
    ]);
  });

  it('fails loudly when a revision the diff reads came without its infoboxes', () => {
    const missing = revisions.map((revision) => ({ ...revision, infoboxes: revision.revId === 3 ? null : (infoboxes[revision.revId] ?? null) }));
    expect(() => diffPage(7, missing, window, 48)).toThrow(/infoboxes of revision 3 were not sent/);
  });
});

import { describe, expect, it } from 'vitest';
import { closestSentences, paragraphsHolding, paragraphsNumbered, revisionLinks, timelineAround, type ValueInterval } from '../../../src/audit/freeze.js';

const sentences = [
  { index: 0, paragraph: 0, text: 'A one.' },
  { index: 1, paragraph: 0, text: 'A two.' },
  { index: 2, paragraph: 1, text: 'B one.' },
  { index: 3, paragraph: 2, text: 'C one.' },
  { index: 4, paragraph: 2, text: 'C two.' },
];

describe('paragraphs', () => {
  it('gives the whole paragraphs holding the sentences, in order, a blank line apart', () => {
    expect(paragraphsHolding(sentences, [4, 0])).toBe('A one. A two.\n\nC one. C two.');
    expect(paragraphsHolding(sentences, [9])).toBe('');
    expect(paragraphsNumbered(sentences, new Set([1]))).toBe('B one.');
  });
});

describe('timelineAround', () => {
  const intervals: ValueInterval[] = [
    { value: '1', validFrom: '2025-01-01T00:00:00Z', validTo: '2025-02-01T00:00:00Z' },
    { value: '2', validFrom: '2025-02-01T00:00:00Z', validTo: '2025-03-01T00:00:00Z' },
    { value: '3', validFrom: '2025-03-01T00:00:00Z', validTo: null },
  ];
  const at = (instant: string) => intervals.find((i) => i.validFrom <= instant && (i.validTo === null || instant < i.validTo));

  it('starts with the value before the change and follows every later value', () => {
    expect(timelineAround('2025-02-01T00:00:00Z', at)).toEqual([
      { from: '2025-01-01T00:00:00Z', value: '1' },
      { from: '2025-02-01T00:00:00Z', value: '2' },
      { from: '2025-03-01T00:00:00Z', value: '3' },
    ]);
  });

  it('is empty where no value is known, and stops where the history does', () => {
    expect(timelineAround('2024-06-01T00:00:00Z', at)).toEqual([]);
    expect(timelineAround('2025-01-10T00:00:00Z', (instant) => (instant < '2025-02-01T00:00:00Z' ? at(instant) : undefined))).toEqual([{ from: '2025-01-01T00:00:00Z', value: '1' }]);
  });
});

describe('closest sentences', () => {
  it('keeps the best scored, best first and ties in article order, never one with nothing in common', () => {
    const scored = [
      { text: 'a', similarity: 0.2 },
      { text: 'b', similarity: 0.7 },
      { text: 'c', similarity: 0 },
      { text: 'd', similarity: 0.2 },
      { text: 'e', similarity: 0.5 },
    ];
    expect(closestSentences(scored).map((entry) => entry.text)).toEqual(['b', 'e', 'a']);
    expect(closestSentences(scored, 5).map((entry) => entry.text)).toEqual(['b', 'e', 'a', 'd']);
    expect(closestSentences([{ text: 'x', similarity: 0 }])).toEqual([]);
  });
});

describe('revision links', () => {
  it('points at both revisions and their diff beside a /wiki/ page, or on its index.php', () => {
    expect(revisionLinks('https://en.wikipedia.org/wiki/Riverton_Rovers_F.C.', 1006, 1010, '2024-03-06T12:00:00Z')).toEqual({
      changedAt: '2024-03-06T12:00:00Z',
      before: { revId: 1006, url: 'https://en.wikipedia.org/w/index.php?oldid=1006' },
      after: { revId: 1010, url: 'https://en.wikipedia.org/w/index.php?oldid=1010' },
      diff: 'https://en.wikipedia.org/w/index.php?diff=1010&oldid=1006',
    });
    expect(revisionLinks('http://127.0.0.1:8080/index.php?title=Riverton', 1, 2, 't')?.diff).toBe('http://127.0.0.1:8080/index.php?diff=2&oldid=1');
    expect(revisionLinks('javascript:alert(1)//wiki/x', 1, 2, 't')).toBeUndefined();
    expect(revisionLinks('not a url', 1, 2, 't')).toBeUndefined();
  });
});

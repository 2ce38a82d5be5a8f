import { describe, expect, it } from 'vitest';
import { paragraphsHolding, paragraphsNumbered, timelineAround, type ValueInterval } from '../../../src/audit/freeze.js';

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

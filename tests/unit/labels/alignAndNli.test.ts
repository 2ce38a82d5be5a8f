import { describe, expect, it } from 'vitest';
import { HeuristicNli } from '../../../src/models/heuristicNli.js';
import { nliLabel } from '../../../src/models/nli.js';
import { alignInOrder } from '../../../src/labels/align.js';
import { normaliseSentence, sentenceHash } from '../../../src/text/normalise.js';

describe('alignInOrder', () => {
  it('finds a longest common subsequence of equal hashes, in order', () => {
    expect(alignInOrder(['a', 'b', 'c', 'd', 'e'], ['a', 'x', 'c', 'd', 'y', 'e'])).toEqual([[0, 0], [2, 2], [3, 3], [4, 5]]);
  });

  it('keeps the longer run when a block moved, and handles repeated hashes', () => {
    expect(alignInOrder(['p', 'q', 'r', 's', 't'], ['s', 't', 'p', 'q', 'r'])).toEqual([[0, 2], [1, 3], [2, 4]]);
    expect(alignInOrder(['x', 'a', 'x', 'b', 'x'], ['x', 'x', 'b', 'x'])).toHaveLength(4);
  });

  it('aligns nothing with nothing, and large unrelated texts without blowing up', () => {
    expect(alignInOrder([], ['a'])).toEqual([]);
    const many = Array.from({ length: 3000 }, (_, k) => `s${k % 50}`);
    const shuffled = [...many].reverse();
    // No hash is unique and the stretch is too large for the exact program: left unaligned, at once.
    expect(alignInOrder(many, shuffled)).toEqual([]);
  });
});

describe('sentence normalisation', () => {
  it('ignores case, punctuation and thousands separators, but not decimal points', () => {
    expect(sentenceHash('The area is 106,460,000 km2.')).toBe(sentenceHash('the area is 106460000 km2'));
    expect(sentenceHash('It is second-largest.')).toBe(sentenceHash('It is second largest'));
    expect(normaliseSentence('It has 3.5 million')).not.toBe(normaliseSentence('It has 35 million'));
  });
});

describe('HeuristicNli', () => {
  const nli = new HeuristicNli();
  const judge = async (premise: string, hypothesis: string) => nliLabel((await nli.classify([{ premise, hypothesis }]))[0]!);

  it('reads a substituted number, date or name as a contradiction', async () => {
    expect(await judge('The film grossed CRN 6.8 million.', 'The film grossed CRN 9.4 million.')).toBe('contradiction');
    expect(await judge('The port opened in March 1901.', 'The port opened in April 1901.')).toBe('contradiction');
    expect(await judge('The city is governed by mayor Oren Blake.', 'The city is governed by mayor Edda Marrow.')).toBe('contradiction');
  });

  it('reads a hypothesis the premise already says as entailment', async () => {
    expect(await judge('In 1932 the bridge was opened to traffic.', 'The bridge was opened to traffic in 1932.')).toBe('entailment');
    expect(await judge('The bridge opened in 1932, and it carries a railway.', 'The bridge opened in 1932.')).toBe('entailment');
  });

  it('is neutral about anything else, and says so in its scores', async () => {
    expect(await judge('The bridge opened in 1932.', 'Trams run every ten minutes.')).toBe('neutral');
    const [scores] = await nli.classify([{ premise: 'The bridge opened in 1932.', hypothesis: 'The bridge opened in 1932 after a long delay caused by floods.' }]);
    expect(scores).toEqual({ entailment: 0, neutral: 1, contradiction: 0 });
    expect(nli.id).toBe('heuristic-nli');
  });
});

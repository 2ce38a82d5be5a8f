import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../src/boundedMemo.js';

describe('boundedMemo', () => {
  it('computes each input once while it is kept, undefined results included', () => {
    const calls: string[] = [];
    const memo = boundedMemo((input: string) => {
      calls.push(input);
      return input === 'none' ? undefined : input.length;
    }, 10);
    expect([memo('ab'), memo('ab'), memo('none'), memo('none')]).toEqual([2, 2, undefined, undefined]);
    expect(calls).toEqual(['ab', 'none']);
  });

  it('keeps at most its bound, emptied when full, and computes again what it dropped', () => {
    const calls: number[] = [];
    const memo = boundedMemo((n: number) => {
      calls.push(n);
      return n * 2;
    }, 2);
    expect([1, 2, 3, 3, 1].map(memo)).toEqual([2, 4, 6, 6, 2]);
    expect(calls).toEqual([1, 2, 3, 1]);
  });
});

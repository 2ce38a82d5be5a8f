import { describe, expect, it } from 'vitest';
import {
  cohenKappa,
  fleissKappa,
  krippendorffAlphaNominal,
  majorityOf,
  median,
  wilsonInterval,
} from '../../../src/audit/statistics.js';

describe('wilsonInterval', () => {
  it("matches a hand computation for GrowOVER's 86.7% (26 of 30)", () => {
    // p = 26/30 = 0.866667, z = 1.959964, z² = 3.841459, n = 30.
    // denominator = 1 + z²/n = 1.128049
    // centre = (p + z²/2n) / denominator = (0.866667 + 0.064024) / 1.128049 = 0.825045
    // half = z·√(p(1−p)/n + z²/4n²) / denominator = 1.959964·√(0.003852 + 0.001067) / 1.128049 = 0.121858
    // → [0.7032, 0.9469]
    const interval = wilsonInterval(26, 30);
    expect(interval.value).toBeCloseTo(0.8667, 4);
    expect(interval.low).toBeCloseTo(0.7032, 4);
    expect(interval.high).toBeCloseTo(0.9469, 4);
    expect(interval.n).toBe(30);
  });

  it('reproduces the score intervals Newcombe (1998, Stat. Med. 17:857) gives for his four examples (his method 3)', () => {
    const cases: Array<[number, number, number, number]> = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ];
    for (const [k, n, low, high] of cases) {
      const interval = wilsonInterval(k, n);
      expect(interval.low, `${k}/${n} low`).toBeCloseTo(low, 4);
      expect(interval.high, `${k}/${n} high`).toBeCloseTo(high, 4);
    }
  });

  it('keeps the bounds at exactly 0 and 1, and gives the whole range for no trials', () => {
    expect(wilsonInterval(30, 30).high).toBe(1);
    expect(wilsonInterval(0, 5).low).toBe(0);
    expect(wilsonInterval(0, 0)).toEqual({ value: null, low: 0, high: 1, n: 0 });
    expect(() => wilsonInterval(4, 3)).toThrow(/0 <= k <= n/);
  });

  it('takes half a success, as an item counted half, and nothing finer', () => {
    // 13.5 of 17 (the demo audit's 8 agreed items, 2 agreed on acceptance, 7 split): p = 0.794118,
    // z²/n = 0.225968, denominator 1.225968, centre (0.794118 + 0.112984)/1.225968 = 0.739906,
    // half 1.959964·√(0.0096174 + 0.0033231)/1.225968 = 1.959964·0.113756/1.225968 = 0.181862
    // → [0.558044, 0.921769].
    const interval = wilsonInterval(13.5, 17);
    expect(interval.value).toBeCloseTo(0.794118, 6);
    expect(interval.low).toBeCloseTo(0.558044, 5);
    expect(interval.high).toBeCloseTo(0.921769, 5);
    expect(() => wilsonInterval(13.25, 17)).toThrow(/whole or a half/);
  });
});

describe('median', () => {
  it('is the middle value, the mean of the two middle ones for an even count, null for none', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 10])).toBe(3.5);
    expect(median([])).toBeNull();
  });
});

describe('fleissKappa', () => {
  // Fleiss (1971), "Measuring nominal scale agreement among many raters", Psychol. Bull. 76:378, as
  // worked on Wikipedia's "Fleiss' kappa" page: 10 subjects, 14 raters each, 5 categories.
  // Its figures: P̄ = 0.378, P_e = 0.213, κ = 0.210.
  const fleiss1971 = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];

  it('gives 0.210 on the classic 10-subject, 14-rater table', () => {
    expect(fleissKappa(fleiss1971)).toBeCloseTo(0.21, 3);
  });

  it('generalises to unequal raters per subject by averaging each subject’s own agreement', () => {
    // Subjects with 2, 2 and 3 raters over two categories:
    // P_1 = 2·1/(2·1) = 1, P_2 = 0, P_3 = 3·2/(3·2) = 1 → P̄ = 2/3;
    // category shares over all 7 ratings: 6/7 and 1/7 → P_e = 36/49 + 1/49 = 37/49;
    // κ = (2/3 − 37/49) / (1 − 37/49) = (−13/147) / (12/49) = −13/36.
    expect(fleissKappa([[2, 0], [1, 1], [3, 0]])).toBeCloseTo(-13 / 36, 10);
    // A subject with one rating has no pair and changes nothing.
    expect(fleissKappa([[2, 0], [1, 1], [3, 0], [0, 1]])).toBeCloseTo(-13 / 36, 10);
  });

  it('is null when undefined: no pairs, or every rating in one category', () => {
    expect(fleissKappa([])).toBeNull();
    expect(fleissKappa([[1, 0], [0, 1]])).toBeNull();
    expect(fleissKappa([[3, 0], [3, 0]])).toBeNull();
    expect(fleissKappa([[3, 0], [0, 3]])).toBeCloseTo(1, 10);
  });
});

describe('krippendorffAlphaNominal', () => {
  // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", Annenberg School for
  // Communication, the example with many observers and missing values: reliability data of
  // 4 observers × 12 units ('.' in the paper = null here). Its nominal alpha: 0.743. Unit 12 has
  // a single value and is not pairable.
  const A = [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null];
  const B = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3];
  const C = [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null];
  const D = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null];
  const units = A.map((_, u) => [A[u], B[u], C[u], D[u]]);

  it("gives 0.743 on Krippendorff's own example with missing values", () => {
    expect(krippendorffAlphaNominal(units)).toBeCloseTo(0.743, 3);
  });

  it('reads a missing value and an absent one alike', () => {
    const present = units.map((unit) => unit.filter((value) => value !== null));
    expect(krippendorffAlphaNominal(present)).toBeCloseTo(0.743, 3);
  });

  it('works out by hand on two units', () => {
    // Units [a, a] and [a, b]: o_aa = 2, o_ab = o_ba = 1, n_a = 3, n_b = 1, n = 4;
    // α = 1 − (n − 1)·Σ_{c≠k} o_ck / (n² − Σ n_c²) = 1 − 3·2 / (16 − 10) = 0.
    expect(krippendorffAlphaNominal([['a', 'a'], ['a', 'b']])).toBeCloseTo(0, 10);
    expect(krippendorffAlphaNominal([['a', 'a'], ['b', 'b']])).toBeCloseTo(1, 10);
  });

  it('is null with nothing pairable or no variation', () => {
    expect(krippendorffAlphaNominal([['a'], ['b', null]])).toBeNull();
    expect(krippendorffAlphaNominal([['a', 'a'], ['a', 'a', 'a']])).toBeNull();
  });
});

describe('cohenKappa', () => {
  // Wikipedia's "Cohen's kappa" worked example: 50 proposals, two readers.
  // Both yes 20, A yes / B no 5, A no / B yes 10, both no 15.
  // p_o = 35/50 = 0.7; A says yes 25/50 = 0.5, B 30/50 = 0.6; p_e = 0.5·0.6 + 0.5·0.4 = 0.5;
  // κ = (0.7 − 0.5) / (1 − 0.5) = 0.4.
  const proposals = [
    ...Array.from({ length: 20 }, () => ['yes', 'yes'] as const),
    ...Array.from({ length: 5 }, () => ['yes', 'no'] as const),
    ...Array.from({ length: 10 }, () => ['no', 'yes'] as const),
    ...Array.from({ length: 15 }, () => ['no', 'no'] as const),
  ];

  it("gives 0.4 on Wikipedia's 50-item example", () => {
    expect(cohenKappa(proposals)).toBeCloseTo(0.4, 10);
  });

  it('is null for no common items or a single shared category', () => {
    expect(cohenKappa([])).toBeNull();
    expect(cohenKappa([['a', 'a'], ['a', 'a']])).toBeNull();
    expect(cohenKappa([['a', 'b'], ['b', 'a']])).toBeCloseTo(-1, 10);
  });
});

describe('majorityOf', () => {
  it('names the category with more than half of the votes, else null', () => {
    expect(majorityOf({ correct: 2, debatable: 1, wrong: 0 })).toBe('correct');
    expect(majorityOf({ correct: 0, debatable: 0, wrong: 1 })).toBe('wrong');
    expect(majorityOf({ correct: 1, debatable: 1, wrong: 1 })).toBeNull();
    expect(majorityOf({ correct: 2, debatable: 1, wrong: 1 })).toBeNull();
    expect(majorityOf({ correct: 1, debatable: 0, wrong: 1 })).toBeNull();
    expect(majorityOf({ correct: 0, debatable: 0, wrong: 0 })).toBeNull();
  });
});

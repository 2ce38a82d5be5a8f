import { describe, expect, it } from 'vitest';
import { assignRaters, rebalance, sampleItems, stratumCounts, type Holding } from '../../../src/audit/sample.js';
import { SeededRandom } from '../../../src/random.js';

const candidates = [
  ...Array.from({ length: 40 }, (_, i) => ({ key: `n${i}`, stratum: 'NEW' })),
  ...Array.from({ length: 12 }, (_, i) => ({ key: `c${i}`, stratum: 'CHANGED' })),
  ...Array.from({ length: 3 }, (_, i) => ({ key: `s${i}`, stratum: 'SAME' })),
];

function loads<A>(pairs: ReadonlyArray<{ annotator: A }>): Map<A, number> {
  const counts = new Map<A, number>();
  for (const pair of pairs) counts.set(pair.annotator, (counts.get(pair.annotator) ?? 0) + 1);
  return counts;
}

describe('sampleItems', () => {
  it('draws per stratum, all of a stratum smaller than asked, and none twice', () => {
    const drawn = sampleItems(candidates, { perStratum: 10 }, new SeededRandom(1));
    expect(stratumCounts(drawn)).toEqual({ CHANGED: 10, NEW: 10, SAME: 3 });
    expect(new Set(drawn.map((item) => item.key)).size).toBe(23);
  });

  it('shuffles the strata together rather than queueing them one after another', () => {
    const drawn = sampleItems(candidates, { perStratum: 10 }, new SeededRandom(1));
    const runs = drawn.filter((item, i) => i > 0 && item.stratum !== drawn[i - 1]?.stratum).length;
    expect(runs).toBeGreaterThan(4);
  });

  it('draws a simple random sample of the size asked, the same for the same seed and different for another', () => {
    const first = sampleItems(candidates, { size: 20 }, new SeededRandom('s'));
    expect(first).toHaveLength(20);
    expect(sampleItems(candidates, { size: 20 }, new SeededRandom('s'))).toEqual(first);
    expect(sampleItems(candidates, { size: 20 }, new SeededRandom('t')).map((c) => c.key)).not.toEqual(first.map((c) => c.key));
    expect(sampleItems(candidates, { size: 100 }, new SeededRandom('s'))).toHaveLength(candidates.length);
  });

  it('leaves out the keys the audit holds already', () => {
    const held = new Set(candidates.filter((c) => c.stratum !== 'SAME').map((c) => c.key));
    expect(sampleItems(candidates, { size: 10 }, new SeededRandom(2), held).map((c) => c.key).sort()).toEqual(['s0', 's1', 's2']);
  });
});

describe('assignRaters', () => {
  it('gives each item to K different annotators, every load within one of the others, the same for the same seed', () => {
    const items = Array.from({ length: 31 }, (_, i) => i + 1);
    const pairs = assignRaters(items, ['alice', 'bob', 'carol', 'dave'], 3, new SeededRandom(9));
    for (const item of items) {
      const raters = pairs.filter((pair) => pair.itemId === item).map((pair) => pair.annotator);
      expect(new Set(raters).size).toBe(3);
    }
    const counts = [...loads(pairs).values()];
    expect(counts.reduce((a, b) => a + b, 0)).toBe(93);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(assignRaters(items, ['alice', 'bob', 'carol', 'dave'], 3, new SeededRandom(9))).toEqual(pairs);
  });

  it('fills up the annotators who hold less when items are added later', () => {
    const pairs = assignRaters([1, 2, 3, 4, 5, 6], ['alice', 'bob', 'carol'], 2, new SeededRandom(3), new Map([['alice', 6], ['bob', 6]]));
    expect(Object.fromEntries(loads(pairs))).toEqual({ carol: 6, alice: 3, bob: 3 });
  });

  it('refuses more raters per item than annotators', () => {
    expect(() => assignRaters([1], ['alice', 'bob'], 3, new SeededRandom(1))).toThrow(/3 raters per item need at least 3 annotators/);
  });
});

describe('rebalance', () => {
  it('hands unjudged items to a late annotator until loads are within one, keeping each item on distinct raters', () => {
    const pairs = assignRaters(Array.from({ length: 12 }, (_, i) => i), ['alice', 'bob'], 2, new SeededRandom(4));
    const holdings: Holding<string>[] = pairs.map((pair) => ({ ...pair, judged: pair.annotator === 'alice' && pair.itemId < 10 }));
    const moves = rebalance(holdings, ['alice', 'bob', 'carol']);
    const after = holdings.map((h) => ({ ...h }));
    for (const move of moves) {
      const moved = after.find((h) => h.itemId === move.itemId && h.annotator === move.from);
      expect(moved?.judged).toBe(false);
      if (moved) moved.annotator = move.to;
    }
    for (let item = 0; item < 12; item++) expect(new Set(after.filter((h) => h.itemId === item).map((h) => h.annotator)).size).toBe(2);
    // alice's judged items stay hers (10 of her 12); bob gives the rest: 10, 7, 7.
    expect(Object.fromEntries(loads(after))).toEqual({ alice: 10, bob: 7, carol: 7 });
  });

  it('only gives to the newcomer when nothing is judged yet: no one else is drained and refilled with items they never had', () => {
    // 70 items, 3 raters each, over four annotators (52, 53, 53, 52): a fifth takes 42, every one of them to her.
    const pairs = assignRaters(Array.from({ length: 70 }, (_, i) => i), ['alice', 'bob', 'carol', 'dave'], 3, new SeededRandom(7));
    const holdings: Holding<string>[] = pairs.map((pair) => ({ ...pair, judged: false }));
    const moves = rebalance(holdings, ['alice', 'bob', 'carol', 'dave', 'erin']);
    expect(moves).toHaveLength(42);
    expect(moves.every((move) => move.to === 'erin')).toBe(true);
  });
});

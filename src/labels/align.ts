/**
 * In-order alignment of two sequences of sentence hashes: a longest common subsequence found the
 * patience way (hashes unique on both sides anchor the alignment, recursively between anchors,
 * equal prefixes and suffixes taken first), with an exact dynamic program only for small
 * stretches that have no unique common hash. Pure and model-free (docs/ARCHITECTURE.md §7.3.1).
 */

/** Pairs [oldIndex, newIndex] of equal hashes, increasing in both. */
export type Alignment = Array<[number, number]>;

/** Stretches without unique anchors up to this many cells are aligned exactly; larger ones are left to later steps. */
const EXACT_CELLS = 250_000;

/**
 * The longest in-order pairing of equal hashes between an article's old and new sentences: the
 * sentences that stayed, in order, as the labeler's first step.
 *
 * @param oldHashes - a hash per sentence of the old version, in order
 * @param newHashes - the same for the new version
 * @returns `[oldIndex, newIndex]` pairs, increasing in both
 * @example alignInOrder(['a', 'b', 'c'], ['a', 'x', 'c']) // [[0, 0], [2, 2]]
 */
export function alignInOrder(oldHashes: readonly string[], newHashes: readonly string[]): Alignment {
  const pairs: Alignment = [];
  alignRange(oldHashes, newHashes, 0, oldHashes.length, 0, newHashes.length, pairs);
  return pairs.sort((a, b) => a[0] - b[0]);
}

function alignRange(a: readonly string[], b: readonly string[], aLo: number, aHi: number, bLo: number, bHi: number, out: Alignment): void {
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) out.push([aLo++, bLo++]);
  const tail: Alignment = [];
  while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) tail.push([--aHi, --bHi]);
  if (aLo < aHi && bLo < bHi) {
    const anchors = uniqueCommonAnchors(a, b, aLo, aHi, bLo, bHi);
    if (anchors.length > 0) {
      let prevA = aLo;
      let prevB = bLo;
      for (const [i, j] of anchors) {
        alignRange(a, b, prevA, i, prevB, j, out);
        out.push([i, j]);
        prevA = i + 1;
        prevB = j + 1;
      }
      alignRange(a, b, prevA, aHi, prevB, bHi, out);
    } else if ((aHi - aLo) * (bHi - bLo) <= EXACT_CELLS) {
      out.push(...exactLcs(a, b, aLo, aHi, bLo, bHi));
    }
  }
  out.push(...tail.reverse());
}

/** Hashes occurring exactly once in each range, paired, then the longest chain increasing in both. */
function uniqueCommonAnchors(a: readonly string[], b: readonly string[], aLo: number, aHi: number, bLo: number, bHi: number): Alignment {
  const countA = new Map<string, number>();
  const countB = new Map<string, { count: number; at: number }>();
  for (let i = aLo; i < aHi; i++) countA.set(a[i] as string, (countA.get(a[i] as string) ?? 0) + 1);
  for (let j = bLo; j < bHi; j++) {
    const entry = countB.get(b[j] as string);
    countB.set(b[j] as string, { count: (entry?.count ?? 0) + 1, at: j });
  }
  const candidates: Alignment = [];
  for (let i = aLo; i < aHi; i++) {
    const hash = a[i] as string;
    const inB = countB.get(hash);
    if (countA.get(hash) === 1 && inB?.count === 1) candidates.push([i, inB.at]);
  }
  return longestIncreasingByNew(candidates);
}

/** Patience sorting: the longest subsequence of pairs (sorted by old index) increasing in new index. */
function longestIncreasingByNew(pairs: Alignment): Alignment {
  const tops: number[] = [];
  const previous: number[] = new Array<number>(pairs.length).fill(-1);
  pairs.forEach(([, j], k) => {
    let lo = 0;
    let hi = tops.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pairs[tops[mid] as number] as [number, number])[1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[k] = tops[lo - 1] as number;
    tops[lo] = k;
  });
  const chain: Alignment = [];
  for (let k = tops.at(-1) ?? -1; k !== -1; k = previous[k] as number) chain.push(pairs[k] as [number, number]);
  return chain.reverse();
}

function exactLcs(a: readonly string[], b: readonly string[], aLo: number, aHi: number, bLo: number, bHi: number): Alignment {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] =
        a[aLo + i] === b[bLo + j]
          ? (table[(i + 1) * (m + 1) + j + 1] as number) + 1
          : Math.max(table[(i + 1) * (m + 1) + j] as number, table[i * (m + 1) + j + 1] as number);
    }
  }
  const pairs: Alignment = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[aLo + i] === b[bLo + j]) pairs.push([aLo + i++, bLo + j++]);
    else if ((table[(i + 1) * (m + 1) + j] as number) >= (table[i * (m + 1) + j + 1] as number)) i++;
    else j++;
  }
  return pairs;
}

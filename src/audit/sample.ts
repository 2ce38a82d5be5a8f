/**
 * Which items an audit holds and who judges each (docs/ARCHITECTURE.md §14). Pure: the candidates
 * and the random generator come in, so the same seed gives the same sample and the same
 * assignments on every machine.
 */
import type { SeededRandom } from '../random.js';

/** How many to draw: a simple random sample of `size`, or `perStratum` from every stratum (all of a smaller one). */
export type SamplePlan = { size: number } | { perStratum: number };

export interface Candidate {
  key: string;
  stratum: string;
}

/**
 * Draws the sample from the candidates whose key is not in `exclude` (the audit's items, when it
 * grows), in a shuffled order so that an annotator's queue does not run stratum by stratum.
 */
export function sampleItems<T extends Candidate>(candidates: readonly T[], plan: SamplePlan, random: SeededRandom, exclude: ReadonlySet<string> = new Set()): T[] {
  const open = candidates.filter((candidate) => !exclude.has(candidate.key));
  if ('size' in plan) return random.sample(open, plan.size);
  const strata = new Map<string, T[]>();
  for (const candidate of open) strata.set(candidate.stratum, [...(strata.get(candidate.stratum) ?? []), candidate]);
  const drawn = [...strata.keys()].sort().flatMap((stratum) => random.sample(strata.get(stratum) ?? [], plan.perStratum));
  return random.sample(drawn, drawn.length);
}

/** How many items of each stratum a list holds, strata in name order. */
export function stratumCounts(items: readonly Candidate[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of [...items].sort((a, b) => a.stratum.localeCompare(b.stratum))) counts[item.stratum] = (counts[item.stratum] ?? 0) + 1;
  return counts;
}

/**
 * Gives each item to `raters` different annotators, always the least loaded ones (`load` holds what
 * each has already; ties broken at random), so every annotator ends within one item of the others.
 */
export function assignRaters<A>(itemIds: readonly number[], annotators: readonly A[], raters: number, random: SeededRandom, load: ReadonlyMap<A, number> = new Map()): Array<{ itemId: number; annotator: A }> {
  if (raters > annotators.length) throw new RangeError(`${raters} raters per item need at least ${raters} annotators, not ${annotators.length}`);
  const loads = new Map(annotators.map((annotator) => [annotator, load.get(annotator) ?? 0]));
  const pairs: Array<{ itemId: number; annotator: A }> = [];
  for (const itemId of itemIds) {
    const chosen = random
      .sample(annotators, annotators.length)
      .sort((a, b) => (loads.get(a) ?? 0) - (loads.get(b) ?? 0))
      .slice(0, raters);
    for (const annotator of chosen) {
      loads.set(annotator, (loads.get(annotator) ?? 0) + 1);
      pairs.push({ itemId, annotator });
    }
  }
  return pairs;
}

export interface Holding<A> {
  itemId: number;
  annotator: A;
  /** Judged by that annotator already: its work stays where it is. */
  judged: boolean;
}

/**
 * Moves unjudged assignments from the most loaded annotators to the least loaded (an annotator who
 * joined late) until no two differ by more than one item, or nothing more can move. Each item keeps
 * its number of raters; the items moved are the ones the giver would have reached last.
 */
export function rebalance<A>(holdings: readonly Holding<A>[], annotators: readonly A[]): Array<{ itemId: number; from: A; to: A }> {
  const held = new Map(annotators.map((annotator) => [annotator, [] as Holding<A>[]]));
  for (const holding of holdings) held.get(holding.annotator)?.push(holding);
  const raters = new Map<number, Set<A>>();
  for (const holding of holdings) raters.set(holding.itemId, (raters.get(holding.itemId) ?? new Set<A>()).add(holding.annotator));
  const moves: Array<{ itemId: number; from: A; to: A }> = [];
  for (;;) {
    const byLoad = [...annotators].sort((a, b) => (held.get(a)?.length ?? 0) - (held.get(b)?.length ?? 0));
    const receiver = byLoad[0];
    if (receiver === undefined) return moves;
    const receiverLoad = held.get(receiver)?.length ?? 0;
    const movable = (giver: A) => (held.get(giver) ?? []).filter((h) => !h.judged && !raters.get(h.itemId)?.has(receiver));
    // A giver with fewer items it may give than it holds above the receiver goes first, fewest first,
    // while it still can (another's gifts to the receiver can take its last ones); else the most
    // loaded. Fewest first for everyone drained the least loaded giver below the others, who then
    // refilled it with items it never had: one annotator added reshuffled every queue.
    const scarce = (option: { load: number; options: readonly unknown[] }) => option.options.length < option.load - receiverLoad;
    const move = annotators
      .filter((giver) => (held.get(giver)?.length ?? 0) - receiverLoad > 1)
      .map((giver) => ({ giver, load: held.get(giver)?.length ?? 0, options: movable(giver) }))
      .filter((option) => option.options.length > 0)
      .sort(
        (a, b) =>
          Number(scarce(b)) - Number(scarce(a)) ||
          (scarce(a) ? a.options.length - b.options.length : 0) ||
          b.load - a.load ||
          a.options.length - b.options.length,
      )
      .map((option) => ({ giver: option.giver, holding: option.options.at(-1) }))[0];
    if (move?.holding === undefined) return moves;
    const { giver, holding } = move;
    held.set(giver, (held.get(giver) ?? []).filter((h) => h !== holding));
    held.get(receiver)?.push({ itemId: holding.itemId, annotator: receiver, judged: false });
    raters.get(holding.itemId)?.delete(giver);
    raters.get(holding.itemId)?.add(receiver);
    moves.push({ itemId: holding.itemId, from: giver, to: receiver });
  }
}

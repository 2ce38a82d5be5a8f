/**
 * Percentile bootstrap intervals for mean scores, resampling clusters with replacement by a seeded
 * generator: a query answered on 80 dates is one unit, not 80, since its answers stand or fall
 * together (resampling the items would make the interval about half as wide as it is). Every group
 * of a report (all items, each domain, each week, ...) is computed from the same resamples: a
 * resample draws the clusters once, and a group's mean is its score sums over the drawn clusters,
 * each counted as often as it was drawn. The same scores and seed give the same intervals on every
 * machine.
 */
import { SeededRandom } from '../random.js';

/** How intervals are drawn: the seed (the same seed gives the same intervals), resamples and confidence. */
export interface BootstrapOptions {
  /** Resamples drawn; 1,000 by default. */
  resamples?: number;
  /** 0.95 by default. */
  confidence?: number;
  seed: number | string;
}

/** An interval [low, high]; [0, 0] when there is nothing to resample. */
export type Interval = [number, number];

/**
 * One group's scores, summed per cluster: the rows a resample reweights. Clusters are numbered by
 * the caller (0 … clusterCount - 1) across all groups of one report.
 */
export class ClusteredSums {
  private readonly rowOf = new Map<number, number>();
  private clusterIds = new Int32Array(16);
  private counts = new Float64Array(16);
  private sums: Float64Array;
  private totals: Float64Array;
  /** Items added. */
  n = 0;

  constructor(readonly metrics: number) {
    this.sums = new Float64Array(16 * metrics);
    this.totals = new Float64Array(metrics);
  }

  add(cluster: number, scores: ArrayLike<number>): void {
    let row = this.rowOf.get(cluster);
    if (row === undefined) {
      row = this.rowOf.size;
      this.rowOf.set(cluster, row);
      if (row === this.clusterIds.length) this.grow();
      this.clusterIds[row] = cluster;
    }
    this.counts[row] = (this.counts[row] as number) + 1;
    for (let m = 0; m < this.metrics; m++) {
      const score = scores[m] as number;
      this.sums[row * this.metrics + m] = (this.sums[row * this.metrics + m] as number) + score;
      this.totals[m] = (this.totals[m] as number) + score;
    }
    this.n++;
  }

  /** Whether the other group holds the same items per cluster (and so the same sums). */
  holdsSameAs(other: ClusteredSums): boolean {
    if (other.metrics !== this.metrics || other.rowOf.size !== this.rowOf.size) return false;
    for (const [cluster, row] of this.rowOf) {
      const theirs = other.rowOf.get(cluster);
      if (theirs === undefined || other.counts[theirs] !== this.counts[row]) return false;
      for (let m = 0; m < this.metrics; m++) if (other.sums[theirs * this.metrics + m] !== this.sums[row * this.metrics + m]) return false;
    }
    return true;
  }

  /** Clusters with at least one item in the group. */
  get clusters(): number {
    return this.rowOf.size;
  }

  /** The mean of each metric over the group's items (0 for none). */
  means(): number[] {
    return Array.from(this.totals, (total) => (this.n === 0 ? 0 : total / this.n));
  }

  /** Adds this group's sums over the drawn clusters, weighted by how often each was drawn, into `out` (metrics, then the count). */
  resampled(weights: Uint32Array, out: Float64Array): void {
    // The bootstrap's inner loop (resamples × rows × metrics): locals, not fields, and no work for
    // undrawn clusters. The metrics go eight at a time into local sums, which stay in registers where
    // a sum kept in `out` is loaded and stored on every row (seven metrics then cost less than three did).
    const { clusterIds, counts, sums, metrics } = this;
    const rows = this.rowOf.size;
    let count = 0;
    for (let block = 0; block < Math.max(metrics, 1); block += 8) {
      const width = Math.min(8, metrics - block);
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
      for (let row = 0; row < rows; row++) {
        const weight = weights[clusterIds[row] as number] as number;
        if (weight === 0) continue;
        if (block === 0) count += weight * (counts[row] as number);
        const at = row * metrics + block;
        s0 += weight * (sums[at] as number);
        if (width > 1) s1 += weight * (sums[at + 1] as number);
        if (width > 2) s2 += weight * (sums[at + 2] as number);
        if (width > 3) s3 += weight * (sums[at + 3] as number);
        if (width > 4) s4 += weight * (sums[at + 4] as number);
        if (width > 5) s5 += weight * (sums[at + 5] as number);
        if (width > 6) s6 += weight * (sums[at + 6] as number);
        if (width > 7) s7 += weight * (sums[at + 7] as number);
      }
      const local = [s0, s1, s2, s3, s4, s5, s6, s7];
      for (let m = 0; m < width; m++) out[block + m] = local[m] as number;
    }
    out[metrics] = count;
  }

  private grow(): void {
    const size = this.clusterIds.length * 2;
    const clusterIds = new Int32Array(size);
    clusterIds.set(this.clusterIds);
    const counts = new Float64Array(size);
    counts.set(this.counts);
    const sums = new Float64Array(size * this.metrics);
    sums.set(this.sums);
    [this.clusterIds, this.counts, this.sums] = [clusterIds, counts, sums];
  }
}

/**
 * The interval of each metric's mean for every group, from resamples of `clusterCount` clusters.
 * A resample that draws none of a group's clusters says nothing of it and is left out of its
 * percentiles.
 *
 * @example
 * const all = new ClusteredSums(1);
 * all.add(0, [1]); all.add(0, [1]); all.add(1, [0]);
 * clusteredIntervals([all], 2, { seed: 1 })[0][0] // [0, 1]: two clusters, not three items
 */
export function clusteredIntervals(groups: readonly ClusteredSums[], clusterCount: number, options: BootstrapOptions): Interval[][] {
  const resamples = options.resamples ?? 1000;
  const confidence = options.confidence ?? 0.95;
  const random = new SeededRandom(options.seed);
  const metrics = groups[0]?.metrics ?? 0;
  const means = groups.map(() => Array.from({ length: metrics }, () => new Float64Array(resamples)));
  const drawn = groups.map(() => 0);
  const picks = new Uint32Array(clusterCount);
  const weights = new Uint32Array(clusterCount);
  const sums = new Float64Array(metrics + 1);
  // A group holding exactly the items of an earlier one (a breakdown with a single value) has its intervals.
  const sameAs = groups.map((group, g) => groups.findIndex((other, o) => o < g && other.n === group.n && other.clusters === group.clusters && other.holdsSameAs(group)));
  for (let r = 0; clusterCount > 0 && r < resamples; r++) {
    random.fillIndices(picks, clusterCount);
    weights.fill(0);
    for (let i = 0; i < clusterCount; i++) {
      const pick = picks[i] as number;
      weights[pick] = (weights[pick] as number) + 1;
    }
    groups.forEach((group, g) => {
      if (sameAs[g] !== -1) return;
      group.resampled(weights, sums);
      const count = sums[metrics] as number;
      if (count === 0) return;
      const at = drawn[g] as number;
      for (let m = 0; m < metrics; m++) (means[g]?.[m] as Float64Array)[at] = (sums[m] as number) / count;
      drawn[g] = at + 1;
    });
  }
  const tail = (1 - confidence) / 2;
  const intervals = groups.map((_, g) =>
    Array.from({ length: metrics }, (_unused, m): Interval => {
      const kept = (means[g]?.[m] as Float64Array).subarray(0, drawn[g]).sort();
      return kept.length === 0 ? [0, 0] : [percentile(kept, tail), percentile(kept, 1 - tail)];
    }),
  );
  return intervals.map((own, g) => intervals[sameAs[g] as number] ?? own);
}

/**
 * Intervals of the means of score columns whose items are independent (each its own cluster), e.g.
 * the QA items of one GrowOVER snapshot; [0, 0] for no items.
 *
 * @example bootstrapIntervals({ em: new Float64Array([1, 0, 1]) }, { seed: 1 }).em // e.g. [0, 1]
 */
export function bootstrapIntervals<K extends string>(columns: Record<K, Float64Array>, options: BootstrapOptions): Record<K, Interval> {
  const names = Object.keys(columns) as K[];
  const n = names.length === 0 ? 0 : (columns[names[0] as K] as Float64Array).length;
  const group = new ClusteredSums(names.length);
  const scores = new Float64Array(names.length);
  for (let i = 0; i < n; i++) {
    names.forEach((name, m) => (scores[m] = (columns[name] as Float64Array)[i] as number));
    group.add(i, scores);
  }
  const [intervals = []] = clusteredIntervals([group], n, options);
  return Object.fromEntries(names.map((name, m) => [name, intervals[m] ?? [0, 0]])) as Record<K, Interval>;
}

/** Linear interpolation between the closest ranks (numpy's default percentile). */
function percentile(sorted: Float64Array, q: number): number {
  const position = q * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const a = sorted[low] as number;
  const b = sorted[high] as number;
  return a + (b - a) * (position - low);
}

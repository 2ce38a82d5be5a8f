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

/** The columns a resample sums at once: held in local variables, which stay in registers. */
const BLOCK = 8;
/** The resamples summed in one pass over a group's rows (`ClusteredSums.resampled` names four). */
const TOGETHER = 4;

/**
 * One group's scores, summed per cluster: the rows a resample reweights. Clusters are numbered by
 * the caller (0 … clusterCount - 1) across all groups of one report. A row holds its metrics' sums
 * and then its item count, padded to whole blocks of BLOCK columns, so that the bootstrap's inner
 * loop sums a fixed BLOCK columns per row with no test of the width.
 */
export class ClusteredSums {
  /** Each cluster's row, -1 for none: indexed by cluster, since a Map lookup per item and group was a tenth of the scoring. */
  private rowOf = new Int32Array(16).fill(-1);
  private rows = 0;
  private clusterIds = new Int32Array(16);
  /** Per row: the metrics' sums, the item count (column `metrics`), zeros up to the stride. */
  private sums: Float64Array;
  private readonly stride: number;
  private readonly totals: Float64Array;
  /** Items added. */
  n = 0;

  constructor(readonly metrics: number) {
    this.stride = Math.ceil((metrics + 1) / BLOCK) * BLOCK;
    this.sums = new Float64Array(16 * this.stride);
    this.totals = new Float64Array(metrics);
  }

  add(cluster: number, scores: ArrayLike<number>): void {
    if (cluster >= this.rowOf.length) this.growClusters(cluster);
    let row = this.rowOf[cluster] as number;
    if (row === -1) {
      row = this.rows++;
      this.rowOf[cluster] = row;
      if (row === this.clusterIds.length) this.growRows();
      this.clusterIds[row] = cluster;
    }
    const { metrics, sums, totals } = this;
    const at = row * this.stride;
    for (let m = 0; m < metrics; m++) {
      const score = scores[m] as number;
      sums[at + m] = (sums[at + m] as number) + score;
      totals[m] = (totals[m] as number) + score;
    }
    sums[at + metrics] = (sums[at + metrics] as number) + 1;
    this.n++;
  }

  /** Whether the other group holds the same items per cluster (and so the same sums). */
  holdsSameAs(other: ClusteredSums): boolean {
    if (other.metrics !== this.metrics || other.rows !== this.rows) return false;
    for (let row = 0; row < this.rows; row++) {
      const cluster = this.clusterIds[row] as number;
      const theirs = cluster < other.rowOf.length ? (other.rowOf[cluster] as number) : -1;
      if (theirs === -1) return false;
      for (let m = 0; m <= this.metrics; m++) if (other.sums[theirs * other.stride + m] !== this.sums[row * this.stride + m]) return false;
    }
    return true;
  }

  /** Clusters with at least one item in the group. */
  get clusters(): number {
    return this.rows;
  }

  /** The mean of each metric over the group's items (0 for none). */
  means(): number[] {
    return Array.from(this.totals, (total) => (this.n === 0 ? 0 : total / this.n));
  }

  /**
   * Adds this group's sums over the clusters drawn by each of TOGETHER resamples into `outs[k]`
   * (metrics, then the count): `weights[cluster * TOGETHER + k]` is how often resample k drew the cluster.
   */
  resampled(weights: Float64Array, outs: readonly Float64Array[]): void {
    // The bootstrap's inner loop (resamples × rows × columns): a fifth of scoring a million
    // predictions when each resample made its own pass, a tenth now (docs/SCALE.md). Four resamples
    // share each pass, so a row is read once for four; BLOCK × 4 local sums, no branch per row or
    // column (skipping an undrawn cluster's row was slower: the branch cannot be predicted). Each resample's sums are still added row by row in row order, so they are the
    // same to the last bit as one resample at a time; an undrawn cluster adds 0 × its sums.
    const { clusterIds, sums, stride, rows } = this;
    const columns = this.metrics + 1;
    for (let block = 0; block < stride; block += BLOCK) {
      let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
      let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, b7 = 0;
      let c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0, c7 = 0;
      let d0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0, d6 = 0, d7 = 0;
      for (let row = 0, at = block; row < rows; row++, at += stride) {
        const w = (clusterIds[row] as number) * TOGETHER;
        const wa = weights[w] as number, wb = weights[w + 1] as number, wc = weights[w + 2] as number, wd = weights[w + 3] as number;
        const x0 = sums[at] as number, x1 = sums[at + 1] as number, x2 = sums[at + 2] as number, x3 = sums[at + 3] as number;
        const x4 = sums[at + 4] as number, x5 = sums[at + 5] as number, x6 = sums[at + 6] as number, x7 = sums[at + 7] as number;
        a0 += wa * x0; a1 += wa * x1; a2 += wa * x2; a3 += wa * x3; a4 += wa * x4; a5 += wa * x5; a6 += wa * x6; a7 += wa * x7;
        b0 += wb * x0; b1 += wb * x1; b2 += wb * x2; b3 += wb * x3; b4 += wb * x4; b5 += wb * x5; b6 += wb * x6; b7 += wb * x7;
        c0 += wc * x0; c1 += wc * x1; c2 += wc * x2; c3 += wc * x3; c4 += wc * x4; c5 += wc * x5; c6 += wc * x6; c7 += wc * x7;
        d0 += wd * x0; d1 += wd * x1; d2 += wd * x2; d3 += wd * x3; d4 += wd * x4; d5 += wd * x5; d6 += wd * x6; d7 += wd * x7;
      }
      const local = [
        [a0, a1, a2, a3, a4, a5, a6, a7],
        [b0, b1, b2, b3, b4, b5, b6, b7],
        [c0, c1, c2, c3, c4, c5, c6, c7],
        [d0, d1, d2, d3, d4, d5, d6, d7],
      ];
      local.forEach((own, k) => {
        const out = outs[k] as Float64Array;
        for (let c = block; c < Math.min(block + BLOCK, columns); c++) out[c] = own[c - block] as number;
      });
    }
  }

  private growClusters(cluster: number): void {
    const rowOf = new Int32Array(Math.max(cluster + 1, this.rowOf.length * 2)).fill(-1);
    rowOf.set(this.rowOf);
    this.rowOf = rowOf;
  }

  private growRows(): void {
    const size = this.clusterIds.length * 2;
    const clusterIds = new Int32Array(size);
    clusterIds.set(this.clusterIds);
    const sums = new Float64Array(size * this.stride);
    sums.set(this.sums);
    [this.clusterIds, this.sums] = [clusterIds, sums];
  }
}

/**
 * The interval of each metric's mean for every group, from resamples of `clusterCount` clusters.
 * A resample that draws none of a group's clusters says nothing of it and is left out of its
 * percentiles. Groups may sum different numbers of metrics: drawing the resamples once for all of
 * them gives each the intervals it would have alone, since the same seed draws the same clusters.
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
  const means = groups.map((group) => Array.from({ length: group.metrics }, () => new Float64Array(resamples)));
  const drawn = groups.map(() => 0);
  const picks = new Uint32Array(clusterCount);
  const weights = new Float64Array(clusterCount * TOGETHER);
  const outs = Array.from({ length: TOGETHER }, () => new Float64Array(Math.max(0, ...groups.map((group) => group.metrics)) + 1));
  // A group holding exactly the items of an earlier one (a breakdown with a single value) has its intervals.
  const sameAs = groups.map((group, g) => groups.findIndex((other, o) => o < g && other.n === group.n && other.clusters === group.clusters && other.holdsSameAs(group)));
  for (let r = 0; clusterCount > 0 && r < resamples; r += TOGETHER) {
    // The resamples of one pass are drawn in turn, as one at a time would draw them; a last pass
    // short of TOGETHER leaves the others' weights at 0 and their sums unread.
    const together = Math.min(TOGETHER, resamples - r);
    weights.fill(0);
    for (let k = 0; k < together; k++) {
      random.fillIndices(picks, clusterCount);
      for (let i = 0; i < clusterCount; i++) {
        const at = (picks[i] as number) * TOGETHER + k;
        weights[at] = (weights[at] as number) + 1;
      }
    }
    groups.forEach((group, g) => {
      if (sameAs[g] !== -1) return;
      group.resampled(weights, outs);
      const { metrics } = group;
      for (let k = 0; k < together; k++) {
        const sums = outs[k] as Float64Array;
        const count = sums[metrics] as number;
        if (count === 0) continue;
        const at = drawn[g] as number;
        for (let m = 0; m < metrics; m++) (means[g]?.[m] as Float64Array)[at] = (sums[m] as number) / count;
        drawn[g] = at + 1;
      }
    });
  }
  const tail = (1 - confidence) / 2;
  const intervals = groups.map((group, g) =>
    Array.from({ length: group.metrics }, (_unused, m): Interval => {
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

/**
 * Percentile bootstrap intervals for mean scores, resampling clusters with replacement by a seeded
 * generator: a query answered on 80 dates is one unit, not 80, since its answers stand or fall
 * together (resampling the items would make the interval about half as wide as it is). Every group
 * of a report (all items, each domain, each week, ...) is computed from the same resamples: a
 * resample draws the clusters once, and a group's mean is its score sums over the drawn clusters,
 * each counted as often as it was drawn. The same scores and seed give the same intervals on every
 * machine.
 */
import { z } from 'zod';
import { SeededRandom } from '../random.js';
import { fromCarried } from '../errors.js';
import { siblingModule } from '../requestThread.js';
import { SyncThread } from '../syncThread.js';

/** How intervals are drawn: the seed (the same seed gives the same intervals), resamples and confidence. */
export interface BootstrapOptions {
  /** Resamples drawn; 1,000 by default. */
  resamples?: number;
  /** 0.95 by default. */
  confidence?: number;
  seed: number | string;
  /** A second thread started ahead (`BootstrapThread`), for a bootstrap large enough to share; its owner closes it. */
  thread?: BootstrapThread;
}

/** An interval [low, high]; [0, 0] when there is nothing to resample. */
export type Interval = [number, number];

/** The columns a resample sums at once: held in local variables, which stay in registers. */
const BLOCK = 8;
/** The resamples summed in one pass over a group's rows (`ClusteredSums.resampled` names four). */
const TOGETHER = 4;

/** Rows per chunk of a group's rows: grown a chunk at a time, rows are never copied and never over-allocated by more than a chunk. */
const CHUNK_ROWS = 1024;

/** A group's rows as another thread resamples them: the chunks are shared, not copied. */
const SharedRows = z.object({
  metrics: z.number().int().nonnegative(),
  rows: z.number().int().nonnegative(),
  clusterIds: z.array(z.custom<Int32Array<SharedArrayBuffer>>((value) => value instanceof Int32Array && value.buffer instanceof SharedArrayBuffer)),
  sums: z.array(z.custom<Float64Array<SharedArrayBuffer>>((value) => value instanceof Float64Array && value.buffer instanceof SharedArrayBuffer)),
});
type SharedRows = z.infer<typeof SharedRows>;

/**
 * One group's scores, summed per cluster: the rows a resample reweights. Clusters are numbered by
 * the caller (0 … clusterCount - 1) across all groups of one report. A row holds its metrics' sums
 * and then its item count, padded to whole blocks of BLOCK columns, so that the bootstrap's inner
 * loop sums a fixed BLOCK columns per row with no test of the width. Rows are kept in chunks of
 * CHUNK_ROWS on shared memory: a million predictions make 300,000 rows over a report's groups, which
 * doubling arrays held twice over while they grew, and a second thread reads them where they are.
 */
export class ClusteredSums {
  /** Each cluster's row, -1 for none: indexed by cluster, since a Map lookup per item and group was a tenth of the scoring. */
  private rowOf = new Int32Array(16).fill(-1);
  private rows = 0;
  /** Per chunk, each row's cluster. */
  private clusterIds: Array<Int32Array<SharedArrayBuffer>> = [];
  /** Per chunk, per row: the metrics' sums, the item count (column `metrics`), zeros up to the stride. */
  private sums: Array<Float64Array<SharedArrayBuffer>> = [];
  private readonly stride: number;
  private readonly totals: Float64Array;
  /** Items added. */
  n = 0;

  constructor(readonly metrics: number) {
    this.stride = Math.ceil((metrics + 1) / BLOCK) * BLOCK;
    this.totals = new Float64Array(metrics);
  }

  /** A group whose rows are another's, shared: what a thread resamples (its item counts and totals are not read). */
  static resampling(shared: SharedRows): ClusteredSums {
    const group = new ClusteredSums(shared.metrics);
    [group.rows, group.clusterIds, group.sums] = [shared.rows, shared.clusterIds, shared.sums];
    return group;
  }

  /** The rows, for `ClusteredSums.resampling` in another thread. */
  get shared(): SharedRows {
    return { metrics: this.metrics, rows: this.rows, clusterIds: this.clusterIds, sums: this.sums };
  }

  add(cluster: number, scores: ArrayLike<number>): void {
    if (cluster >= this.rowOf.length) this.growClusters(cluster);
    let row = this.rowOf[cluster] as number;
    if (row === -1) {
      row = this.rows++;
      this.rowOf[cluster] = row;
      if (row % CHUNK_ROWS === 0) {
        this.clusterIds.push(new Int32Array(new SharedArrayBuffer(CHUNK_ROWS * Int32Array.BYTES_PER_ELEMENT)));
        this.sums.push(new Float64Array(new SharedArrayBuffer(CHUNK_ROWS * this.stride * Float64Array.BYTES_PER_ELEMENT)));
      }
      (this.clusterIds[this.clusterIds.length - 1] as Int32Array)[row % CHUNK_ROWS] = cluster;
    }
    const { metrics, totals } = this;
    const sums = this.sums[Math.floor(row / CHUNK_ROWS)] as Float64Array;
    const at = (row % CHUNK_ROWS) * this.stride;
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
      const cluster = this.clusterOf(row);
      const theirs = cluster < other.rowOf.length ? (other.rowOf[cluster] as number) : -1;
      if (theirs === -1) return false;
      for (let m = 0; m <= this.metrics; m++) if (other.sumAt(theirs, m) !== this.sumAt(row, m)) return false;
    }
    return true;
  }

  private clusterOf(row: number): number {
    return (this.clusterIds[Math.floor(row / CHUNK_ROWS)] as Int32Array)[row % CHUNK_ROWS] as number;
  }

  private sumAt(row: number, column: number): number {
    return (this.sums[Math.floor(row / CHUNK_ROWS)] as Float64Array)[(row % CHUNK_ROWS) * this.stride + column] as number;
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
    // column (skipping an undrawn cluster's row was slower: the branch cannot be predicted). Each
    // resample's sums are still added row by row in row order, so they are the same to the last bit
    // as one resample at a time; an undrawn cluster adds 0 × its sums.
    const { stride, rows } = this;
    const columns = this.metrics + 1;
    for (let block = 0; block < stride; block += BLOCK) {
      let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
      let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, b7 = 0;
      let c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0, c7 = 0;
      let d0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0, d6 = 0, d7 = 0;
      for (let chunk = 0; chunk * CHUNK_ROWS < rows; chunk++) {
        const sums = this.sums[chunk] as Float64Array;
        const clusterIds = this.clusterIds[chunk] as Int32Array;
        const end = Math.min(CHUNK_ROWS, rows - chunk * CHUNK_ROWS);
        for (let row = 0, at = block; row < end; row++, at += stride) {
          const w = (clusterIds[row] as number) * TOGETHER;
          const wa = weights[w] as number, wb = weights[w + 1] as number, wc = weights[w + 2] as number, wd = weights[w + 3] as number;
          const x0 = sums[at] as number, x1 = sums[at + 1] as number, x2 = sums[at + 2] as number, x3 = sums[at + 3] as number;
          const x4 = sums[at + 4] as number, x5 = sums[at + 5] as number, x6 = sums[at + 6] as number, x7 = sums[at + 7] as number;
          a0 += wa * x0; a1 += wa * x1; a2 += wa * x2; a3 += wa * x3; a4 += wa * x4; a5 += wa * x5; a6 += wa * x6; a7 += wa * x7;
          b0 += wb * x0; b1 += wb * x1; b2 += wb * x2; b3 += wb * x3; b4 += wb * x4; b5 += wb * x5; b6 += wb * x6; b7 += wb * x7;
          c0 += wc * x0; c1 += wc * x1; c2 += wc * x2; c3 += wc * x3; c4 += wc * x4; c5 += wc * x5; c6 += wc * x6; c7 += wc * x7;
          d0 += wd * x0; d1 += wd * x1; d2 += wd * x2; d3 += wd * x3; d4 += wd * x4; d5 += wd * x5; d6 += wd * x6; d7 += wd * x7;
        }
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
}

/**
 * The interval of each metric's mean for every group, from resamples of `clusterCount` clusters.
 * A resample that draws none of a group's clusters says nothing of it and is left out of its
 * percentiles. Groups may sum different numbers of metrics: drawing the resamples once for all of
 * them gives each the intervals it would have alone, since the same seed draws the same clusters.
 * So groups with many rows between them are shared out between this thread and a second one, each
 * drawing the same resamples for its own groups (docs/SCALE.md): the intervals are the same.
 *
 * @example
 * const all = new ClusteredSums(1);
 * all.add(0, [1]); all.add(0, [1]); all.add(1, [0]);
 * clusteredIntervals([all], 2, { seed: 1 })[0][0] // [0, 1]: two clusters, not three items
 */
export function clusteredIntervals(groups: readonly ClusteredSums[], clusterCount: number, options: BootstrapOptions): Interval[][] {
  // A group holding exactly the items of an earlier one (a breakdown with a single value) has its intervals.
  const sameAs = groups.map((group, g) => groups.findIndex((other, o) => o < g && other.n === group.n && other.clusters === group.clusters && other.holdsSameAs(group)));
  const [here, there] = shareOut(groups, sameAs, clusterCount, options);
  const intervals: Interval[][] = [];
  const ownIntervals = (draws: PassDraws) => resampledIntervals(here.map((g) => groups[g] as ClusteredSums), clusterCount, options, draws);
  if (there.length === 0) ownIntervals(new LocalDraws(clusterCount, options.seed)).forEach((mine, k) => (intervals[here[k] as number] = mine));
  else {
    const ownThread = options.thread === undefined ? new BootstrapThread() : undefined;
    try {
      const thread = (options.thread ?? ownThread) as BootstrapThread;
      const draws = new SharedDraws(clusterCount, options.seed);
      thread.start({
        groups: there.map((g) => (groups[g] as ClusteredSums).shared),
        clusterCount,
        options: { seed: options.seed, resamples: options.resamples, confidence: options.confidence },
        draws: draws.ring,
      });
      let own: Interval[][];
      try {
        own = ownIntervals(draws);
      } catch (error) {
        // A thread that failed says why in its reply; one that took nothing for a minute is not waited for.
        if (!(error instanceof DrawsAbandoned) || !error.failed) throw error;
        thread.intervals();
        throw new Error('the bootstrap thread stopped taking the draws');
      }
      thread.intervals().forEach((theirs, k) => (intervals[there[k] as number] = theirs));
      own.forEach((mine, k) => (intervals[here[k] as number] = mine));
    } finally {
      void ownThread?.close();
    }
  }
  return groups.map((_group, g) => intervals[sameAs[g] === -1 ? g : (sameAs[g] as number)] ?? []);
}

/** Rows × resamples below which a second thread costs more than it saves. */
const SHARED_WORK = 50_000_000;

/**
 * Whether a bootstrap of at least `rows` rows (a report's groups together) is shared with a second
 * thread: a caller that knows it ahead starts the thread (`BootstrapThread`) while it does other work.
 */
export function sharesBootstrap(rows: number, resamples = 1000): boolean {
  return rows * resamples >= SHARED_WORK;
}

/** The second thread makes little garbage: a small young generation keeps its memory to a few MB. */
const THREAD_YOUNG_GENERATION_MB = 2;

/**
 * The bootstrap's second thread (./bootstrapThread.ts), started when it is made: its start (loading
 * its modules takes a third of a second) overlaps whatever its owner does before the bootstrap, which
 * then hands it its groups (`clusteredIntervals` with `thread`). Its owner closes it, used or not.
 */
export class BootstrapThread {
  private readonly thread: SyncThread;

  constructor() {
    this.thread = new SyncThread('the bootstrap thread', siblingModule('bootstrapThread', import.meta.url), null, { youngGenerationMb: THREAD_YOUNG_GENERATION_MB });
  }

  /** Hands the thread its groups and the ring of draws it reads. */
  start(work: BootstrapWork): void {
    this.thread.post(work);
  }

  /** Its groups' intervals, waiting for them. */
  intervals(): Interval[][] {
    const reply = BootstrapReply.parse(this.thread.receive());
    if ('error' in reply) throw fromCarried(reply.error);
    return reply.intervals;
  }

  /** Ends the thread, used or not; resolves once it has ended. */
  close(): Promise<number> {
    return this.thread.stop();
  }
}
/**
 * What drawing a pass's resamples costs, in rows resampled per cluster: measured on the million-prediction
 * benchmark, four draws of every cluster took as long as resampling 2.5 rows per cluster.
 */
const DRAW_COST_ROWS_PER_CLUSTER = 2.5;

/**
 * The groups to resample here and in a second thread: none there for a small bootstrap; else the
 * groups (those without a same earlier one) dealt largest first to the side with less work, this
 * side's work starting with the draws, which it makes for both.
 */
function shareOut(groups: readonly ClusteredSums[], sameAs: readonly number[], clusterCount: number, options: BootstrapOptions): [number[], number[]] {
  const own = groups.flatMap((_group, g) => (sameAs[g] === -1 ? [g] : []));
  const rows = (g: number) => (groups[g] as ClusteredSums).clusters;
  const total = own.reduce((sum, g) => sum + rows(g), 0);
  if (clusterCount === 0 || own.length < 2 || !sharesBootstrap(total, options.resamples)) return [own, []];
  const sides: [number[], number[]] = [[], []];
  const load = [DRAW_COST_ROWS_PER_CLUSTER * clusterCount, 0];
  for (const g of [...own].sort((a, b) => rows(b) - rows(a) || a - b)) {
    const side = (load[0] as number) <= (load[1] as number) ? 0 : 1;
    sides[side].push(g);
    load[side] = (load[side] as number) + rows(g);
  }
  // This side draws for both: with no group of its own it would draw nothing, and the other would wait.
  if (sides[0].length === 0) return [own, []];
  return [sides[0].sort((a, b) => a - b), sides[1].sort((a, b) => a - b)];
}

/** Each pass's weights for `resampledIntervals`: `weights[cluster * TOGETHER + k]` is how often resample k of the pass drew the cluster. */
interface PassDraws {
  /** The weights of the pass (0, 1, …), its first `together` resamples drawn. */
  weights(pass: number, together: number): Float64Array;
  /** The pass's weights are no longer read. */
  done(pass: number): void;
}

/** Draws made here, one pass at a time, from the seed. */
class LocalDraws implements PassDraws {
  private readonly random: SeededRandom;
  private readonly picks: Uint32Array;
  private readonly own: Float64Array;

  constructor(
    private readonly clusterCount: number,
    seed: number | string,
  ) {
    this.random = new SeededRandom(seed);
    this.picks = new Uint32Array(clusterCount);
    this.own = new Float64Array(clusterCount * TOGETHER);
  }

  weights(_pass: number, together: number): Float64Array {
    return this.drawInto(this.own, together);
  }

  done(): void {}

  /** The resamples of one pass are drawn in turn, as one at a time would draw them; a pass short of TOGETHER leaves the others' weights at 0. */
  protected drawInto(weights: Float64Array, together: number): Float64Array {
    weights.fill(0);
    for (let k = 0; k < together; k++) {
      this.random.fillIndices(this.picks, this.clusterCount);
      for (let i = 0; i < this.clusterCount; i++) {
        const at = (this.picks[i] as number) * TOGETHER + k;
        weights[at] = (weights[at] as number) + 1;
      }
    }
    return weights;
  }
}

/** Passes whose weights the drawing side may hold ahead of the thread reading them. */
const DRAW_SLOTS = 4;
/** The ring's counters: passes drawn, passes the reading thread is done with, and 1 once it gave up. */
const [DRAWN, READ, ABANDONED] = [0, 1, 2];

/** The draws a second thread reads as this one makes them: DRAW_SLOTS passes of weights, and counters, on shared memory. */
const DrawRing = z.object({
  slots: z.custom<Float64Array<SharedArrayBuffer>>((value) => value instanceof Float64Array && value.buffer instanceof SharedArrayBuffer),
  counters: z.custom<Int32Array<SharedArrayBuffer>>((value) => value instanceof Int32Array && value.buffer instanceof SharedArrayBuffer),
});
type DrawRing = z.infer<typeof DrawRing>;

/** How long the drawing side waits for the reading thread to take a pass before it deems it failed. */
const STALLED_MS = 60_000;

/** Thrown where the draws are made once the thread reading them gave up (`failed`: its reply says why) or took none for STALLED_MS. */
class DrawsAbandoned extends Error {
  constructor(readonly failed: boolean) {
    super(failed ? 'the bootstrap thread failed' : 'the bootstrap thread took no draws for a minute');
  }
}

/** Draws made here into the ring, each pass once the reading thread is done with the pass DRAW_SLOTS before it. */
class SharedDraws extends LocalDraws {
  readonly ring: DrawRing;

  constructor(clusterCount: number, seed: number | string) {
    super(clusterCount, seed);
    this.ring = {
      slots: new Float64Array(new SharedArrayBuffer(DRAW_SLOTS * clusterCount * TOGETHER * Float64Array.BYTES_PER_ELEMENT)),
      counters: new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT)),
    };
  }

  override weights(pass: number, together: number): Float64Array {
    const { counters } = this.ring;
    const waiting = Date.now();
    for (let read = Atomics.load(counters, READ); pass - read >= DRAW_SLOTS; read = Atomics.load(counters, READ)) {
      // A thread that failed before it could say so (its reply says why) reads nothing for a minute.
      if (Atomics.load(counters, ABANDONED) === 1) throw new DrawsAbandoned(true);
      if (Date.now() - waiting > STALLED_MS) throw new DrawsAbandoned(false);
      Atomics.wait(counters, READ, read, 100);
    }
    const weights = this.drawInto(slotOf(this.ring, pass), together);
    Atomics.store(counters, DRAWN, pass + 1);
    Atomics.notify(counters, DRAWN);
    return weights;
  }
}

/** The weights of a pass in the ring. */
function slotOf(ring: DrawRing, pass: number): Float64Array {
  const size = ring.slots.length / DRAW_SLOTS;
  return ring.slots.subarray((pass % DRAW_SLOTS) * size, (pass % DRAW_SLOTS + 1) * size);
}

/** The draws as the second thread reads them from the ring. */
export class RingDraws implements PassDraws {
  constructor(private readonly ring: DrawRing) {}

  weights(pass: number): Float64Array {
    const { counters } = this.ring;
    for (let drawn = Atomics.load(counters, DRAWN); drawn <= pass; drawn = Atomics.load(counters, DRAWN)) Atomics.wait(counters, DRAWN, drawn, 100);
    return slotOf(this.ring, pass);
  }

  done(pass: number): void {
    Atomics.store(this.ring.counters, READ, pass + 1);
    Atomics.notify(this.ring.counters, READ);
  }

  /** Tells the drawing side to stop waiting: this thread reads no more. */
  abandon(): void {
    Atomics.store(this.ring.counters, ABANDONED, 1);
    Atomics.notify(this.ring.counters, READ);
  }
}

/** What the bootstrap thread (./bootstrapThread.ts) is given: its groups, the draws' count and options, and the ring it reads them from. */
export const BootstrapWork = z.object({
  groups: z.array(SharedRows),
  clusterCount: z.number().int().nonnegative(),
  options: z.object({ seed: z.union([z.number(), z.string()]), resamples: z.number().int().positive().optional(), confidence: z.number().optional() }),
  draws: DrawRing,
});
export type BootstrapWork = z.infer<typeof BootstrapWork>;

/** What it sends back: its groups' intervals, or its error as `carried` writes it. */
const BootstrapReply = z.union([z.object({ intervals: z.array(z.array(z.tuple([z.number(), z.number()]))) }), z.object({ error: z.string() })]);

/**
 * The intervals of each of the groups, from the resamples `options.seed` draws (here, or by another
 * thread: `draws`): what a group gets does not depend on the other groups resampled with it.
 */
export function resampledIntervals(groups: readonly ClusteredSums[], clusterCount: number, options: BootstrapOptions, draws: PassDraws = new LocalDraws(clusterCount, options.seed)): Interval[][] {
  const resamples = options.resamples ?? 1000;
  const confidence = options.confidence ?? 0.95;
  const means = groups.map((group) => Array.from({ length: group.metrics }, () => new Float64Array(resamples)));
  const drawn = groups.map(() => 0);
  const outs = Array.from({ length: TOGETHER }, () => new Float64Array(Math.max(0, ...groups.map((group) => group.metrics)) + 1));
  for (let r = 0, pass = 0; clusterCount > 0 && groups.length > 0 && r < resamples; r += TOGETHER, pass++) {
    const together = Math.min(TOGETHER, resamples - r);
    const weights = draws.weights(pass, together);
    groups.forEach((group, g) => {
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
    draws.done(pass);
  }
  const tail = (1 - confidence) / 2;
  return groups.map((group, g) =>
    Array.from({ length: group.metrics }, (_unused, m): Interval => {
      const kept = (means[g]?.[m] as Float64Array).subarray(0, drawn[g]).sort();
      return kept.length === 0 ? [0, 0] : [percentile(kept, tail), percentile(kept, 1 - tail)];
    }),
  );
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

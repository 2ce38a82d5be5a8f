/**
 * Percentile bootstrap intervals for mean scores: items resampled with replacement by a seeded
 * generator, so the same scores and seed give the same interval on every machine. All metrics of
 * an item are drawn together, so their intervals come from the same resamples.
 */
import { SeededRandom } from '../random.js';

export interface BootstrapOptions {
  /** Resamples drawn; 1,000 by default. */
  resamples?: number;
  /** 0.95 by default. */
  confidence?: number;
  seed: number | string;
}

/**
 * The [low, high] percentile interval of the mean of each score column (one Float64Array per
 * metric, one entry per item); [0, 0] for no items.
 *
 * @example bootstrapIntervals({ em: new Float64Array([1, 0, 1]) }, { seed: 1 }).em // e.g. [0, 1]
 */
export function bootstrapIntervals<K extends string>(
  columns: Record<K, Float64Array>,
  options: BootstrapOptions,
): Record<K, [number, number]> {
  const names = Object.keys(columns) as K[];
  const n = names.length === 0 ? 0 : (columns[names[0] as K] as Float64Array).length;
  const result = {} as Record<K, [number, number]>;
  if (n === 0) {
    for (const name of names) result[name] = [0, 0];
    return result;
  }
  const resamples = options.resamples ?? 1000;
  const confidence = options.confidence ?? 0.95;
  const random = new SeededRandom(options.seed);
  const means = names.map(() => new Float64Array(resamples));
  // A large evaluation is 1,000 resamples of 100,000 random draws each, bound by memory reads:
  // scores held as 32-bit floats (a score is a ratio of small counts; sums stay 64-bit) halve them.
  const values = names.map((name) => Float32Array.from(columns[name]));
  const picks = new Uint32Array(n);
  for (let r = 0; r < resamples; r++) {
    random.fillIndices(picks, n);
    values.forEach((column, m) => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += column[picks[i] as number] as number;
      (means[m] as Float64Array)[r] = sum / n;
    });
  }
  const tail = (1 - confidence) / 2;
  names.forEach((name, m) => {
    const sorted = (means[m] as Float64Array).sort();
    result[name] = [percentile(sorted, tail), percentile(sorted, 1 - tail)];
  });
  return result;
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

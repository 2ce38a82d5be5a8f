/**
 * The statistics of an audit (docs/ARCHITECTURE.md §14): Wilson intervals for a proportion and the
 * chance-corrected agreement coefficients (Fleiss' kappa, Krippendorff's nominal alpha, Cohen's
 * kappa), plus the majority vote. Pure functions over counts, so each one is checked against a
 * published worked example in tests/unit/audit/statistics.test.ts.
 *
 * Written here rather than taken from npm: the registry has no maintained package for Fleiss' or
 * Cohen's kappa, and its Krippendorff (`krippendorff`) and Wilson (`wilson-score`) packages are
 * single-version releases with a few hundred downloads a month; each formula is a dozen lines, and
 * the tests pin every one of them to its source's own figures.
 */

/** A proportion with its interval: `value` = k/n, [`low`, `high`] its confidence interval, `n` the trials. */
export interface Interval {
  /** Null without trials: no proportion to report (a 0 would read as none correct). */
  value: number | null;
  low: number;
  high: number;
  n: number;
}

/** The normal quantile of a two-sided 95% interval, to the precision the tests' figures need. */
export const Z95 = 1.959964;

/**
 * The Wilson score interval of k successes in n trials (Wilson 1927): unlike the normal
 * approximation it stays inside [0, 1] and keeps its coverage for the small n and the proportions
 * near 1 an audit produces. With no trials there is no information: the whole range [0, 1], no value.
 *
 * @example wilsonInterval(26, 30) // { value: 0.8667, low: 0.7032, high: 0.9469, n: 30 }
 */
export function wilsonInterval(k: number, n: number, z: number = Z95): Interval {
  // k may be a half: the report's "disputed as half" precision scores a split item 1/2.
  if (!Number.isInteger(2 * k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n) {
    throw new RangeError(`wilsonInterval: need 0 <= k <= n, n whole and k whole or a half, got k=${k}, n=${n}`);
  }
  if (n === 0) return { value: null, low: 0, high: 1, n: 0 };
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At k = 0 or k = n one bound is exactly 0 or 1; rounding must not push it past.
  return { value: p, low: k === 0 ? 0 : centre - half, high: k === n ? 1 : centre + half, n };
}

/** The middle value (the mean of the two middle ones for an even count), or null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Fleiss' kappa (Fleiss 1971) of a subjects × categories table of counts: row i holds how many
 * raters put subject i in each category.
 *
 * Fleiss' formula assumes every subject has the same number of raters. An audit's items do not
 * always (a rater may stop early), so this takes the usual generalisation: each subject's agreement
 * P_i = Σ_j n_ij(n_ij − 1) / (n_i(n_i − 1)) over its own n_i ratings, P̄ their mean, and the chance
 * agreement from the category shares of all ratings pooled. With equal counts it is exactly
 * Fleiss' kappa. Subjects with fewer than two ratings hold no pair and are left out. Krippendorff's
 * alpha, reported beside it, is the coefficient built for missing ratings.
 *
 * Null when undefined: no subject with two ratings, or every rating in one category (chance
 * agreement 1).
 */
export function fleissKappa(table: ReadonlyArray<ReadonlyArray<number>>): number | null {
  const rows = table.filter((row) => sum(row) >= 2);
  if (rows.length === 0) return null;
  const categories = Math.max(...rows.map((row) => row.length));
  const totals = new Array<number>(categories).fill(0);
  let agreement = 0;
  let ratings = 0;
  for (const row of rows) {
    const n = sum(row);
    let pairs = 0;
    row.forEach((count, j) => {
      pairs += count * (count - 1);
      totals[j] = (totals[j] as number) + count;
    });
    agreement += pairs / (n * (n - 1));
    ratings += n;
  }
  const observed = agreement / rows.length;
  const chance = totals.reduce((acc, total) => acc + (total / ratings) ** 2, 0);
  return chance === 1 ? null : (observed - chance) / (1 - chance);
}

/**
 * Krippendorff's alpha for nominal data (Krippendorff 2011, "Computing Krippendorff's
 * Alpha-Reliability", its case of many observers and missing values), by the coincidence matrix:
 * each unit's m_u values contribute every ordered pair of them with weight 1/(m_u − 1);
 * α = 1 − (n − 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k.
 * `units` lists the values each unit received; null or undefined marks a missing one, and a unit
 * with fewer than two values is not pairable and adds nothing.
 *
 * Null when undefined: fewer than two pairable values, or all of them alike (no expected
 * disagreement).
 */
export function krippendorffAlphaNominal<T>(units: ReadonlyArray<ReadonlyArray<T | null | undefined>>): number | null {
  const coincidences = new Map<T, Map<T, number>>();
  for (const unit of units) {
    const values = unit.filter((value): value is T => value !== null && value !== undefined);
    const m = values.length;
    if (m < 2) continue;
    values.forEach((c, i) => {
      const row = coincidences.get(c) ?? new Map<T, number>();
      coincidences.set(c, row);
      values.forEach((k, j) => {
        if (i !== j) row.set(k, (row.get(k) ?? 0) + 1 / (m - 1));
      });
    });
  }
  const marginals = [...coincidences.entries()].map(([c, row]) => ({ c, n: sum([...row.values()]) }));
  const n = sum(marginals.map((entry) => entry.n));
  if (n < 2) return null;
  let observed = 0;
  for (const [c, row] of coincidences) {
    for (const [k, o] of row) if (c !== k) observed += o;
  }
  // Σ_{c≠k} n_c·n_k = n² − Σ_c n_c².
  const expected = n * n - sum(marginals.map((entry) => entry.n * entry.n));
  return expected === 0 ? null : 1 - ((n - 1) * observed) / expected;
}

/**
 * Cohen's kappa (Cohen 1960) of two raters over the items both rated, one [first, second] pair per
 * item: (p_o − p_e) / (1 − p_e), p_e from each rater's own category shares. Null for no pairs or
 * when both raters used one and the same category throughout (p_e = 1).
 */
export function cohenKappa<T>(pairs: ReadonlyArray<readonly [T, T]>): number | null {
  if (pairs.length === 0) return null;
  const first = new Map<T, number>();
  const second = new Map<T, number>();
  let agreed = 0;
  for (const [a, b] of pairs) {
    if (a === b) agreed++;
    first.set(a, (first.get(a) ?? 0) + 1);
    second.set(b, (second.get(b) ?? 0) + 1);
  }
  const n = pairs.length;
  let chance = 0;
  for (const [category, count] of first) chance += (count / n) * ((second.get(category) ?? 0) / n);
  return chance === 1 ? null : (agreed / n - chance) / (1 - chance);
}

/**
 * The category holding more than half of the votes, or null when none does (a tie, a plurality
 * short of half, or no votes). A strict majority rather than a plurality: with four raters a 2–1–1
 * split is not a verdict the raters reached.
 *
 * @example majorityOf({ correct: 2, debatable: 1, wrong: 0 }) // 'correct'
 */
export function majorityOf<T extends string>(votes: Readonly<Record<T, number>>): T | null {
  const entries = Object.entries(votes) as Array<[T, number]>;
  const total = sum(entries.map(([, count]) => count));
  const top = entries.find(([, count]) => count * 2 > total);
  return top === undefined ? null : top[0];
}

function sum(values: ReadonlyArray<number>): number {
  return values.reduce((acc, value) => acc + value, 0);
}

/**
 * Scores as JSON (`evaluate --json`, `report.json`, `leaderboard.json`): a group without items has no
 * rate, so its rates and their intervals are written as null, never as a 0 that a script would read
 * as a score (the text reports show "—"). The scorers keep numbers, which the pages and figures read
 * with the group's n.
 */

/**
 * A report or leaderboard as JSON text, each group with n = 0 (an object with `n` and `ci`) given null
 * rates and a null `ci`; its counts (n, queries, correct, …) stay.
 *
 * @example JSON.parse(reportJson({ n: 0, queries: 0, em: 0, ci: { em: [0, 0] } })) // { n: 0, queries: 0, em: null, ci: null }
 */
export function reportJson(report: unknown, space?: number): string {
  return JSON.stringify(report, emptyRatesAsNull, space);
}

function emptyRatesAsNull(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('n' in value) || value.n !== 0 || !('ci' in value) || value.ci === null) return value;
  // The rates are what the intervals are of; the no-answer group's one interval is its accuracy's.
  const rates = Array.isArray(value.ci) ? ['accuracy'] : Object.keys(value.ci as object);
  return { ...value, ...Object.fromEntries(rates.map((rate) => [rate, null])), ci: null };
}

/**
 * What a metric is (docs/ARCHITECTURE.md §15): a name, one line for reports, and a score of one
 * prediction against one gold text in [0, 1]. Reports average it, take the best over a gold answer
 * and its aliases, and bootstrap it, whatever the metric; adding one is a file and a line in the
 * registry (`./index.ts`).
 */
import type { ScoredText } from './scoredText.js';

/**
 * A weekly metric: `name`, `description` and `score`. Register it in `WEEKLY_METRICS` (./index.ts).
 *
 * @example
 * export const exactMatch = {
 *   name: 'em' as const,
 *   description: "exact match after SQuAD v1.1's normalisation",
 *   score: (prediction, gold) => (prediction.squad === gold.squad ? 1 : 0),
 *   binary: true,
 * } satisfies Metric;
 */
export interface Metric {
  /** The key in reports and item files, e.g. `em`. */
  readonly name: string;
  /** What it measures, for reports and the leaderboard's notes. */
  readonly description: string;
  /** One prediction against one gold text, in [0, 1]; pure, and cheap (it runs once per prediction and gold text). */
  score(prediction: ScoredText, gold: ScoredText): number;
  /** True when the score is only ever 0 or 1: an evaluation then keeps it in a bit per item, not in eight bytes. */
  readonly binary?: boolean;
}

/**
 * The metric's best over several gold texts (an answer and its aliases), as SQuAD takes the best over
 * its gold answers; 0 for none.
 *
 * @example scoreBest(exactMatch, new ScoredText('USA'), [new ScoredText('United States'), new ScoredText('USA')]) === 1
 */
export function scoreBest(metric: Metric, prediction: ScoredText, golds: readonly ScoredText[]): number {
  let best = 0;
  for (const gold of golds) {
    const score = metric.score(prediction, gold);
    if (score > best) best = score;
    if (best === 1) break;
  }
  return best;
}

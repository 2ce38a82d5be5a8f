/**
 * What a metric is (docs/ARCHITECTURE.md §15): a name, one line for reports, and a score of one
 * prediction against one gold text in [0, 1]. Reports average it, take the best over a gold answer
 * and its aliases, and bootstrap it, whatever the metric; adding one is a file and a line in the
 * registry (`./index.ts`).
 */
import type { ScoredText } from './scoredText.js';

export interface Metric {
  /** The key in reports and item files, e.g. `em`. */
  readonly name: string;
  /** What it measures, for reports and the leaderboard's notes. */
  readonly description: string;
  score(prediction: ScoredText, gold: ScoredText): number;
}

import { paddedContains } from '../../text/normalise.js';
import type { Metric } from './metric.js';

/**
 * The weekly check stage's subset match: the gold value occurs as whole words in the prediction,
 * both normalised for matching (case, accents, punctuation, articles, thousands separators do not count).
 */
export const subsetMatch = {
  name: 'sm' as const,
  description: 'the gold value found in the prediction (the check stage rule)',
  score: (prediction, gold) => (paddedContains(prediction.paddedMatch, gold.paddedMatch) ? 1 : 0),
  binary: true,
} satisfies Metric;

import { paddedContains } from '../../text/normalise.js';
import type { Metric } from './metric.js';

/**
 * The weekly check stage's subset match: the gold value occurs as whole words in the prediction,
 * both normalised for matching (case, accents, punctuation, articles, thousands separators do not count).
 * A gold with nothing left once normalised (DailyQA's "-", "?", "–") is found only where exact match
 * finds it: a prediction exact match takes is never a subset miss, and an empty one never finds "–".
 */
export const subsetMatch = {
  name: 'sm' as const,
  description: 'the gold value found in the prediction (the check stage rule)',
  score: (prediction, gold) => {
    if (gold.match === '') return prediction.squad === gold.squad ? 1 : 0;
    return paddedContains(prediction.paddedMatch, gold.paddedMatch) ? 1 : 0;
  },
  binary: true,
} satisfies Metric;

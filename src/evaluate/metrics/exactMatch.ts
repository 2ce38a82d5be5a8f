import type { Metric } from './metric.js';

/** SQuAD v1.1's exact match: the normalised texts are equal. */
export const exactMatch = {
  name: 'em' as const,
  description: "exact match after SQuAD v1.1's normalisation",
  score: (prediction, gold) => (prediction.squad === gold.squad ? 1 : 0),
  binary: true,
} satisfies Metric;

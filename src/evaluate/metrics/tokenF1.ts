import type { Metric } from './metric.js';

/**
 * F1 over token multisets: the tokens the two share (each counted as often as in both), as
 * precision and recall; 0 when they share none (so two empty token lists score 0, as in SQuAD v1.1).
 */
export function tokenOverlapF1(predicted: readonly string[], gold: readonly string[]): number {
  if (predicted.length === 0 || gold.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const token of gold) counts.set(token, (counts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = counts.get(token);
    if (left) {
      same++;
      counts.set(token, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / gold.length;
  return (2 * precision * recall) / (precision + recall);
}

/** SQuAD v1.1's token F1 over the normalised texts. */
export const tokenF1 = {
  name: 'f1' as const,
  description: "token F1 after SQuAD v1.1's normalisation",
  score: (prediction, gold) => tokenOverlapF1(prediction.squadTokens, gold.squadTokens),
} satisfies Metric;

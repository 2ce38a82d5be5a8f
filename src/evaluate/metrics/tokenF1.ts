import type { Metric } from './metric.js';

/**
 * F1 over token multisets: the tokens the two share (each counted as often as in both), as
 * precision and recall; 0 when they share none (so two empty token lists score 0, as in SQuAD v1.1).
 */
export function tokenOverlapF1(predicted: readonly string[], gold: readonly string[]): number {
  return sortedTokenOverlapF1([...predicted].sort(), [...gold].sort());
}

/**
 * `tokenOverlapF1` on token lists already sorted: the shared tokens counted by one merge of the two,
 * with nothing allocated, since scoring a million predictions reuses each text's sorted tokens.
 */
export function sortedTokenOverlapF1(predicted: readonly string[], gold: readonly string[]): number {
  let same = 0;
  for (let p = 0, g = 0; p < predicted.length && g < gold.length; ) {
    const [a, b] = [predicted[p] as string, gold[g] as string];
    if (a === b) {
      same++;
      p++;
      g++;
    } else if (a < b) p++;
    else g++;
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
  score: (prediction, gold) => sortedTokenOverlapF1(prediction.sortedSquadTokens, gold.sortedSquadTokens),
} satisfies Metric;

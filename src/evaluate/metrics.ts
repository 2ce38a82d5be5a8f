/**
 * Per-prediction scores, each as its published definition gives it: SQuAD v1.1's exact match and
 * token F1 (`squadNormalise`), the weekly check stage's subset match (`answerContains`), and
 * GrowOVER's scorer (dayoon-ko/GrowOVER `inference/inference_qa/metric.py`), which first keeps the
 * first line of a reply and scores F1 on its first 50 tokens. Normalisation comes from the one
 * module (docs/ARCHITECTURE.md §12), so these numbers mean what the check stage's match means.
 */
import { answerContains, squadNormalise } from '../text/normalise.js';

/**
 * F1 over token multisets: the tokens the two share (each counted as often as in both), as
 * precision and recall; 0 when they share none (so two empty token lists score 0, as in SQuAD v1.1).
 */
export function tokenF1(predicted: readonly string[], gold: readonly string[]): number {
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

function tokens(normalised: string): string[] {
  return normalised === '' ? [] : normalised.split(' ');
}

export interface AnswerScores {
  em: number;
  f1: number;
}

/**
 * SQuAD v1.1: exact match of the normalised texts, and F1 over their tokens.
 *
 * @example squadScores('The Eiffel Tower', 'eiffel tower') // { em: 1, f1: 1 }
 */
export function squadScores(prediction: string, gold: string): AnswerScores {
  const p = squadNormalise(prediction);
  const g = squadNormalise(gold);
  return { em: p === g ? 1 : 0, f1: tokenF1(tokens(p), tokens(g)) };
}

/**
 * The weekly check stage's subset match: 1 when the gold value occurs as whole words in the
 * prediction, both normalised for matching (case, accents, punctuation, articles, thousands
 * separators do not count).
 *
 * @example subsetMatch('It had 3 644 826 inhabitants.', '3,644,826') === 1
 */
export function subsetMatch(prediction: string, gold: string): number {
  return answerContains(prediction, gold) ? 1 : 0;
}

/**
 * GrowOVER's `normalize_answer`: "</s>" removed, surrounding whitespace stripped, the first line
 * kept, then SQuAD's normalisation.
 */
export function growoverNormalise(text: string): string {
  const firstLine = text.replaceAll('</s>', '').trim().split('\n')[0] ?? '';
  return squadNormalise(firstLine);
}

/**
 * GrowOVER's `normalize_answer(' '.join(text.split()[:50])).split()` on an already normalised text:
 * normalising is idempotent (no punctuation, article or extra space is left to remove, and the
 * first 50 tokens are a prefix of normalised tokens), so the first 50 tokens are the answer.
 */
function first50Tokens(normalised: string): string[] {
  const words = tokens(normalised);
  return words.length > 50 ? words.slice(0, 50) : words;
}

/**
 * One item as GrowOVER's scorer counts it: both texts normalised (first line only); an empty
 * normalised prediction scores 0 on both; EM compares the whole normalised texts, F1 their first
 * 50 tokens each.
 *
 * @example growoverScores('Paris\nand more lines', 'paris') // { em: 1, f1: 1 }
 */
export function growoverScores(prediction: string, gold: string): AnswerScores {
  const p = growoverNormalise(prediction);
  if (p === '') return { em: 0, f1: 0 };
  const g = growoverNormalise(gold);
  return { em: p === g ? 1 : 0, f1: tokenF1(first50Tokens(p), first50Tokens(g)) };
}

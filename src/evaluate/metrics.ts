/**
 * Per-prediction scores, each as its published definition gives it: SQuAD v1.1's exact match and
 * token F1 and the check stage's subset match (the weekly metrics of `./metrics/`, here for one pair
 * of texts), and GrowOVER's scorer (dayoon-ko/GrowOVER `inference/inference_qa/metric.py`), which
 * first keeps the first line of a reply and scores F1 on its first 50 tokens. Normalisation comes
 * from the one module (docs/ARCHITECTURE.md §12), whitespace as Python's `split()` sees it.
 */
import { pythonStrip, squadNormalise } from '../text/normalise.js';
import { exactMatch } from './metrics/exactMatch.js';
import { ScoredText } from './metrics/scoredText.js';
import { subsetMatch as subsetMatchMetric } from './metrics/subsetMatch.js';
import { tokenF1, tokenOverlapF1 } from './metrics/tokenF1.js';

/** Exact match and token F1 of one prediction, each in [0, 1]. */
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
  const [p, g] = [new ScoredText(prediction), new ScoredText(gold)];
  return { em: exactMatch.score(p, g), f1: tokenF1.score(p, g) };
}

/**
 * The weekly check stage's subset match: 1 when the gold value occurs as whole words in the prediction.
 *
 * @example subsetMatch('It had 3 644 826 inhabitants.', '3,644,826') === 1
 */
export function subsetMatch(prediction: string, gold: string): number {
  return subsetMatchMetric.score(new ScoredText(prediction), new ScoredText(gold));
}

/**
 * GrowOVER's `normalize_answer`: "</s>" removed, surrounding whitespace stripped (Python's
 * `strip()`), the first line kept, then SQuAD's normalisation.
 */
export function growoverNormalise(text: string): string {
  return squadNormalise(growoverReply(text));
}

/** The part of a reply GrowOVER's scorer reads: "</s>" removed, stripped (Python's `strip()`), the first line. */
export function growoverReply(text: string): string {
  return pythonStrip(text.replaceAll('</s>', '')).split('\n')[0] ?? '';
}

/**
 * GrowOVER's `normalize_answer(' '.join(text.split()[:50])).split()` on an already normalised text:
 * normalising is idempotent (no punctuation, article or extra space is left to remove, and the
 * first 50 tokens are a prefix of normalised tokens), so the first 50 tokens are the answer.
 */
function first50Tokens(normalised: string): string[] {
  const words = normalised === '' ? [] : normalised.split(' ');
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
  return { em: p === g ? 1 : 0, f1: tokenOverlapF1(first50Tokens(p), first50Tokens(g)) };
}

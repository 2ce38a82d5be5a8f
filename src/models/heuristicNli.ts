/**
 * The offline NLI fallback (docs/ARCHITECTURE.md §11), transparent about what it does: it reads only
 * word overlap and the facts of src/text/facts.ts. It recognises the common Wikipedia update, the
 * same sentence with a fact changed, added or dropped (a number or number word, a unit, a date, a
 * name, a negation or comparison word: contradiction), and a hypothesis whose content words the
 * premise already holds with the same facts (entailment); everything else is neutral. Its scores are overlap fractions, not probabilities
 * of a trained model, and every label it decides is recorded with backend `heuristic-nli`.
 */
import { differingFactWords, factDifference } from '../text/facts.js';
import { contentTokens, type Token } from '../text/tokens.js';
import type { NliScores } from '../model/labels.js';
import type { NliModel, NliPair } from './nli.js';

/** Share of the hypothesis's content words that must be in the premise for entailment. */
const ENTAILMENT_COVERAGE = 0.75;
/** Share of each side's content words the other must hold for a changed fact to be an update of the same statement. */
const SUBSTITUTION_OVERLAP = 0.5;

export class HeuristicNli implements NliModel {
  readonly id = 'heuristic-nli';

  classify(pairs: readonly NliPair[]): Promise<NliScores[]> {
    return Promise.resolve(pairs.map((pair) => judge(pair.premise, pair.hypothesis)));
  }
}

function judge(premiseText: string, hypothesisText: string): NliScores {
  const neutral = { entailment: 0, neutral: 1, contradiction: 0 };
  const premise = contentTokens(premiseText);
  const hypothesis = contentTokens(hypothesisText);
  if (premise.length === 0 || hypothesis.length === 0) return neutral;
  const difference = factDifference(premiseText, hypothesisText);
  if (difference.onlyOld.length === 0 && difference.onlyNew.length === 0) {
    const coverage = covered(hypothesis, premise);
    return coverage >= ENTAILMENT_COVERAGE ? { entailment: coverage, neutral: 1 - coverage, contradiction: 0 } : neutral;
  }
  // A changed fact updates the same statement when the rest of the two wordings, the facts' own words
  // set aside, is mostly shared ("1,014,003,817 (july 2000 est.)" → "1,049,700,118 (jul 2003 est)").
  const factual = differingFactWords(difference);
  const rest = (tokens: readonly Token[]) => tokens.filter((token) => token.kind === 'word' && !factual.has(token.norm));
  const premiseRest = rest(premise);
  const hypothesisRest = rest(hypothesis);
  if (premiseRest.length === 0 || hypothesisRest.length === 0) return neutral;
  const shared = Math.min(covered(hypothesisRest, premiseRest), covered(premiseRest, hypothesisRest));
  if (shared < SUBSTITUTION_OVERLAP) return neutral;
  // Above one half, so that a changed fact in an otherwise equal sentence always reads as contradiction.
  const contradiction = 0.5 + shared / 2;
  return { entailment: 0, neutral: 1 - contradiction, contradiction };
}

/** Share of `tokens` whose word `other` also holds. */
function covered(tokens: readonly Token[], other: readonly Token[]): number {
  const words = new Set(other.map((token) => token.norm));
  return tokens.filter((token) => words.has(token.norm)).length / tokens.length;
}

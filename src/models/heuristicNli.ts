/**
 * The offline NLI fallback (docs/ARCHITECTURE.md §11), transparent about what it does: it reads only
 * word overlap and the facts of src/text/facts.ts. It recognises the common Wikipedia update, the
 * same sentence with a fact changed, added or dropped (a number or number word, a unit, a date, a
 * name, a negation or comparison word: contradiction), and a hypothesis whose content words the
 * premise already holds with the same facts (entailment); everything else is neutral. Its scores are overlap fractions, not probabilities
 * of a trained model, and every label it decides is recorded with backend `heuristic-nli`.
 */
import { sameFacts } from '../text/facts.js';
import { contentTokens, type Token } from '../text/tokens.js';
import type { NliModel, NliPair, NliScores } from './nli.js';

/** Share of the hypothesis's content words that must be in the premise for entailment. */
const ENTAILMENT_COVERAGE = 0.8;
/** Share of each side's content words the other must hold for a changed fact to be an update of the same statement. */
const SUBSTITUTION_OVERLAP = 0.5;

export class HeuristicNli implements NliModel {
  readonly id = 'heuristic-nli';

  classify(pairs: readonly NliPair[]): Promise<NliScores[]> {
    return Promise.resolve(pairs.map((pair) => judge(contentTokens(pair.premise), contentTokens(pair.hypothesis), sameFacts([pair.premise], [pair.hypothesis]))));
  }
}

function judge(premise: Token[], hypothesis: Token[], factsEqual: boolean): NliScores {
  if (premise.length === 0 || hypothesis.length === 0) return { entailment: 0, neutral: 1, contradiction: 0 };
  const inPremise = new Set(premise.map((token) => token.norm));
  const inHypothesis = new Set(hypothesis.map((token) => token.norm));
  const hypothesisOnly = hypothesis.filter((token) => !inPremise.has(token.norm));
  const premiseOnly = premise.filter((token) => !inHypothesis.has(token.norm));
  const coverage = 1 - hypothesisOnly.length / hypothesis.length;
  const premiseCoverage = 1 - premiseOnly.length / premise.length;
  if (!factsEqual && coverage >= SUBSTITUTION_OVERLAP && premiseCoverage >= SUBSTITUTION_OVERLAP) {
    // Above one half, so that a changed fact in an otherwise equal sentence always reads as contradiction.
    const contradiction = 0.5 + Math.min(coverage, premiseCoverage) / 2;
    return { entailment: 0, neutral: 1 - contradiction, contradiction };
  }
  if (factsEqual && coverage >= ENTAILMENT_COVERAGE) {
    return { entailment: coverage, neutral: 1 - coverage, contradiction: 0 };
  }
  return { entailment: 0, neutral: 1, contradiction: 0 };
}

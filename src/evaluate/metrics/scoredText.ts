/**
 * A text as the metrics read it, each normal form computed once however many metrics, gold answers
 * and aliases read it: scoring 1M predictions would otherwise normalise every text once per metric.
 */
import { normaliseForMatch, squadNormalise } from '../../text/normalise.js';

/**
 * A prediction or a gold text with its normal forms, each computed on first use and kept: build one
 * per text and hand it to every metric.
 *
 * @example new ScoredText('The Eiffel Tower').squad === 'eiffel tower'
 */
export class ScoredText {
  private squadForm: string | undefined;
  private squadWords: string[] | undefined;
  private sortedSquadWords: string[] | undefined;
  private matchForm: string | undefined;
  private paddedMatchForm: string | undefined;

  constructor(readonly text: string) {}

  /** SQuAD v1.1's normal form (`squadNormalise`). */
  get squad(): string {
    return (this.squadForm ??= squadNormalise(this.text));
  }

  /** The tokens of the SQuAD form. */
  get squadTokens(): string[] {
    return (this.squadWords ??= this.squad === '' ? [] : this.squad.split(' '));
  }

  /** The tokens of the SQuAD form in sorted order: what token F1 merges. */
  get sortedSquadTokens(): string[] {
    return (this.sortedSquadWords ??= [...this.squadTokens].sort());
  }

  /** The form in which an answer is looked for (`normaliseForMatch`): the check stage's. */
  get match(): string {
    return (this.matchForm ??= normaliseForMatch(this.text));
  }

  /** The match form with a space at each end, as `paddedContains` reads it. */
  get paddedMatch(): string {
    return (this.paddedMatchForm ??= ` ${this.match} `);
  }
}

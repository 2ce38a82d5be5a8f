/**
 * What counts as a system saying it has no answer, for gold answers `no_key` / `no_page` /
 * `deleted` (the page has no such value on that date): a fixed, documented list of phrases,
 * compared after SQuAD's normalisation, so "I don't know." and "i dont know" are the same.
 */
import { squadNormalise } from '../text/normalise.js';

/** The phrases (before normalisation) that say "no answer"; an empty prediction says it too. */
export const NO_ANSWER_PHRASES: readonly string[] = [
  '',
  'no answer',
  'unanswerable',
  'unknown',
  'none',
  'n/a',
  'not applicable',
  'not available',
  'no data',
  'no information',
  'no value',
  'does not exist',
  'there is no answer',
  "i don't know",
  'i do not know',
  'cannot be answered',
  "can't answer",
  'cannot answer',
];

const NORMALISED = new Set(NO_ANSWER_PHRASES.map(squadNormalise));

/**
 * Whether a prediction is one of the no-answer phrases once normalised.
 *
 * @example saysNoAnswer("I don't know.") === true
 */
export function saysNoAnswer(prediction: string): boolean {
  // A typographic apostrophe ("don’t", as models write it) is not ASCII punctuation to SQuAD: read it as "'".
  return NORMALISED.has(squadNormalise(prediction.replace(/[\u2018\u2019]/g, "'")));
}

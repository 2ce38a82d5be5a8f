/** Natural language inference behind one small interface (docs/ARCHITECTURE.md §11). */
import type { NliScores } from '../model/labels.js';

export interface NliPair {
  premise: string;
  hypothesis: string;
}

export type NliLabel = keyof NliScores;

export interface NliModel {
  /** Names the backend and model, recorded with every label it decided, e.g. "heuristic-nli". */
  readonly id: string;
  classify(pairs: readonly NliPair[]): Promise<NliScores[]>;
}

export function nliLabel(scores: NliScores): NliLabel {
  if (scores.entailment >= scores.neutral && scores.entailment >= scores.contradiction) return 'entailment';
  return scores.contradiction > scores.neutral ? 'contradiction' : 'neutral';
}

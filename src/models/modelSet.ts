/**
 * The embedder and NLI model a labeling or monthly run uses, and how a run records them: by what
 * really ran, the embedder's "same" threshold included, since it decides labels.
 */
import type { Embedder } from './embedder.js';
import type { NliModel } from './nli.js';

export interface Models {
  embedder: Embedder;
  nli: NliModel;
}

export function modelRunParams(models: Models): { embedder: string; sameThreshold: number; nli: string } {
  return { embedder: models.embedder.id, sameThreshold: models.embedder.sameThreshold, nli: models.nli.id };
}

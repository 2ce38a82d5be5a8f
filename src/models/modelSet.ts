/**
 * The embedder, NLI model and labeling LLM a labeling or monthly run uses, and how a run records
 * them: by what really ran, the embedder's "same" threshold included, since it decides labels.
 */
import type { SentenceChangeJudge } from '../model/labels.js';
import type { FactReader } from '../text/facts.js';
import type { Embedder } from './embedder.js';
import type { NliModel } from './nli.js';

export interface Models {
  embedder: Embedder;
  /** Where sentences' facts are read ahead of the comparisons (the embedding threads); absent: in the labeling thread, as needed. */
  factReader?: FactReader;
  nli: NliModel;
  /** The LLM step after NLI (docs/ARCHITECTURE.md §7.3); absent: none, the models' labels stand. */
  judge?: SentenceChangeJudge;
}

export function modelRunParams(models: Models): { embedder: string; sameThreshold: number; nli: string; labelLlm: string } {
  const labelLlm = models.judge ? `${models.judge.provider}:${models.judge.model}` : 'none';
  return { embedder: models.embedder.id, sameThreshold: models.embedder.sameThreshold, nli: models.nli.id, labelLlm };
}

/**
 * The models a command uses: the offline defaults (Universal Sentence Encoder Lite, heuristic NLI)
 * unless ONNX models are named, from a local directory or, with a cache dir, from the hub.
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { HeuristicNli } from './heuristicNli.js';
import type { NliModel } from './nli.js';
import { TransformersEmbedder } from './transformersEmbedder.js';
import { TransformersNli } from './transformersNli.js';
import { UseLiteEmbedder } from './useEmbedder.js';

export const ModelChoiceSchema = z.object({
  embeddingModel: z.string().min(1).optional(),
  /** Required with embeddingModel: a threshold is the model's, never borrowed from another. */
  sameThreshold: z.coerce.number().gt(0).lte(1).optional(),
  nliModel: z.string().min(1).optional(),
  modelCache: z.string().min(1).optional(),
});
export type ModelChoice = z.infer<typeof ModelChoiceSchema>;

export function chooseModels(raw: unknown): { embedder: Embedder; nli: NliModel } {
  const parsed = ModelChoiceSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`invalid model option ${String(issue?.path[0] ?? '')}: ${issue?.message ?? 'invalid'}`);
  }
  const choice = parsed.data;
  const cache = choice.modelCache ? { cacheDir: choice.modelCache } : {};
  let embedder: Embedder;
  if (choice.embeddingModel) {
    if (choice.sameThreshold === undefined) throw new UserError('--embedding-model needs --same-threshold, calibrated for that model');
    embedder = new TransformersEmbedder({ model: choice.embeddingModel, sameThreshold: choice.sameThreshold, ...cache });
  } else {
    embedder = new UseLiteEmbedder(choice.sameThreshold === undefined ? {} : { sameThreshold: choice.sameThreshold });
  }
  const nli = choice.nliModel ? new TransformersNli({ model: choice.nliModel, ...cache }) : new HeuristicNli();
  return { embedder, nli };
}

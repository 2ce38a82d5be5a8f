/**
 * The models a command uses (docs/ARCHITECTURE.md §11), built in this one place for `label`,
 * `monthly` and the demo: the offline defaults (Universal Sentence Encoder Lite, heuristic NLI)
 * unless ONNX models are named, from a local directory or, with a cache dir, from the hub. Each
 * runtime is loaded only when it is chosen and first used: they take long to load.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { HeuristicNli } from './heuristicNli.js';
import type { Models } from './modelSet.js';
import type { NliModel } from './nli.js';
import { EMBEDDING_RUNTIMES, UseLiteEmbedder } from './useEmbedder.js';

export const ModelChoiceSchema = z.object({
  embeddingModel: z.string().min(1).optional(),
  /** Where the default model runs (src/models/useEmbedder.ts); an ONNX model given by directory always runs natively. */
  embeddingRuntime: z.enum(EMBEDDING_RUNTIMES).optional(),
  /** Required with embeddingModel: a threshold is the model's, never borrowed from another. */
  sameThreshold: z.coerce.number().gt(0).lte(1).optional(),
  nliModel: z.string().min(1).optional(),
  modelCache: z.string().min(1).optional(),
});
export type ModelChoice = z.infer<typeof ModelChoiceSchema>;
/** A choice as given (flags are strings), before chooseModels checks it. */
export type ModelChoiceInput = z.input<typeof ModelChoiceSchema>;

export async function chooseModels(raw: unknown): Promise<Models> {
  const parsed = ModelChoiceSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError('E_FLAG_INVALID', `invalid model option ${String(issue?.path[0] ?? '')}: ${issue?.message ?? 'invalid'}`);
  }
  const choice = parsed.data;
  const cache = choice.modelCache ? { cacheDir: choice.modelCache } : {};
  let embedder: Embedder;
  if (choice.embeddingModel) {
    if (choice.sameThreshold === undefined) throw new UserError('E_FLAG_MISSING', '--embedding-model needs --same-threshold, calibrated for that model');
    if (choice.embeddingRuntime) throw new UserError('E_FLAGS_CONFLICT', '--embedding-runtime chooses where the default model runs; an --embedding-model runs on ONNX Runtime');
    if (!choice.modelCache) requireModelDirectory(choice.embeddingModel, '--embedding-model');
    const { TransformersEmbedder } = await import('./transformersEmbedder.js');
    embedder = new TransformersEmbedder({ model: choice.embeddingModel, sameThreshold: choice.sameThreshold, ...cache });
  } else {
    embedder = new UseLiteEmbedder({
      ...(choice.sameThreshold === undefined ? {} : { sameThreshold: choice.sameThreshold }),
      ...(choice.embeddingRuntime ? { runtime: choice.embeddingRuntime } : {}),
    });
  }
  let nli: NliModel = new HeuristicNli();
  if (choice.nliModel) {
    if (!choice.modelCache) requireModelDirectory(choice.nliModel, '--nli-model');
    const { TransformersNli } = await import('./transformersNli.js');
    nli = new TransformersNli({ model: choice.nliModel, ...cache });
  }
  return { embedder, nli };
}

/** The files transformers.js loads from a local model directory. */
const MODEL_FILES = ['config.json', 'tokenizer.json', join('onnx', 'model.onnx')];

/**
 * Refuses, before any model loads, a local model path that is missing, not a directory, or without
 * the files transformers.js reads (its own error would end the run as a bug, after the stage began).
 */
function requireModelDirectory(path: string, flag: string): void {
  let directory: boolean;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    throw new UserError('E_FILE_UNREADABLE', `${flag} ${path}: no such directory`);
  }
  if (!directory) throw new UserError('E_FILE_UNREADABLE', `${flag} ${path} is not a directory: give an ONNX model directory (${MODEL_FILES.join(', ')})`);
  const missing = MODEL_FILES.filter((file) => !existsSync(join(path, file)));
  if (missing.length > 0) throw new UserError('E_FILE_UNREADABLE', `${flag} ${path} is not an ONNX model directory: it has no ${missing.join(', ')}`);
}

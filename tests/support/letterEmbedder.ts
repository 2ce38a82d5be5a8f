/** Letter counts: a deterministic, instant stand-in for a sentence embedder in the monthly pipeline's tests. */
import type { Embedder } from '../../src/models/embedder.js';

export const letters: Embedder = {
  id: 'letters',
  sameThreshold: 0.999,
  embed: (texts) =>
    Promise.resolve(texts.map((text) => Float32Array.from({ length: 26 }, (_, k) => text.toLowerCase().split(String.fromCharCode(97 + k)).length - 1))),
};

/** Sentence embeddings behind one small interface (docs/ARCHITECTURE.md §11), so backends can be swapped and compared. */
export interface Embedder {
  /** Names the backend and model, recorded with every label it decided, e.g. "use-lite/en". */
  readonly id: string;
  /**
   * Cosine at or above which two texts count as the same statement for this model. It belongs to
   * the model: each embedder's scale differs (0.99 for SimCSE in GrowOVER).
   */
  readonly sameThreshold: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/**
 * Embeds each distinct text once per run (keyed by the text itself) and counts what reached the
 * model, which is the work the labeling benchmark reports.
 */
export class CachingEmbedder implements Embedder {
  readonly id: string;
  readonly sameThreshold: number;
  private readonly cache = new Map<string, Float32Array>();
  /** Texts sent to the underlying model so far. */
  embedded = 0;

  constructor(private readonly inner: Embedder) {
    this.id = inner.id;
    this.sameThreshold = inner.sameThreshold;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((text) => !this.cache.has(text)))];
    if (missing.length > 0) {
      const vectors = await this.inner.embed(missing);
      missing.forEach((text, i) => this.cache.set(text, vectors[i] as Float32Array));
      this.embedded += missing.length;
    }
    return texts.map((text) => this.cache.get(text) as Float32Array);
  }
}

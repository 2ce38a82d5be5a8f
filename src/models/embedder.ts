/** Sentence embeddings behind one small interface (docs/ARCHITECTURE.md §11), so backends can be swapped and compared. */
import { createHash } from 'node:crypto';

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
 * Where vectors outlive a run: the store's embedding cache (src/store/embeddingCache.ts), injected
 * by the pipeline, so that a sentence surviving from one snapshot to the next is embedded once,
 * ever. Declared here, by its user, so that src/models does not import the store.
 */
export interface VectorStore {
  load(embedder: string, hashes: readonly string[]): Map<string, Float32Array>;
  save(embedder: string, entries: ReadonlyArray<readonly [hash: string, vector: Float32Array]>): void;
}

/**
 * The key of a text in a VectorStore: a hash of the exact text, not the normalised sentenceHash of
 * src/text, because the vector depends on case and punctuation that normalisation drops.
 */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** Texts a caller's calls sent to the model, when several callers share one CachingEmbedder. */
export interface EmbedTally {
  embedded: number;
}

/** Texts gathered for one model call, and what the call sent to the model once done. */
interface Batch {
  texts: string[];
  sent: Promise<ReadonlySet<string>>;
}

/**
 * Embeds each distinct text once per run (keyed by the text itself), and once ever with a
 * VectorStore, and counts what reached the model, which is the work the labeling benchmark reports.
 * Calls made in the same turn of the event loop (articles labeled concurrently) go to the model as
 * one call, so that a worker pool gets jobs large enough to share and USE Lite finds more texts of
 * one token count to batch; a text already on its way is awaited, not embedded twice. Sound only
 * for an embedder whose vector of a text does not depend on the other texts of its call
 * (UseLiteEmbedder batches for that reason).
 */
export class CachingEmbedder implements Embedder {
  readonly id: string;
  readonly sameThreshold: number;
  private readonly cache = new Map<string, Float32Array>();
  private readonly inFlight = new Map<string, Batch>();
  private next: Batch | null = null;
  /** Texts sent to the underlying model so far. */
  embedded = 0;
  /** Texts found in the VectorStore so far. */
  stored = 0;

  constructor(
    private readonly inner: Embedder,
    private readonly store?: VectorStore,
  ) {
    this.id = inner.id;
    this.sameThreshold = inner.sameThreshold;
  }

  /** `tally` counts the texts of these calls that reached the model (not those another caller had sent). */
  async embed(texts: readonly string[], tally?: EmbedTally): Promise<Float32Array[]> {
    const fresh = [...new Set(texts)].filter((text) => !this.cache.has(text) && !this.inFlight.has(text));
    if (fresh.length > 0) {
      const batch = this.batchForThisTurn();
      batch.texts.push(...fresh);
      for (const text of fresh) this.inFlight.set(text, batch);
    }
    const batches = new Set(texts.flatMap((text) => this.inFlight.get(text) ?? []));
    const sent = await Promise.all([...batches].map((batch) => batch.sent));
    if (tally) tally.embedded += fresh.filter((text) => sent.some((set) => set.has(text))).length;
    return texts.map((text) => this.cache.get(text) as Float32Array);
  }

  /** The batch that goes to the model once this turn's callers have all asked. */
  private batchForThisTurn(): Batch {
    if (this.next) return this.next;
    const texts: string[] = [];
    const batch: Batch = {
      texts,
      sent: new Promise((resolve) => setImmediate(resolve)).then(() => {
        this.next = null;
        return this.fetch(texts);
      }),
    };
    this.next = batch;
    return batch;
  }

  private async fetch(texts: readonly string[]): Promise<ReadonlySet<string>> {
    try {
      let missing = [...texts];
      if (this.store) {
        const hashes = missing.map(textHash);
        const found = this.store.load(this.id, hashes);
        missing = missing.filter((text, k) => {
          const vector = found.get(hashes[k] as string);
          if (vector) this.cache.set(text, vector);
          return !vector;
        });
        this.stored += found.size;
      }
      if (missing.length > 0) {
        const vectors = await this.inner.embed(missing);
        missing.forEach((text, i) => this.cache.set(text, vectors[i] as Float32Array));
        this.embedded += missing.length;
        this.store?.save(
          this.id,
          missing.map((text, i) => [textHash(text), vectors[i] as Float32Array] as const),
        );
      }
      return new Set(missing);
    } finally {
      for (const text of texts) this.inFlight.delete(text);
    }
  }
}

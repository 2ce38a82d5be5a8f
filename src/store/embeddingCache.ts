/**
 * The store's side of the embedding cache (docs/ARCHITECTURE.md §7.3): vectors by (embedder id,
 * text hash), read and written in bulk. It knows nothing of embedders; src/models' CachingEmbedder
 * takes it as its persistent layer, so the store does not depend on the models' code.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { Statements } from './statements.js';

const VectorRow = z.object({
  text_hash: z.string(),
  vector: z.instanceof(Buffer).refine((bytes) => bytes.byteLength % Float32Array.BYTES_PER_ELEMENT === 0, 'not a Float32 vector'),
});

/** SQLite limits the variables of one statement; lookups go in chunks below it. */
const LOOKUP_CHUNK = 500;

/** Embedding vectors by (embedder id, text hash), read and written in bulk: the persistent layer of src/models' CachingEmbedder. */
export class EmbeddingCache {
  private readonly statements: Statements;

  constructor(private readonly db: Database) {
    this.statements = new Statements(db);
  }

  /** The stored vectors of these hashes; hashes never stored are absent from the map. */
  load(embedder: string, hashes: readonly string[]): Map<string, Float32Array> {
    const found = new Map<string, Float32Array>();
    for (let at = 0; at < hashes.length; at += LOOKUP_CHUNK) {
      const chunk = hashes.slice(at, at + LOOKUP_CHUNK);
      const rows = this.db
        .prepare(`SELECT text_hash, vector FROM embedding_cache WHERE embedder = ? AND text_hash IN (${chunk.map(() => '?').join(', ')})`)
        .all(embedder, ...chunk);
      for (const raw of rows) {
        const row = VectorRow.parse(raw);
        // Copied out of the driver's buffer, which need not be aligned for a Float32Array view.
        found.set(row.text_hash, new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength)));
      }
    }
    return found;
  }

  /**
   * Stores vectors by (embedder, text hash) in one transaction, replacing any held.
   *
   * @param embedder the embedder's id.
   * @param entries pairs of text hash and vector.
   */
  save(embedder: string, entries: ReadonlyArray<readonly [hash: string, vector: Float32Array]>): void {
    const insert = this.statements.get('INSERT OR REPLACE INTO embedding_cache (embedder, text_hash, vector) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      for (const [hash, vector] of entries) insert.run(embedder, hash, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
    })();
  }

  /** Vectors held for an embedder, for `status`-like reports and the benchmark. */
  count(embedder: string): number {
    return z.number().parse(this.statements.get('SELECT COUNT(*) FROM embedding_cache WHERE embedder = ?').pluck().get(embedder));
  }
}

import type { Migration } from './migration.js';

/**
 * Sentence vectors kept across runs and snapshots (docs/ARCHITECTURE.md §7.3), so that a sentence
 * that survives from one month to the next is embedded once, ever. Keyed by the embedder that made
 * the vector and a hash of the exact text; the vector is its Float32 bytes, as computed.
 */
export const embeddingCache: Migration = {
  version: 12,
  name: 'a persistent cache of sentence embeddings',
  sql: `
      CREATE TABLE embedding_cache (
        embedder TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (embedder, text_hash)
      ) WITHOUT ROWID;
  `,
};

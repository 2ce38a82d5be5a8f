import type { Migration } from './migration.js';

/**
 * Why a sentence got its label, past the similarity rules (docs/ARCHITECTURE.md §7.3): the facts
 * that differ between the two wordings, and the LLM's verdict and reason, or that no LLM was asked.
 */
export const labelEvidence: Migration = {
  version: 10,
  name: 'sentence labels keep their evidence',
  sql: `
      ALTER TABLE sentence_labels ADD COLUMN evidence TEXT;
  `,
};

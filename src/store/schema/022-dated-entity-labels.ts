import type { Migration } from './migration.js';

/**
 * Labels that the collect stage reads from the entity pages of the dump it reads (docs/ARCHITECTURE.md
 * §16) carry the time of the revision that gave them: a name from a newer revision, stored page or
 * dump, wins over an older one and over a miss, while a name a labels file or wbgetentities gave (no
 * time) stands.
 */
export const datedEntityLabels: Migration = {
  version: 22,
  name: 'the revision time of labels read from a dump',
  sql: `
      -- The time of the dump revision that gave the label; NULL: a labels file or wbgetentities gave it.
      ALTER TABLE entity_labels ADD COLUMN as_of TEXT;
  `,
};

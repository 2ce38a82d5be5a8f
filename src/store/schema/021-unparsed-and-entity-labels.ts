import type { Migration } from './migration.js';

/**
 * Two lookups that walked whole tables: the parse stage's search for unparsed revisions (collect now
 * parses as it collects, so every week's parse stage scanned the store's every revision to find none)
 * gets a partial index in key order, so the walk stays in key order and costs what is left to parse;
 * and a page found by its entity's label (`answer --title Bielefeld` on a Wikidata store) an index on it.
 */
export const unparsedAndEntityLabels: Migration = {
  version: 21,
  name: 'index of unparsed revisions in key order, entity pages by label',
  sql: `
      CREATE INDEX revisions_unparsed ON revisions (wiki, page_id, rev_id) WHERE parsed = 0 AND metadata_only = 0;
      CREATE INDEX entity_pages_label ON entity_pages (label);
  `,
};

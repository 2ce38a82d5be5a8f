import type { Migration } from './migration.js';

/**
 * Facts that live on Wikidata (docs/ARCHITECTURE.md §16): the content model of each revision (it
 * chooses the fact extractor), the entity a page is (label, aliases, English Wikipedia sitelink), the
 * English labels and aliases of the entities that facts name, the time-qualified statements of
 * entity revisions and the world-time intervals built from them; the aliases of infobox values
 * (link targets, the aliases of a named entity), kept with their intervals; the labels of a data
 * unit's keys (`P1082` → `population`); whether an infobox draws its values from Wikidata.
 *
 * Numbered 20, past the numbers others may take meanwhile: versions need only increase.
 */
export const entityFacts: Migration = {
  version: 20,
  name: 'content models, entities, labels, world-time intervals, aliases',
  sql: `
      -- NULL: wikitext
      ALTER TABLE revisions ADD COLUMN content_model TEXT;

      -- key -> [alias, ...] as JSON; NULL: none
      ALTER TABLE infoboxes ADD COLUMN aliases TEXT;
      ALTER TABLE infoboxes ADD COLUMN from_wikidata INTEGER NOT NULL DEFAULT 0;

      -- [alias, ...] as JSON; NULL: none
      ALTER TABLE infobox_intervals ADD COLUMN aliases TEXT;

      -- key -> label as JSON
      ALTER TABLE data_units ADD COLUMN key_labels TEXT NOT NULL DEFAULT '{}';

      -- The entity a page is, as its latest parsed revision says (as_of: that revision's time).
      CREATE TABLE entity_pages (
        wiki TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        entity_id TEXT NOT NULL,
        label TEXT,
        aliases TEXT NOT NULL DEFAULT '[]',
        enwiki TEXT,
        as_of TEXT NOT NULL,
        rev_id INTEGER NOT NULL,
        PRIMARY KEY (wiki, page_id)
      );
      CREATE INDEX entity_pages_entity ON entity_pages (entity_id);

      -- English labels of entities named by facts, from a labels file or wbgetentities; label NULL:
      -- the source was asked and has none (never asked again).
      CREATE TABLE entity_labels (
        entity_id TEXT PRIMARY KEY,
        label TEXT,
        aliases TEXT NOT NULL DEFAULT '[]',
        source TEXT NOT NULL
      ) WITHOUT ROWID;

      -- An entity revision's time-qualified statements, as JSON.
      CREATE TABLE timed_facts (
        wiki TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        rev_id INTEGER NOT NULL,
        facts TEXT NOT NULL,
        PRIMARY KEY (wiki, page_id, rev_id)
      ) WITHOUT ROWID;

      -- What held in the world [valid_from, valid_to) by the latest known revision's statements.
      CREATE TABLE world_intervals (
        wiki TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        aliases TEXT,
        valid_from TEXT NOT NULL,
        valid_to TEXT,
        rev_id INTEGER NOT NULL,
        PRIMARY KEY (wiki, page_id, key, valid_from)
      ) WITHOUT ROWID;
  `,
};

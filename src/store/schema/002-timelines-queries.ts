import type { Migration } from './migration.js';

export const timelinesAndQueries: Migration = {
  version: 2,
  name: 'value timelines, page lifetimes, queries and imported answers',
  sql: `
      -- The intervals [valid_from, valid_to) during which an infobox key held a value. valid_to NULL:
      -- still in effect at the last synced revision. slot: the infobox's identity across revisions
      -- (its template label when it first appeared, kept when the template is replaced).
      CREATE TABLE infobox_intervals (
        wiki TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        slot TEXT NOT NULL,
        key TEXT NOT NULL,
        template TEXT NOT NULL,
        value TEXT NOT NULL,
        valid_from TEXT NOT NULL,
        valid_to TEXT,
        rev_id INTEGER NOT NULL,
        PRIMARY KEY (wiki, page_id, slot, key, valid_from)
      );
      CREATE INDEX infobox_intervals_template ON infobox_intervals (wiki, page_id, template, key, valid_from);

      -- When a page existed: created at its first revision, deleted when the source says so.
      CREATE TABLE page_lifetimes (
        wiki TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        created_at TEXT,
        deleted_at TEXT,
        -- the earliest revision the timelines know: before it, and after created_at, values are unknown
        known_from TEXT,
        -- the last revision the timelines of this page were built from
        synced_rev_id INTEGER,
        synced_until TEXT,
        PRIMARY KEY (wiki, page_id)
      );

      CREATE TABLE queries (
        id TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('generated', 'imported')),
        wiki TEXT,
        page_id INTEGER,
        slot TEXT,
        template TEXT,
        key TEXT,
        window_start TEXT,
        window_end TEXT,
        created_at TEXT NOT NULL,
        -- 1 while the query is part of the dataset (checks passed, within the domain cap)
        kept INTEGER NOT NULL DEFAULT 1,
        update_frequency TEXT NOT NULL DEFAULT 'pending'
          CHECK (update_frequency IN ('pending', 'frequent_update', 'infrequent_update'))
      );
      CREATE INDEX queries_subject ON queries (wiki, page_id, key);
      CREATE INDEX queries_window ON queries (window_start);

      -- Answers of imported queries (published per-day files), as intervals of equal answers.
      CREATE TABLE query_answer_intervals (
        query_id TEXT NOT NULL REFERENCES queries (id),
        valid_from TEXT NOT NULL,
        valid_to TEXT,
        answer TEXT,
        PRIMARY KEY (query_id, valid_from)
      );
  `,
};

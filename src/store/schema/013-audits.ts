import type { Migration } from './migration.js';

/**
 * Audits of sampled labels and items by annotators (docs/ARCHITECTURE.md §14). An item's content is
 * a frozen JSON copy, so an audit stays valid when the rest of the store changes; tokens are kept
 * as hashes only; judgments are append-only (a changed verdict is a new row, the latest counts).
 */
export const audits: Migration = {
  version: 13,
  name: 'audits: items, annotators, assignments, judgments',
  sql: `
      CREATE TABLE audits (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL,
        params TEXT NOT NULL,
        raters INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE audit_items (
        id INTEGER PRIMARY KEY,
        audit_id INTEGER NOT NULL REFERENCES audits(id),
        key TEXT NOT NULL,
        stratum TEXT NOT NULL,
        content TEXT NOT NULL,
        UNIQUE (audit_id, key)
      );
      CREATE TABLE audit_annotators (
        id INTEGER PRIMARY KEY,
        audit_id INTEGER NOT NULL REFERENCES audits(id),
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL,
        UNIQUE (audit_id, role, name)
      );
      CREATE TABLE audit_assignments (
        item_id INTEGER NOT NULL REFERENCES audit_items(id),
        annotator_id INTEGER NOT NULL REFERENCES audit_annotators(id),
        position INTEGER NOT NULL,
        PRIMARY KEY (item_id, annotator_id)
      ) WITHOUT ROWID;
      CREATE INDEX audit_assignments_by_annotator ON audit_assignments (annotator_id, position);
      CREATE TABLE audit_judgments (
        id INTEGER PRIMARY KEY,
        item_id INTEGER NOT NULL REFERENCES audit_items(id),
        annotator_id INTEGER NOT NULL REFERENCES audit_annotators(id),
        verdict TEXT NOT NULL,
        label TEXT,
        answer TEXT,
        note TEXT,
        seconds REAL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX audit_judgments_by_item ON audit_judgments (item_id, annotator_id, id);
      CREATE INDEX audit_judgments_by_annotator ON audit_judgments (annotator_id, id);
  `,
};

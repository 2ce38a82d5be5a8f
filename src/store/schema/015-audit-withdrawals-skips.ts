import type { Migration } from './migration.js';

/**
 * An annotator takes a verdict back or skips an item (docs/ARCHITECTURE.md §14), both appended:
 * a withdrawal is a judgment row marked `withdrawn` (its verdict is the one taken back) after which
 * the item is unjudged again; a skip row sends an unjudged item to the end of its annotator's queue
 * and stands while the item's newest judgment row is still the one it saw (`after_judgment`).
 */
export const auditWithdrawalsAndSkips: Migration = {
  version: 15,
  name: 'audit verdicts withdrawn, audit items skipped',
  sql: `
      ALTER TABLE audit_judgments ADD COLUMN withdrawn INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1));
      CREATE TABLE audit_skips (
        id INTEGER PRIMARY KEY,
        item_id INTEGER NOT NULL REFERENCES audit_items(id),
        annotator_id INTEGER NOT NULL REFERENCES audit_annotators(id),
        after_judgment INTEGER REFERENCES audit_judgments(id),
        created_at TEXT NOT NULL
      );
      CREATE INDEX audit_skips_by_annotator ON audit_skips (annotator_id, id);
  `,
};

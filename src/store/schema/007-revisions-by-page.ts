import type { Migration } from './migration.js';

/**
 * Revisions, their infoboxes and their changes keyed by page as well as revision id: real dumps
 * (after imports) hold two pages that share a revision id, and each keeps its own revision. The
 * parse stage walks unparsed revisions in key order, so the index of unparsed rows goes.
 */
export const revisionsByPage: Migration = {
  version: 7,
  name: 'revisions, infoboxes and infobox changes keyed by page and revision',
  sql: `
      CREATE TABLE revisions_by_page (
        wiki TEXT NOT NULL,
        rev_id INTEGER NOT NULL,
        page_id INTEGER NOT NULL,
        parent_id INTEGER,
        timestamp TEXT NOT NULL,
        sha1 TEXT,
        comment TEXT NOT NULL DEFAULT '',
        user TEXT NOT NULL DEFAULT '',
        minor INTEGER NOT NULL DEFAULT 0,
        -- 0: text not parsed yet; 1: infoboxes (and, where needed, the first paragraph) stored
        parsed INTEGER NOT NULL DEFAULT 0,
        -- content metadata only: a revision after a window, kept to detect reverts
        metadata_only INTEGER NOT NULL DEFAULT 0,
        first_paragraph TEXT,
        -- wikitext, kept only until the parse stage has read it (unless content caching is on).
        -- Last, so that reading any other column never walks the text's overflow pages.
        text TEXT,
        PRIMARY KEY (wiki, page_id, rev_id)
      );
      INSERT INTO revisions_by_page (wiki, rev_id, page_id, parent_id, timestamp, sha1, comment, user, minor, parsed, metadata_only, first_paragraph, text)
        SELECT wiki, rev_id, page_id, parent_id, timestamp, sha1, comment, user, minor, parsed, metadata_only, first_paragraph, text FROM revisions;
      DROP TABLE revisions;
      ALTER TABLE revisions_by_page RENAME TO revisions;
      CREATE INDEX revisions_page_time ON revisions (wiki, page_id, timestamp, rev_id);

      CREATE TABLE infoboxes_by_page (
        wiki TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        rev_id INTEGER NOT NULL,
        position INTEGER NOT NULL,
        template TEXT NOT NULL,
        fields TEXT NOT NULL,
        PRIMARY KEY (wiki, page_id, rev_id, position)
      );
      INSERT INTO infoboxes_by_page (wiki, page_id, rev_id, position, template, fields)
        SELECT i.wiki, r.page_id, i.rev_id, i.position, i.template, i.fields
        FROM infoboxes i JOIN revisions r ON r.wiki = i.wiki AND r.rev_id = i.rev_id;
      DROP TABLE infoboxes;
      ALTER TABLE infoboxes_by_page RENAME TO infoboxes;

      CREATE TABLE infobox_changes_by_page (
        wiki TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        rev_id INTEGER NOT NULL,
        prev_rev_id INTEGER NOT NULL,
        timestamp TEXT NOT NULL,
        template TEXT NOT NULL,
        key TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('added', 'removed', 'changed')),
        old TEXT NOT NULL,
        new TEXT NOT NULL,
        -- why the select stage's filters drop it (styling_key, file_value, empty_value), or NULL
        filtered TEXT,
        -- the revision that undid it within the revert horizon, or NULL
        reverted_by INTEGER,
        PRIMARY KEY (wiki, page_id, rev_id, template, key)
      );
      INSERT INTO infobox_changes_by_page SELECT wiki, page_id, rev_id, prev_rev_id, timestamp, template, key, kind, old, new, filtered, reverted_by
        FROM infobox_changes;
      DROP TABLE infobox_changes;
      ALTER TABLE infobox_changes_by_page RENAME TO infobox_changes;
      CREATE INDEX infobox_changes_time ON infobox_changes (timestamp);
      CREATE INDEX infobox_changes_page ON infobox_changes (wiki, page_id, timestamp);
    `,
};

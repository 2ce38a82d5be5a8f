import type { Migration } from './migration.js';

export const weeklyCollection: Migration = {
  version: 1,
  name: 'runs, pages, revisions, infoboxes, changes, data units',
  sql: `
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        pipeline TEXT NOT NULL,
        params_key TEXT NOT NULL,
        params TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'partial', 'failed')),
        error TEXT,
        pid INTEGER,
        started_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX runs_params ON runs (pipeline, params_key);

      CREATE TABLE run_stages (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        stage TEXT NOT NULL,
        position INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed')),
        cursor TEXT,
        counts TEXT NOT NULL DEFAULT '{}',
        started_at TEXT,
        finished_at TEXT,
        seconds REAL NOT NULL DEFAULT 0,
        error TEXT,
        PRIMARY KEY (run_id, stage)
      );

      CREATE TABLE pages (
        wiki TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        title TEXT NOT NULL,
        namespace INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (wiki, page_id)
      );
      CREATE INDEX pages_title ON pages (wiki, title);

      CREATE TABLE page_moves (
        wiki TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        timestamp TEXT NOT NULL,
        from_title TEXT NOT NULL,
        to_title TEXT NOT NULL,
        PRIMARY KEY (wiki, page_id, timestamp, from_title)
      );

      CREATE TABLE revisions (
        wiki TEXT NOT NULL,
        rev_id INTEGER NOT NULL,
        page_id INTEGER NOT NULL,
        parent_id INTEGER,
        timestamp TEXT NOT NULL,
        sha1 TEXT,
        comment TEXT NOT NULL DEFAULT '',
        user TEXT NOT NULL DEFAULT '',
        minor INTEGER NOT NULL DEFAULT 0,
        -- wikitext, kept only until the parse stage has read it (unless content caching is on)
        text TEXT,
        -- 0: text not parsed yet; 1: infoboxes (and, where needed, the first paragraph) stored
        parsed INTEGER NOT NULL DEFAULT 0,
        -- content metadata only: a revision after a window, kept to detect reverts
        metadata_only INTEGER NOT NULL DEFAULT 0,
        first_paragraph TEXT,
        PRIMARY KEY (wiki, rev_id)
      );
      CREATE INDEX revisions_page_time ON revisions (wiki, page_id, timestamp, rev_id);
      CREATE INDEX revisions_unparsed ON revisions (parsed) WHERE parsed = 0;

      CREATE TABLE infoboxes (
        wiki TEXT NOT NULL,
        rev_id INTEGER NOT NULL,
        position INTEGER NOT NULL,
        template TEXT NOT NULL,
        fields TEXT NOT NULL,
        PRIMARY KEY (wiki, rev_id, position)
      );

      -- The pages whose histories for a window are completely stored: the collect stage's cursor.
      CREATE TABLE window_pages (
        wiki TEXT NOT NULL,
        window_start TEXT NOT NULL,
        window_end TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        PRIMARY KEY (wiki, window_start, window_end, page_id)
      );

      CREATE TABLE infobox_changes (
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
        PRIMARY KEY (wiki, rev_id, template, key)
      );
      CREATE INDEX infobox_changes_time ON infobox_changes (timestamp);
      CREATE INDEX infobox_changes_page ON infobox_changes (wiki, page_id, timestamp);

      CREATE TABLE data_units (
        wiki TEXT NOT NULL,
        window_start TEXT NOT NULL,
        window_end TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        title TEXT NOT NULL,
        url TEXT NOT NULL,
        rev_id INTEGER NOT NULL,
        prev_rev_id INTEGER NOT NULL,
        timestamp TEXT NOT NULL,
        template TEXT NOT NULL,
        key TEXT NOT NULL,
        old TEXT NOT NULL,
        new TEXT NOT NULL,
        infobox TEXT NOT NULL,
        first_paragraph TEXT NOT NULL,
        seed TEXT NOT NULL,
        PRIMARY KEY (wiki, window_start, window_end, page_id)
      );
    `,
};

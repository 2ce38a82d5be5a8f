import type { Migration } from './migration.js';

export const snapshotsAndLabels: Migration = {
  version: 4,
  name: 'monthly snapshots as sentences, and sentence labels between two snapshots',
  sql: `
      -- A named set of articles as of a date. source: the dump path or API URL it was read from.
      CREATE TABLE snapshots (
        name TEXT PRIMARY KEY,
        wiki TEXT NOT NULL,
        source TEXT NOT NULL,
        as_of TEXT,
        created_at TEXT NOT NULL
      );

      -- One article of a snapshot: the revision in effect at the snapshot's date.
      CREATE TABLE snapshot_articles (
        snapshot TEXT NOT NULL REFERENCES snapshots (name),
        page_id INTEGER NOT NULL,
        title TEXT NOT NULL,
        rev_id INTEGER NOT NULL,
        timestamp TEXT NOT NULL,
        sentence_count INTEGER NOT NULL,
        PRIMARY KEY (snapshot, page_id)
      );
      CREATE INDEX snapshot_articles_title ON snapshot_articles (snapshot, title);

      -- The article's plain text, cut by the one sentence splitter; idx is the sentence index used
      -- everywhere (labels, generation, export). hash: of the normalised sentence.
      CREATE TABLE snapshot_sentences (
        snapshot TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        paragraph INTEGER NOT NULL,
        text TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (snapshot, page_id, idx),
        FOREIGN KEY (snapshot, page_id) REFERENCES snapshot_articles (snapshot, page_id)
      );

      -- An article labeled between two snapshots (its presence marks the article done for resuming).
      -- old_page_id NULL: the article is new in the new snapshot.
      CREATE TABLE label_articles (
        old_snapshot TEXT NOT NULL,
        new_snapshot TEXT NOT NULL,
        new_page_id INTEGER NOT NULL,
        old_page_id INTEGER,
        title TEXT NOT NULL,
        embedded INTEGER NOT NULL,
        nli_pairs INTEGER NOT NULL,
        PRIMARY KEY (old_snapshot, new_snapshot, new_page_id)
      );

      -- side 'new': a sentence of the new article (idx = new index) with its label; side 'old': an
      -- old sentence nothing corresponds to (idx = old index, label 'deleted').
      CREATE TABLE sentence_labels (
        old_snapshot TEXT NOT NULL,
        new_snapshot TEXT NOT NULL,
        new_page_id INTEGER NOT NULL,
        side TEXT NOT NULL CHECK (side IN ('new', 'old')),
        idx INTEGER NOT NULL,
        label TEXT NOT NULL CHECK (label IN ('unchanged', 'changed', 'new', 'undecided', 'deleted')),
        old_indices TEXT NOT NULL,
        similarity REAL,
        nli TEXT,
        step TEXT NOT NULL,
        backend TEXT NOT NULL,
        PRIMARY KEY (old_snapshot, new_snapshot, new_page_id, side, idx),
        FOREIGN KEY (old_snapshot, new_snapshot, new_page_id) REFERENCES label_articles (old_snapshot, new_snapshot, new_page_id)
      );
      CREATE INDEX sentence_labels_label ON sentence_labels (old_snapshot, new_snapshot, label);
  `,
};

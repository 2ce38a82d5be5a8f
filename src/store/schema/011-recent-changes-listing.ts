import type { Migration } from './migration.js';

/**
 * The API source's recent-changes listing kept in the store while a window is collected: a row per
 * listed edit (metadata only) and the continuation after the last stored reply, so memory stays
 * bounded on a Wikipedia-sized week and a crash resumes the listing, not restarts it. Rows go when
 * the window's pages have all been yielded.
 */
export const recentChangesListing: Migration = {
  version: 11,
  name: 'recent-changes listing spooled in the store',
  sql: `
      CREATE TABLE rc_listings (
        id INTEGER PRIMARY KEY,
        origin TEXT NOT NULL,
        window_start TEXT NOT NULL,
        horizon_end TEXT NOT NULL,
        -- JSON of the continue parameters to send next; NULL before the first reply
        next TEXT,
        complete INTEGER NOT NULL DEFAULT 0,
        UNIQUE (origin, window_start, horizon_end)
      );
      CREATE TABLE rc_listing_edits (
        listing_id INTEGER NOT NULL REFERENCES rc_listings (id) ON DELETE CASCADE,
        page_id INTEGER NOT NULL,
        rev_id INTEGER NOT NULL,
        parent_id INTEGER,
        timestamp TEXT NOT NULL,
        sha1 TEXT,
        comment TEXT NOT NULL,
        user TEXT NOT NULL,
        minor INTEGER NOT NULL,
        PRIMARY KEY (listing_id, page_id, rev_id)
      ) WITHOUT ROWID;
  `,
};

import type { Migration } from './migration.js';

/**
 * Which stretches of a page's history the store holds whole (docs/ARCHITECTURE.md §5), instead of one
 * sync mark per page. One mark could only grow from a history already contiguous with the new
 * window, so a page collected by one week and again three weeks later kept the first week's mark, and
 * every answer after it read as unknown; and weeks collected out of order claimed the gap between
 * them. A row says: every revision in (covered_from, covered_until] is stored, and so is the one in
 * effect at covered_from. An instant is answered when some row holds it; rows are never merged, since
 * a point lies in a union of ranges exactly when it lies in one of them.
 *
 * Existing stores get a row per collected window, from the latest stored revision before the window
 * (the one its collection fetched) to the window's end; what `sync` had added for pages unchanged in
 * its span is not recoverable, so their answers after their last window read as unknown until the
 * next `sync`.
 */
export const pageCoverage: Migration = {
  version: 14,
  name: 'page coverage ranges replace the sync mark',
  sql: `
      CREATE TABLE page_coverage (
        wiki TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        covered_from TEXT NOT NULL,
        covered_until TEXT NOT NULL,
        PRIMARY KEY (wiki, page_id, covered_from, covered_until)
      ) WITHOUT ROWID;

      INSERT OR IGNORE INTO page_coverage (wiki, page_id, covered_from, covered_until)
      SELECT wiki, page_id, covered_from, window_end FROM (
        SELECT w.wiki, w.page_id, w.window_end, COALESCE(
          (SELECT MAX(r.timestamp) FROM revisions r
            WHERE r.wiki = w.wiki AND r.page_id = w.page_id AND r.metadata_only = 0 AND r.timestamp < w.window_start),
          (SELECT MIN(r.timestamp) FROM revisions r
            WHERE r.wiki = w.wiki AND r.page_id = w.page_id AND r.metadata_only = 0 AND r.timestamp >= w.window_start)) AS covered_from
        FROM window_pages w
        WHERE EXISTS (SELECT 1 FROM page_lifetimes l WHERE l.wiki = w.wiki AND l.page_id = w.page_id)
      ) WHERE covered_from IS NOT NULL AND covered_from <= window_end;

      ALTER TABLE page_lifetimes DROP COLUMN known_from;
      ALTER TABLE page_lifetimes DROP COLUMN synced_rev_id;
      ALTER TABLE page_lifetimes DROP COLUMN synced_until;
  `,
};

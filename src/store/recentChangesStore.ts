/**
 * The recent-changes spool in the store (docs/ARCHITECTURE.md §3, §9): the API source's listing of a
 * window, a reply per transaction together with the continuation after it, read back a batch of
 * pages at a time in page-id order, so neither the listing nor a crash costs memory or requests.
 */
import type { Database } from 'better-sqlite3';
import type { Window } from '../model.js';
import { z } from 'zod';
import { splitAroundWindow, type ListedEdit, type ListedPage, type ListingKey, type ListingProgress, type RecentChangesSpool } from '../model/recentChanges.js';
import { flag, jsonColumn } from './rows.js';

const ListingRow = z.object({ id: z.number().int(), next: jsonColumn(z.record(z.string(), z.string())).nullable(), complete: flag });
const EditRow = z.object({
  pageId: z.number().int(),
  revId: z.number().int(),
  parentId: z.number().int().nullable(),
  timestamp: z.string(),
  sha1: z.string().nullable(),
  comment: z.string(),
  user: z.string(),
  minor: flag,
});

/** The recent-changes spool: a window's listing, a reply per transaction with its continuation, read back a batch of pages at a time. */
export class RecentChangesStore implements RecentChangesSpool {
  private readonly insertListing;
  private readonly selectListing;
  private readonly updateProgress;
  private readonly insertEdit;
  private readonly selectPageIds;
  private readonly selectEdits;
  private readonly deleteListing;

  constructor(private readonly db: Database) {
    this.insertListing = db.prepare('INSERT OR IGNORE INTO rc_listings (origin, window_start, horizon_end) VALUES (?, ?, ?)');
    this.selectListing = db.prepare('SELECT id, next, complete FROM rc_listings WHERE origin = ? AND window_start = ? AND horizon_end = ?');
    this.updateProgress = db.prepare('UPDATE rc_listings SET next = ?, complete = ? WHERE id = ?');
    this.insertEdit = db.prepare(
      `INSERT OR IGNORE INTO rc_listing_edits (listing_id, page_id, rev_id, parent_id, timestamp, sha1, comment, user, minor)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectPageIds = db
      .prepare(
        `SELECT DISTINCT page_id FROM rc_listing_edits
         WHERE listing_id = @id AND page_id > @after AND timestamp >= @start AND timestamp <= @end ORDER BY page_id LIMIT @limit`,
      )
      .pluck();
    this.selectEdits = db.prepare(
      `SELECT page_id AS pageId, rev_id AS revId, parent_id AS parentId, timestamp, sha1, comment, user, minor
       FROM rc_listing_edits WHERE listing_id = ? AND page_id >= ? AND page_id <= ? ORDER BY page_id`,
    );
    this.deleteListing = db.prepare('DELETE FROM rc_listings WHERE id = ?');
  }

  private listing(key: ListingKey): z.infer<typeof ListingRow> {
    this.insertListing.run(key.origin, key.start, key.horizonEnd);
    return ListingRow.parse(this.selectListing.get(key.origin, key.start, key.horizonEnd));
  }

  /** Where the listing stands: the continuation to ask for next (null at the start) and whether it is complete. */
  progress(key: ListingKey): ListingProgress {
    const { next, complete } = this.listing(key);
    return { next, complete };
  }

  /** Adds a reply's edits and the continuation after it in one transaction (null: the listing is complete). */
  append(key: ListingKey, edits: ListedEdit[], next: Record<string, string> | null): void {
    const { id } = this.listing(key);
    this.db.transaction(() => {
      for (const { pageId, revision } of edits) {
        this.insertEdit.run(id, pageId, revision.revId, revision.parentId, revision.timestamp, revision.sha1, revision.comment, revision.user, revision.minor ? 1 : 0);
      }
      this.updateProgress.run(next === null ? null : JSON.stringify(next), next === null ? 1 : 0, id);
    })();
  }

  /**
   * Up to `limit` pages after `afterPageId` in page-id order, each with its listed edits split around the window.
   *
   * @returns the pages, empty when none are left.
   */
  pages(key: ListingKey, window: Window, afterPageId: number, limit: number): ListedPage[] {
    const { id } = this.listing(key);
    const pageIds = z.array(z.number().int()).parse(this.selectPageIds.all({ id, after: afterPageId, ...window, limit }));
    const first = pageIds[0];
    const last = pageIds.at(-1);
    if (first === undefined || last === undefined) return [];
    const byPage = new Map<number, ListedPage['inWindow']>(pageIds.map((pageId) => [pageId, []]));
    for (const row of this.selectEdits.all(id, first, last)) {
      const { pageId, ...revision } = EditRow.parse(row);
      byPage.get(pageId)?.push({ ...revision, text: null });
    }
    return pageIds.map((pageId) => splitAroundWindow(pageId, byPage.get(pageId) ?? [], window));
  }

  /** Deletes the listing and its edits once its pages are all yielded. */
  discard(key: ListingKey): void {
    const { id } = this.listing(key);
    this.deleteListing.run(id);
  }
}

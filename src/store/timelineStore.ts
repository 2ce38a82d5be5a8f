import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import type { Infobox } from '../model.js';
import { buildTimeline, type PageTimeline, type TimelineRevision } from '../timeline/buildTimeline.js';

const FieldsJson = z.array(z.tuple([z.string(), z.string()]));

/**
 * Rebuilds the value timelines of pages from every revision the store holds for them, in one
 * transaction per batch. Rebuilding (rather than patching) keeps the result a pure function of the
 * stored revisions, so a replayed or extended sync can never leave a stale interval behind.
 */
export class TimelineStore {
  private readonly selectRevisions;
  private readonly selectInfoboxes;
  private readonly deleteIntervals;
  private readonly insertInterval;
  private readonly upsertLifetime;

  constructor(private readonly db: Database, readonly wiki: string) {
    this.selectRevisions = db.prepare(
      `SELECT rev_id AS revId, parent_id AS parentId, timestamp, sha1, metadata_only AS metadataOnly, parsed
       FROM revisions WHERE wiki = ? AND page_id = ? ORDER BY timestamp, rev_id`,
    );
    this.selectInfoboxes = db.prepare(
      `SELECT i.rev_id AS revId, i.template, i.fields FROM infoboxes i JOIN revisions r ON r.wiki = i.wiki AND r.rev_id = i.rev_id
       WHERE r.wiki = ? AND r.page_id = ? ORDER BY i.rev_id, i.position`,
    );
    this.deleteIntervals = db.prepare('DELETE FROM infobox_intervals WHERE wiki = ? AND page_id = ?');
    this.insertInterval = db.prepare(
      `INSERT INTO infobox_intervals (wiki, page_id, slot, key, template, value, valid_from, valid_to, rev_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.upsertLifetime = db.prepare(
      `INSERT INTO page_lifetimes (wiki, page_id, created_at, known_from, synced_rev_id)
       VALUES (@wiki, @pageId, @createdAt, @knownFrom, @lastRevId)
       ON CONFLICT (wiki, page_id) DO UPDATE SET
         created_at = COALESCE(excluded.created_at, page_lifetimes.created_at),
         known_from = excluded.known_from,
         synced_rev_id = excluded.synced_rev_id`,
    );
  }

  /** Rebuilds these pages' timelines; returns how many intervals they now have. */
  rebuild(pageIds: readonly number[], revertHours: number): number {
    let intervals = 0;
    this.db.transaction(() => {
      for (const pageId of pageIds) {
        const timeline = buildTimeline(this.pageRevisions(pageId), revertHours);
        this.save(pageId, timeline);
        intervals += timeline.intervals.length;
      }
    })();
    return intervals;
  }

  /**
   * Records that these pages' stored histories are complete from their first known revision up to
   * `window.end`. A page whose history stopped before `window.start` keeps its mark: the revisions
   * in between are missing, and the next sync starts from there to fill the gap.
   */
  markSyncedUntil(pageIds: readonly number[], window: { start: string; end: string }): void {
    const update = this.db.prepare(
      `UPDATE page_lifetimes SET synced_until = MAX(COALESCE(synced_until, ''), @end)
       WHERE wiki = @wiki AND page_id = @pageId AND (synced_until IS NULL OR synced_until >= @start)`,
    );
    this.db.transaction(() => {
      for (const pageId of pageIds) update.run({ ...window, wiki: this.wiki, pageId });
    })();
  }

  /** Pages behind kept generated queries, and behind data units that have no query yet. */
  trackedPages(): Array<{ pageId: number; syncedUntil: string | null }> {
    return this.db
      .prepare(
        `WITH tracked AS (
           SELECT page_id FROM queries WHERE origin = 'generated' AND kept = 1 AND wiki = @wiki
           UNION
           SELECT d.page_id FROM data_units d WHERE d.wiki = @wiki AND NOT EXISTS (
             SELECT 1 FROM queries q WHERE q.origin = 'generated' AND q.wiki = d.wiki AND q.page_id = d.page_id AND q.window_start = d.window_start)
         )
         SELECT t.page_id AS pageId, l.synced_until AS syncedUntil FROM tracked t
         LEFT JOIN page_lifetimes l ON l.wiki = @wiki AND l.page_id = t.page_id ORDER BY t.page_id`,
      )
      .all({ wiki: this.wiki }) as Array<{ pageId: number; syncedUntil: string | null }>;
  }

  markDeleted(pageId: number, deletedAt: string): void {
    this.db
      .prepare(
        `INSERT INTO page_lifetimes (wiki, page_id, deleted_at) VALUES (?, ?, ?)
         ON CONFLICT (wiki, page_id) DO UPDATE SET deleted_at = excluded.deleted_at`,
      )
      .run(this.wiki, pageId, deletedAt);
  }

  private pageRevisions(pageId: number): TimelineRevision[] {
    const infoboxes = new Map<number, Infobox[]>();
    for (const row of this.selectInfoboxes.all(this.wiki, pageId) as Array<{ revId: number; template: string; fields: string }>) {
      const list = infoboxes.get(row.revId) ?? [];
      list.push({ template: row.template, fields: FieldsJson.parse(JSON.parse(row.fields)) });
      infoboxes.set(row.revId, list);
    }
    const rows = this.selectRevisions.all(this.wiki, pageId) as Array<{
      revId: number; parentId: number | null; timestamp: string; sha1: string | null; metadataOnly: number; parsed: number;
    }>;
    return rows.map((row) => ({
      revId: row.revId,
      parentId: row.parentId,
      timestamp: row.timestamp,
      sha1: row.sha1,
      infoboxes: row.metadataOnly || !row.parsed ? null : (infoboxes.get(row.revId) ?? []),
    }));
  }

  private save(pageId: number, timeline: PageTimeline): void {
    this.deleteIntervals.run(this.wiki, pageId);
    for (const interval of timeline.intervals) {
      this.insertInterval.run(
        this.wiki, pageId, interval.slot, interval.key, interval.template, interval.value, interval.validFrom, interval.validTo, interval.revId,
      );
    }
    this.upsertLifetime.run({
      wiki: this.wiki,
      pageId,
      createdAt: timeline.createdAt,
      knownFrom: timeline.knownFrom,
      lastRevId: timeline.lastRevId,
    });
  }
}

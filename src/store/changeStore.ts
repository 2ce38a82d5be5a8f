import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { UserError } from '../errors.js';
import type { Infobox, InfoboxChange, Window } from '../model.js';
import type { KeyChange } from '../diff/infoboxDiff.js';
import type { FilterReason } from '../select/changeFilters.js';

export interface PageRevisionRow {
  revId: number;
  timestamp: string;
  sha1: string | null;
  metadataOnly: boolean;
  firstParagraph: string | null;
}

export interface StoredChange extends InfoboxChange {
  wiki: string;
  title: string;
  filtered: FilterReason | null;
  revertedBy: number | null;
}

export interface DataUnit {
  wiki: string;
  windowStart: string;
  windowEnd: string;
  pageId: number;
  title: string;
  url: string;
  revId: number;
  prevRevId: number;
  timestamp: string;
  template: string;
  key: string;
  old: string;
  new: string;
  infobox: Record<string, string>;
  firstParagraph: string;
  seed: string;
}

const FieldsJson = z.array(z.tuple([z.string(), z.string()]));
const InfoboxJson = z.record(z.string(), z.string());

/** Infobox changes and DailyQA data units: what the diff and select stages write and `changes` reads. */
export class ChangeStore {
  constructor(private readonly db: Database, readonly wiki: string) {}

  windowPageIds(window: Window): number[] {
    return (
      this.db
        .prepare('SELECT page_id FROM window_pages WHERE wiki = ? AND window_start = ? AND window_end = ? ORDER BY page_id')
        .pluck()
        .all(this.wiki, window.start, window.end) as number[]
    );
  }

  /** A page's stored revisions, oldest first (metadata-only followers included), with parse state checked. */
  pageRevisions(pageId: number): PageRevisionRow[] {
    const rows = this.db
      .prepare(
        `SELECT rev_id AS revId, timestamp, sha1, metadata_only AS metadataOnly, first_paragraph AS firstParagraph, parsed
         FROM revisions WHERE wiki = ? AND page_id = ? ORDER BY timestamp, rev_id`,
      )
      .all(this.wiki, pageId) as Array<Omit<PageRevisionRow, 'metadataOnly'> & { parsed: number; metadataOnly: number }>;
    return rows.map((row) => {
      if (!row.metadataOnly && !row.parsed) throw new UserError(`revision ${row.revId} is not parsed yet: run the parse stage first`);
      return { revId: row.revId, timestamp: row.timestamp, sha1: row.sha1, metadataOnly: Boolean(row.metadataOnly), firstParagraph: row.firstParagraph };
    });
  }

  infoboxes(revId: number): Infobox[] {
    const rows = this.db
      .prepare('SELECT template, fields FROM infoboxes WHERE wiki = ? AND rev_id = ? ORDER BY position')
      .all(this.wiki, revId) as Array<{ template: string; fields: string }>;
    return rows.map((row) => ({ template: row.template, fields: FieldsJson.parse(JSON.parse(row.fields)) }));
  }

  /** Replaces the changes of a set of revisions in one transaction (a replay writes the same rows again). */
  saveChanges(
    pages: Array<{
      pageId: number;
      revisions: Array<{ revId: number; prevRevId: number; timestamp: string; changes: Array<KeyChange & { filtered: FilterReason | null; revertedBy: number | null }> }>;
    }>,
  ): number {
    const remove = this.db.prepare('DELETE FROM infobox_changes WHERE wiki = ? AND rev_id = ?');
    const insert = this.db.prepare(
      `INSERT INTO infobox_changes (wiki, page_id, rev_id, prev_rev_id, timestamp, template, key, kind, old, new, filtered, reverted_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    let written = 0;
    this.db.transaction(() => {
      for (const page of pages) {
        for (const revision of page.revisions) {
          remove.run(this.wiki, revision.revId);
          for (const change of revision.changes) {
            insert.run(
              this.wiki, page.pageId, revision.revId, revision.prevRevId, revision.timestamp,
              change.template, change.key, change.kind, change.old, change.new, change.filtered, change.revertedBy,
            );
            written++;
          }
        }
      }
    })();
    return written;
  }

  /** This wiki's changes with a timestamp in [start, end); see listChanges. */
  changesIn(window: Window, options: { onlyCandidates?: boolean } = {}): StoredChange[] {
    return listChanges(this.db, window, { ...options, wiki: this.wiki });
  }

  /** Replaces a window's data units in one transaction. */
  replaceDataUnits(window: Window, units: DataUnit[]): void {
    const remove = this.db.prepare('DELETE FROM data_units WHERE wiki = ? AND window_start = ? AND window_end = ?');
    const insert = this.db.prepare(
      `INSERT INTO data_units (wiki, window_start, window_end, page_id, title, url, rev_id, prev_rev_id, timestamp, template, key,
         old, new, infobox, first_paragraph, seed)
       VALUES (@wiki, @windowStart, @windowEnd, @pageId, @title, @url, @revId, @prevRevId, @timestamp, @template, @key,
         @old, @new, @infobox, @firstParagraph, @seed)`,
    );
    this.db.transaction(() => {
      remove.run(this.wiki, window.start, window.end);
      for (const unit of units) insert.run({ ...unit, infobox: JSON.stringify(unit.infobox) });
    })();
  }

  /** This wiki's data units whose change falls in [start, end); see listDataUnits. */
  dataUnitsIn(window: Window): DataUnit[] {
    return listDataUnits(this.db, window, { wiki: this.wiki });
  }

  pageTitle(pageId: number): string {
    const title = this.db.prepare('SELECT title FROM pages WHERE wiki = ? AND page_id = ?').pluck().get(this.wiki, pageId);
    return typeof title === 'string' ? title : String(pageId);
  }
}

/** Changes with a timestamp in [start, end), oldest first, of one wiki or all; optionally only those that pass the filters. */
export function listChanges(db: Database, window: Window, options: { onlyCandidates?: boolean; wiki?: string } = {}): StoredChange[] {
  return db
    .prepare(
      `SELECT c.wiki, p.title, c.page_id AS pageId, c.rev_id AS revId, c.prev_rev_id AS prevRevId, c.timestamp, c.template, c.key,
              c.kind, c.old, c.new, c.filtered, c.reverted_by AS revertedBy
       FROM infobox_changes c JOIN pages p ON p.wiki = c.wiki AND p.page_id = c.page_id
       WHERE c.timestamp >= @start AND c.timestamp < @end AND (@wiki IS NULL OR c.wiki = @wiki)
         AND (@onlyCandidates = 0 OR c.filtered IS NULL)
       ORDER BY c.timestamp, c.rev_id, c.template, c.key`,
    )
    .all({ ...window, wiki: options.wiki ?? null, onlyCandidates: options.onlyCandidates ? 1 : 0 }) as StoredChange[];
}

/** Data units whose change falls in [start, end), of one wiki or all, from every window that selected them. */
export function listDataUnits(db: Database, window: Window, options: { wiki?: string } = {}): DataUnit[] {
  const rows = db
    .prepare(
      `SELECT wiki, window_start AS windowStart, window_end AS windowEnd, page_id AS pageId, title, url, rev_id AS revId,
              prev_rev_id AS prevRevId, timestamp, template, key, old, new, infobox, first_paragraph AS firstParagraph, seed
       FROM data_units WHERE timestamp >= @start AND timestamp < @end AND (@wiki IS NULL OR wiki = @wiki)
       ORDER BY window_start, timestamp, page_id`,
    )
    .all({ ...window, wiki: options.wiki ?? null }) as Array<Omit<DataUnit, 'infobox'> & { infobox: string }>;
  return rows.map((row) => ({ ...row, infobox: InfoboxJson.parse(JSON.parse(row.infobox)) }));
}

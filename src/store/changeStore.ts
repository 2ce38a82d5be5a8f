/**
 * Infobox changes and DailyQA data units: what the diff and select stages write and `changes` and
 * the weekly release read. Statements are prepared once per repository; rows come back parsed.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { UserError } from '../errors.js';
import type { Infobox, KeyChange, Window } from '../model.js';
import { MarkedKeyChangeSchema, type DataUnit, type FilterReason, type PageRevisionRow, type StoredChange } from '../model/weekly.js';
import { Count, FieldsColumn, flag, InfoboxColumn, Numbers } from './rows.js';
import { Statements } from './statements.js';
import { currentReading } from './readingVersion.js';

const PageRevisionColumns = z.object({
  revId: z.number().int(),
  timestamp: z.string(),
  sha1: z.string().nullable(),
  metadataOnly: flag,
  firstParagraph: z.string().nullable(),
  parsed: flag,
  currentReading: flag,
});
const InfoboxRow = z.object({ template: z.string(), fields: FieldsColumn });
const RawInfoboxRow = z.object({ template: z.string(), fields: z.string() });

/** A revision's infobox rows as stored, fields as their JSON text: equal rows are equal infoboxes, told without decoding them. */
export type StoredInfoboxes = ReadonlyArray<z.infer<typeof RawInfoboxRow>>;
const StoredChangeRow = MarkedKeyChangeSchema.extend({
  wiki: z.string(),
  title: z.string(),
  pageId: z.number().int(),
  revId: z.number().int(),
  prevRevId: z.number().int(),
  timestamp: z.string(),
});
/** The data unit columns, aliased to the model's names; shared with the question repository's joins. */
export const DataUnitRow = z.object({
  wiki: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  pageId: z.number().int(),
  title: z.string(),
  url: z.string(),
  revId: z.number().int(),
  prevRevId: z.number().int(),
  timestamp: z.string(),
  template: z.string(),
  key: z.string(),
  old: z.string(),
  new: z.string(),
  infobox: InfoboxColumn,
  keyLabels: InfoboxColumn,
  firstParagraph: z.string(),
  seed: z.string(),
});

/** One wiki's infobox changes and data units: what diff and select write and generate reads. */
export class ChangeStore {
  private readonly selectWindowPages;
  private readonly selectPageRevisions;
  private readonly selectInfoboxes;
  private readonly deleteChanges;
  private readonly insertChange;
  private readonly deleteUnits;
  private readonly insertUnit;
  private readonly countUnits;
  private readonly selectTitle;

  private readonly reads: ChangeReads;

  constructor(private readonly db: Database, readonly wiki: string) {
    this.reads = new ChangeReads(db);
    this.selectWindowPages = db.prepare('SELECT page_id FROM window_pages WHERE wiki = ? AND window_start = ? AND window_end = ? ORDER BY page_id').pluck();
    this.selectPageRevisions = db.prepare(
      `SELECT rev_id AS revId, timestamp, sha1, metadata_only AS metadataOnly, first_paragraph AS firstParagraph, parsed, parse_version IS ${currentReading('content_model')} AS currentReading
       FROM revisions WHERE wiki = ? AND page_id = ? ORDER BY timestamp, rev_id`,
    );
    this.selectInfoboxes = db.prepare('SELECT template, fields FROM infoboxes WHERE wiki = ? AND page_id = ? AND rev_id = ? ORDER BY position');
    this.deleteChanges = db.prepare('DELETE FROM infobox_changes WHERE wiki = ? AND page_id = ? AND rev_id = ?');
    this.insertChange = db.prepare(
      `INSERT INTO infobox_changes (wiki, page_id, rev_id, prev_rev_id, timestamp, template, key, kind, old, new, filtered, reverted_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.deleteUnits = db.prepare('DELETE FROM data_units WHERE wiki = ? AND window_start = ? AND window_end = ?');
    this.insertUnit = db.prepare(
      `INSERT INTO data_units (wiki, window_start, window_end, page_id, title, url, rev_id, prev_rev_id, timestamp, template, key,
         old, new, infobox, key_labels, first_paragraph, seed)
       VALUES (@wiki, @windowStart, @windowEnd, @pageId, @title, @url, @revId, @prevRevId, @timestamp, @template, @key,
         @old, @new, @infobox, @keyLabels, @firstParagraph, @seed)`,
    );
    this.countUnits = db.prepare('SELECT COUNT(*) FROM data_units WHERE wiki = ? AND window_start = ? AND window_end = ?').pluck();
    this.selectTitle = db.prepare('SELECT title FROM pages WHERE wiki = ? AND page_id = ?').pluck();
  }

  /** The ids of the window's collected pages, ascending. */
  windowPageIds(window: Window): number[] {
    return Numbers.parse(this.selectWindowPages.all(this.wiki, window.start, window.end));
  }

  /** A page's stored revisions, oldest first (metadata-only followers included), with parse state checked. */
  pageRevisions(pageId: number): PageRevisionRow[] {
    return this.selectPageRevisions.all(this.wiki, pageId).map((raw) => {
      const row = PageRevisionColumns.parse(raw);
      if (!row.metadataOnly && !row.parsed) throw new UserError('E_PREREQUISITE_MISSING', `revision ${row.revId} is not parsed yet: run the parse stage first`);
      const olderReading = !row.metadataOnly && !row.currentReading;
      return { revId: row.revId, timestamp: row.timestamp, sha1: row.sha1, metadataOnly: row.metadataOnly, firstParagraph: row.firstParagraph, olderReading };
    });
  }

  /** A revision's infoboxes: its stored rows, decoded. */
  infoboxes(pageId: number, revId: number): Infobox[] {
    return this.decodeInfoboxes(this.storedInfoboxes(pageId, revId));
  }

  /** A revision's infobox rows as stored, for a reader that decodes only those unlike the last it read. */
  storedInfoboxes(pageId: number, revId: number): StoredInfoboxes {
    return this.selectInfoboxes.all(this.wiki, pageId, revId).map((row) => RawInfoboxRow.parse(row));
  }

  /** Parses stored infobox rows (fields as JSON text) into infoboxes. */
  decodeInfoboxes(rows: StoredInfoboxes): Infobox[] {
    return rows.map((row) => InfoboxRow.parse(row));
  }

  /** Replaces the changes of a set of revisions in one transaction (a replay writes the same rows again). */
  saveChanges(
    pages: Array<{
      pageId: number;
      revisions: Array<{ revId: number; prevRevId: number; timestamp: string; changes: Array<KeyChange & { filtered: FilterReason | null; revertedBy: number | null }> }>;
    }>,
  ): number {
    let written = 0;
    this.db.transaction(() => {
      for (const page of pages) {
        for (const revision of page.revisions) {
          this.deleteChanges.run(this.wiki, page.pageId, revision.revId);
          for (const change of revision.changes) {
            this.insertChange.run(
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

  /**
   * This wiki's changes with a timestamp in [start, end), oldest first (`ChangeReads.changes`).
   *
   * @param window the span of change timestamps.
   * @param options `onlyCandidates`: only those that pass the filters.
   * @returns the changes with their page titles and filter marks.
   */
  changesIn(window: Window, options: { onlyCandidates?: boolean } = {}): StoredChange[] {
    return this.reads.changes(window, { ...options, wiki: this.wiki });
  }

  /** Replaces a window's data units in one transaction. */
  replaceDataUnits(window: Window, units: DataUnit[]): void {
    this.db.transaction(() => {
      this.deleteUnits.run(this.wiki, window.start, window.end);
      for (const unit of units) this.insertUnit.run({ ...unit, infobox: JSON.stringify(unit.infobox), keyLabels: JSON.stringify(unit.keyLabels) });
    })();
  }

  /**
   * This wiki's data units whose change falls in [start, end) (`ChangeReads.dataUnits`).
   *
   * @param window the span of change timestamps.
   * @returns the units by window, then change time, then page.
   */
  dataUnitsIn(window: Window): DataUnit[] {
    return this.reads.dataUnits(window, { wiki: this.wiki });
  }

  /** How many data units the window selected. */
  dataUnitCount(window: Window): number {
    return Count.parse(this.countUnits.get(this.wiki, window.start, window.end));
  }

  /** The page's title, or its id as text when the page is unknown. */
  pageTitle(pageId: number): string {
    const title = z.string().optional().parse(this.selectTitle.get(this.wiki, pageId));
    return title ?? String(pageId);
  }
}

/**
 * Key changes and data units across wikis, by window: what `changes` lists. Each statement is
 * prepared the first time it runs.
 */
export class ChangeReads {
  private readonly statements: Statements;

  /** @param db the store's connection. */
  constructor(db: Database) {
    this.statements = new Statements(db);
  }

  /**
   * Changes with a timestamp in [start, end), oldest first, of one wiki or all.
   *
   * @param window the span of change timestamps.
   * @param options `onlyCandidates`: only the changes that pass the filters; `wiki`: one wiki's only.
   * @returns the changes with their page titles and filter marks.
   */
  changes(window: Window, options: { onlyCandidates?: boolean; wiki?: string } = {}): StoredChange[] {
    return this.statements
      .get(
        `SELECT c.wiki, p.title, c.page_id AS pageId, c.rev_id AS revId, c.prev_rev_id AS prevRevId, c.timestamp, c.template, c.key,
                c.kind, c.old, c.new, c.filtered, c.reverted_by AS revertedBy
         FROM infobox_changes c JOIN pages p ON p.wiki = c.wiki AND p.page_id = c.page_id
         WHERE c.timestamp >= @start AND c.timestamp < @end AND (@wiki IS NULL OR c.wiki = @wiki)
           AND (@onlyCandidates = 0 OR c.filtered IS NULL)
         ORDER BY c.timestamp, c.rev_id, c.template, c.key`,
      )
      .all({ ...window, wiki: options.wiki ?? null, onlyCandidates: options.onlyCandidates ? 1 : 0 })
      .map((row) => StoredChangeRow.parse(row));
  }

  /**
   * Data units whose change falls in [start, end), of one wiki or all, from every window that selected them.
   *
   * @param window the span of change timestamps.
   * @param options `wiki`: one wiki's only.
   * @returns the units by window, then change time, then page.
   */
  dataUnits(window: Window, options: { wiki?: string } = {}): DataUnit[] {
    return this.statements
      .get(
        `SELECT wiki, window_start AS windowStart, window_end AS windowEnd, page_id AS pageId, title, url, rev_id AS revId,
                prev_rev_id AS prevRevId, timestamp, template, key, old, new, infobox, key_labels AS keyLabels, first_paragraph AS firstParagraph, seed
         FROM data_units WHERE timestamp >= @start AND timestamp < @end AND (@wiki IS NULL OR wiki = @wiki)
         ORDER BY window_start, timestamp, page_id`,
      )
      .all({ ...window, wiki: options.wiki ?? null })
      .map((row) => DataUnitRow.parse(row));
  }
}

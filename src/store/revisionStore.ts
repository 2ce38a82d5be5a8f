/**
 * Pages, revisions and their parsed infoboxes: what the collect and parse stages write. A page's
 * revisions arrive in parts and its completion is recorded with its last part, so memory is bounded
 * by a part whatever the window, and an interrupted collection resumes the page from scratch.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { inWindow } from '../dates.js';
import { type EntityFacts, type Infobox, type PageMove, type PageRef, type Revision, type Window } from '../model.js';
import { currentReading } from './readingVersion.js';

export interface UnparsedRevision {
  revId: number;
  pageId: number;
  timestamp: string;
  text: string | null;
  /** The content model; null: wikitext. */
  model: string | null;
}

/**
 * What parsing keeps of a revision: its infoboxes, its first paragraph when inside the window (else
 * null), and for an entity what names it and its time-qualified statements; or why its content could
 * not be read at all, which makes it a metadata-only revision (its content unknown).
 */
export interface ParsedRevision {
  pageId: number;
  revId: number;
  infoboxes: Infobox[];
  firstParagraph: string | null;
  entity?: EntityFacts;
  unreadable?: string;
}

/** Where a walk over unparsed revisions stands: after this page and revision, in key order. */
export interface ParseCursor {
  pageId: number;
  revId: number;
}

/** Whether a stored revision is parsed again from the text a new collection brings (SQL, in the upsert). */
const REPARSE = `(revisions.metadata_only = 1 AND excluded.metadata_only = 0)
  OR (@wantsLead = 1 AND revisions.parsed = 1 AND revisions.first_paragraph IS NULL AND excluded.text IS NOT NULL)
  OR (revisions.parsed = 1 AND revisions.parse_version IS NOT ${currentReading('COALESCE(excluded.content_model, revisions.content_model)')} AND excluded.text IS NOT NULL)`;

const WikidataDrivenRow = z.object({ template: z.string(), pages: z.number().int() });
const ParsedRow = z.object({ revId: z.number(), timestamp: z.string(), hasLead: z.number().transform((flag) => flag === 1) });
const UnparsedRow = z.object({ revId: z.number(), pageId: z.number(), timestamp: z.string(), text: z.string().nullable(), model: z.string().nullable() });

/** Free pages worth a reclaim: at least this share of the file. */
const RECLAIM_FREE_SHARE = 0.25;
/** SQLite's auto_vacuum value for INCREMENTAL. */
const INCREMENTAL_VACUUM = 2;

/** One wiki's pages and revisions with their parsed facts: what collect and parse write and the later stages read. */
export class RevisionStore {
  private readonly insertPage;
  private readonly insertRevision;
  private readonly insertMove;
  private readonly insertWindowPage;
  private readonly selectWindowPage;
  private readonly deleteWindowPages;
  private readonly selectUnparsed;
  private readonly deleteInfoboxes;
  private readonly insertInfobox;
  private readonly markParsed;
  private readonly markContentUnknown;
  private readonly selectParsed;
  private readonly upsertEntityPage;
  private readonly insertTimedFacts;
  private readonly selectWikidataDriven;

  constructor(private readonly db: Database, readonly wiki: string) {
    this.insertPage = db.prepare(
      `INSERT INTO pages (wiki, page_id, title, namespace) VALUES (?, ?, ?, ?)
       ON CONFLICT (wiki, page_id) DO UPDATE SET title = excluded.title, namespace = excluded.namespace`,
    );
    // A revision already stored keeps its parse state, unless it must be parsed again with the text
    // that arrives: a metadata-only row, or one parsed outside a window (no first paragraph read) that
    // this window holds. So a week's data units keep their first paragraphs whatever ran before.
    this.insertRevision = db.prepare(
      `INSERT INTO revisions (wiki, rev_id, page_id, parent_id, timestamp, sha1, comment, user, minor, text, metadata_only, content_model)
       VALUES (@wiki, @revId, @pageId, @parentId, @timestamp, @sha1, @comment, @user, @minor, @text, @metadataOnly, @model)
       ON CONFLICT (wiki, page_id, rev_id) DO UPDATE SET
         content_model = COALESCE(excluded.content_model, revisions.content_model),
         text = CASE WHEN ${REPARSE} THEN excluded.text ELSE revisions.text END,
         parsed = CASE WHEN ${REPARSE} THEN 0 ELSE revisions.parsed END,
         metadata_only = MIN(revisions.metadata_only, excluded.metadata_only)`,
    );
    this.insertMove = db.prepare(
      'INSERT OR IGNORE INTO page_moves (wiki, page_id, timestamp, from_title, to_title) VALUES (?, ?, ?, ?, ?)',
    );
    this.insertWindowPage = db.prepare(
      'INSERT OR IGNORE INTO window_pages (wiki, window_start, window_end, page_id) VALUES (?, ?, ?, ?)',
    );
    this.selectWindowPage = db.prepare(
      'SELECT 1 FROM window_pages WHERE wiki = ? AND window_start = ? AND window_end = ? AND page_id = ?',
    );
    this.deleteWindowPages = db.prepare('DELETE FROM window_pages WHERE wiki = ? AND window_start = ? AND window_end = ?');
    // Key order walks the partial index of unparsed rows (migration 21): no sort, and no walk over the parsed ones.
    this.selectUnparsed = db.prepare(
      `SELECT rev_id AS revId, page_id AS pageId, timestamp, text, content_model AS model FROM revisions
       WHERE wiki = ? AND (page_id, rev_id) > (?, ?) AND parsed = 0 AND metadata_only = 0 ORDER BY page_id, rev_id`,
    );
    this.deleteInfoboxes = db.prepare('DELETE FROM infoboxes WHERE wiki = ? AND page_id = ? AND rev_id = ?');
    this.insertInfobox = db.prepare(
      'INSERT OR REPLACE INTO infoboxes (wiki, page_id, rev_id, position, template, fields, aliases, from_wikidata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // The entity a page is, as the latest of its parsed revisions names it (docs/ARCHITECTURE.md §16).
    this.upsertEntityPage = db.prepare(
      `INSERT INTO entity_pages (wiki, page_id, entity_id, label, aliases, enwiki, as_of, rev_id)
       SELECT @wiki, @pageId, @entityId, @label, @aliases, @enwiki, timestamp, rev_id FROM revisions
       WHERE wiki = @wiki AND page_id = @pageId AND rev_id = @revId
       ON CONFLICT (wiki, page_id) DO UPDATE SET entity_id = excluded.entity_id, label = excluded.label, aliases = excluded.aliases,
         enwiki = excluded.enwiki, as_of = excluded.as_of, rev_id = excluded.rev_id
       WHERE (excluded.as_of, excluded.rev_id) >= (entity_pages.as_of, entity_pages.rev_id)`,
    );
    this.insertTimedFacts = db.prepare('INSERT OR REPLACE INTO timed_facts (wiki, page_id, rev_id, facts) VALUES (?, ?, ?, ?)');
    // Each page of the window at its latest parsed revision up to the window's end, and its infoboxes filled from Wikidata.
    this.selectWikidataDriven = db.prepare(
      `SELECT i.template, COUNT(DISTINCT i.page_id) AS pages FROM window_pages w
       JOIN revisions r ON r.wiki = w.wiki AND r.page_id = w.page_id AND r.rev_id = (
         SELECT rev_id FROM revisions WHERE wiki = w.wiki AND page_id = w.page_id AND parsed = 1 AND metadata_only = 0 AND timestamp <= w.window_end
         ORDER BY timestamp DESC, rev_id DESC LIMIT 1)
       JOIN infoboxes i ON i.wiki = r.wiki AND i.page_id = r.page_id AND i.rev_id = r.rev_id AND i.from_wikidata = 1
       WHERE w.wiki = @wiki AND w.window_start = @start AND w.window_end = @end
       GROUP BY i.template ORDER BY pages DESC, i.template`,
    );
    // What collect need not parse again (the other side of REPARSE and markParsed): parsed by this
    // version's reading, not metadata-only, and inside a window only with its first paragraph read.
    this.selectParsed = db.prepare(
      `SELECT rev_id AS revId, timestamp, first_paragraph IS NOT NULL AS hasLead FROM revisions
       WHERE wiki = ? AND page_id = ? AND parsed = 1 AND parse_version = ${currentReading('content_model')} AND metadata_only = 0 AND rev_id IN (SELECT value FROM json_each(?))`,
    );
    this.markContentUnknown = db.prepare('UPDATE revisions SET metadata_only = 1, first_paragraph = NULL WHERE wiki = ? AND page_id = ? AND rev_id = ?');
    // A revision an older reading parsed (another parse_version) takes this reading's facts; a first
    // paragraph it had keeps, when this parse (outside a window) reads none.
    this.markParsed = db.prepare(
      `UPDATE revisions SET parsed = 1, parse_version = ${currentReading('content_model')}, first_paragraph = COALESCE(@firstParagraph, first_paragraph),
         text = CASE WHEN @keep THEN text ELSE NULL END
       WHERE wiki = @wiki AND page_id = @pageId AND rev_id = @revId
         AND (parsed = 0 OR parse_version IS NOT ${currentReading('content_model')} OR (first_paragraph IS NULL AND @firstParagraph IS NOT NULL))`,
    );
  }

  /** Stores one part of a page's revisions, collected for `window`, in a single transaction. */
  saveRevisions(page: PageRef, revisions: Revision[], window: Window): void {
    this.db.transaction(() => this.writeRevisions(page, revisions, window))();
  }

  /**
   * One part of a page's revisions parsed as it was collected for `window`, in one transaction with
   * the parse results: the texts are stored only when content is kept, so a week's wikitext never has
   * to fit the disk (docs/SCALE.md). Ends as a part saved, then parsed.
   */
  saveParsedRevisions(page: PageRef, revisions: Revision[], parsed: ParsedRevision[], { window, keepContent }: { window: Window; keepContent: boolean }): void {
    this.db.transaction(() => {
      this.writeRevisions(page, keepContent ? revisions : revisions.map((revision) => ({ ...revision, text: null })), window);
      this.writeParsed(parsed, keepContent);
    })();
  }

  /** Of these revisions of a page, those stored parsed as `window` needs them: no parse of them would change the store. */
  parsedFor(window: Window, pageId: number, revIds: readonly number[]): Set<number> {
    const rows = this.selectParsed.all(this.wiki, pageId, JSON.stringify(revIds)).map((row) => ParsedRow.parse(row));
    return new Set(rows.filter((row) => row.hasLead || !inWindow(row.timestamp, window)).map((row) => row.revId));
  }

  /** Runs `writes` (calls of this store's methods) in one transaction: many small parts cost one commit. */
  inOneTransaction(writes: () => void): void {
    this.db.transaction(writes)();
  }

  /**
   * Records a page's end for a window, after all its revisions were saved: the metadata of the
   * revisions around the window (revert horizon), its moves,
   * and the page as done, in one transaction, so a crash before it leaves the page to be collected again.
   */
  finishPage(window: Window, page: PageRef, end: { moves: PageMove[]; predecessors?: Revision[]; followers?: Revision[] }): void {
    this.db.transaction(() => {
      this.insertPage.run(this.wiki, page.pageId, page.title, page.namespace);
      for (const revision of [...(end.predecessors ?? []), ...(end.followers ?? [])]) this.saveRevision(page.pageId, revision, { metadataOnly: true, wantsLead: false });
      for (const move of end.moves) this.insertMove.run(this.wiki, page.pageId, move.timestamp, move.from, move.to);
      this.insertWindowPage.run(this.wiki, window.start, window.end, page.pageId);
    })();
  }

  /**
   * The window's pages whose infobox draws its values from Wikidata, at their latest revision up to the
   * window's end, by template (docs/ARCHITECTURE.md §16): their facts change on Wikidata, not here.
   */
  wikidataDrivenTemplates(window: Window): Array<{ template: string; pages: number }> {
    return this.selectWikidataDriven.all({ wiki: this.wiki, start: window.start, end: window.end }).map((row) => WikidataDrivenRow.parse(row));
  }

  /**
   * Forgets which pages the window's collection finished, so that a collect redone on purpose reads
   * every page again (and no longer holds a page the source no longer lists, e.g. deleted since);
   * the revisions stay, as every other window's.
   */
  reopenWindow(window: Window): void {
    this.deleteWindowPages.run(this.wiki, window.start, window.end);
  }

  /** Whether the page's collection for the window is finished (its end recorded). */
  isPageDone(window: Window, pageId: number): boolean {
    return this.selectWindowPage.get(this.wiki, window.start, window.end, pageId) !== undefined;
  }

  /**
   * The next unparsed revisions after `after` in key order: at most `maxRevisions`, and no more once
   * their texts reach `maxChars` (a few revisions of a long article already weigh megabytes).
   */
  unparsedBatch(after: ParseCursor | null, limits: { maxRevisions: number; maxChars: number }): UnparsedRevision[] {
    const batch: UnparsedRevision[] = [];
    let chars = 0;
    for (const row of this.selectUnparsed.iterate(this.wiki, after?.pageId ?? -1, after?.revId ?? -1)) {
      const revision = UnparsedRow.parse(row);
      batch.push(revision);
      chars += revision.text?.length ?? 0;
      if (batch.length >= limits.maxRevisions || chars >= limits.maxChars) break;
    }
    return batch;
  }

  /**
   * Writes the parse results of a batch in one transaction; the raw text is dropped unless content
   * is cached. A revision already parsed keeps what it has, as a stored revision keeps its parse
   * state when collected again, but for the first paragraph a parse inside a window reads: a page read and parsed at once on a worker (dumpJob.ts) then ends as
   * one collected, then parsed.
   */
  saveParsed(results: ParsedRevision[], keepContent: boolean): void {
    this.db.transaction(() => this.writeParsed(results, keepContent))();
  }

  /**
   * A page collected and parsed at once (a dump file read on a worker, no text kept): its revisions,
   * their parse results and its end, in one transaction, so the page is done for the window and for
   * parsing together or not at all.
   */
  saveParsedPage(window: Window, page: PageRef, revisions: Array<Omit<Revision, 'text'> & Omit<ParsedRevision, 'pageId'>>, end: { moves: PageMove[]; predecessors: Revision[]; followers: Revision[] }): void {
    this.db.transaction(() => {
      this.saveRevisions(page, revisions.map((revision) => ({ ...revision, text: null })), window);
      this.saveParsed(
        revisions.map(({ revId, infoboxes, firstParagraph, entity, unreadable }) => ({ pageId: page.pageId, revId, infoboxes, firstParagraph, ...(entity ? { entity } : {}), ...(unreadable === undefined ? {} : { unreadable }) })),
        false,
      );
      this.finishPage(window, page, end);
    })();
  }

  /**
   * Gives the file back the pages that dropped texts freed, once they are a good share of it. A
   * store in incremental-vacuum mode does it in place; an older one is switched by one VACUUM,
   * which costs a copy of the live data only (a small part of the file by then).
   * Returns the file's size in pages before and after.
   */
  reclaimFreeSpace(): { pagesBefore: number; pagesAfter: number } {
    const pagesBefore = this.pragmaNumber('page_count');
    if (this.pragmaNumber('freelist_count') < pagesBefore * RECLAIM_FREE_SHARE) return { pagesBefore, pagesAfter: pagesBefore };
    if (this.pragmaNumber('auto_vacuum') === INCREMENTAL_VACUUM) {
      this.db.pragma('incremental_vacuum');
    } else {
      this.db.pragma('auto_vacuum = INCREMENTAL');
      this.db.exec('VACUUM');
    }
    // In WAL mode the file shrinks only once the freed pages are checkpointed.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    return { pagesBefore, pagesAfter: this.pragmaNumber('page_count') };
  }

  private pragmaNumber(name: string): number {
    return z.number().parse(this.db.pragma(name, { simple: true }));
  }

  private writeRevisions(page: PageRef, revisions: Revision[], window: Window): void {
    this.insertPage.run(this.wiki, page.pageId, page.title, page.namespace);
    for (const revision of revisions) this.saveRevision(page.pageId, revision, { metadataOnly: false, wantsLead: inWindow(revision.timestamp, window) });
  }

  private writeParsed(results: ParsedRevision[], keepContent: boolean): void {
    for (const result of results) {
      const marked = this.markParsed.run({ firstParagraph: result.firstParagraph, keep: keepContent ? 1 : 0, wiki: this.wiki, pageId: result.pageId, revId: result.revId });
      if (marked.changes === 0) continue;
      // Content that cannot be read says nothing of the facts: read as no facts, every one would seem removed by it.
      if (result.unreadable !== undefined) {
        this.markContentUnknown.run(this.wiki, result.pageId, result.revId);
        continue;
      }
      this.deleteInfoboxes.run(this.wiki, result.pageId, result.revId);
      result.infoboxes.forEach((infobox, position) => {
        const aliases = infobox.aliases && Object.keys(infobox.aliases).length > 0 ? JSON.stringify(infobox.aliases) : null;
        this.insertInfobox.run(this.wiki, result.pageId, result.revId, position, infobox.template, JSON.stringify(infobox.fields), aliases, infobox.fromWikidata ? 1 : 0);
      });
      if (result.entity) this.saveEntity(result.pageId, result.revId, result.entity);
    }
  }

  private saveEntity(pageId: number, revId: number, entity: EntityFacts): void {
    this.upsertEntityPage.run({
      wiki: this.wiki, pageId, revId, entityId: entity.id, label: entity.label, aliases: JSON.stringify(entity.aliases), enwiki: entity.enwiki,
    });
    this.insertTimedFacts.run(this.wiki, pageId, revId, JSON.stringify(entity.timed));
  }

  private saveRevision(pageId: number, revision: Revision, { metadataOnly, wantsLead }: { metadataOnly: boolean; wantsLead: boolean }): void {
    this.insertRevision.run({
      model: revision.model ?? null,
      wantsLead: wantsLead ? 1 : 0,
      wiki: this.wiki,
      revId: revision.revId,
      pageId,
      parentId: revision.parentId,
      timestamp: revision.timestamp,
      sha1: revision.sha1,
      comment: revision.comment,
      user: revision.user,
      minor: revision.minor ? 1 : 0,
      text: metadataOnly ? null : revision.text,
      metadataOnly: metadataOnly ? 1 : 0,
    });
  }
}

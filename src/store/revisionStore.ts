import type { Database } from 'better-sqlite3';
import type { Infobox, PageHistory, Revision, Window } from '../model.js';

export interface StoredRevision {
  revId: number;
  pageId: number;
  timestamp: string;
  sha1: string | null;
  metadataOnly: boolean;
}

/** Pages, revisions and their parsed infoboxes: what the collect and parse stages write. */
export class RevisionStore {
  private readonly insertPage;
  private readonly insertRevision;
  private readonly insertMove;
  private readonly insertWindowPage;
  private readonly selectWindowPage;
  private readonly selectUnparsed;
  private readonly insertInfobox;
  private readonly markParsed;

  constructor(private readonly db: Database, readonly wiki: string) {
    this.insertPage = db.prepare(
      `INSERT INTO pages (wiki, page_id, title, namespace) VALUES (?, ?, ?, ?)
       ON CONFLICT (wiki, page_id) DO UPDATE SET title = excluded.title, namespace = excluded.namespace`,
    );
    // A revision already stored keeps its parse state; a metadata-only row is upgraded when its text arrives.
    this.insertRevision = db.prepare(
      `INSERT INTO revisions (wiki, rev_id, page_id, parent_id, timestamp, sha1, comment, user, minor, text, metadata_only)
       VALUES (@wiki, @revId, @pageId, @parentId, @timestamp, @sha1, @comment, @user, @minor, @text, @metadataOnly)
       ON CONFLICT (wiki, rev_id) DO UPDATE SET
         text = CASE WHEN revisions.metadata_only = 1 AND excluded.metadata_only = 0 THEN excluded.text ELSE revisions.text END,
         parsed = CASE WHEN revisions.metadata_only = 1 AND excluded.metadata_only = 0 THEN 0 ELSE revisions.parsed END,
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
    this.selectUnparsed = db.prepare(
      `SELECT rev_id AS revId, page_id AS pageId, timestamp, text FROM revisions
       WHERE parsed = 0 AND wiki = ? AND metadata_only = 0 ORDER BY rev_id LIMIT ?`,
    );
    this.insertInfobox = db.prepare(
      'INSERT OR REPLACE INTO infoboxes (wiki, rev_id, position, template, fields) VALUES (?, ?, ?, ?, ?)',
    );
    this.markParsed = db.prepare(
      'UPDATE revisions SET parsed = 1, first_paragraph = ?, text = CASE WHEN ? THEN text ELSE NULL END WHERE wiki = ? AND rev_id = ?',
    );
  }

  /**
   * Stores one page's history for a window in a single transaction, so a crash never leaves a page
   * with only part of its revisions, and marks the page done for that window.
   */
  savePageHistory(window: Window, history: PageHistory): void {
    const { page } = history;
    this.db.transaction(() => {
      this.insertPage.run(this.wiki, page.pageId, page.title, page.namespace);
      for (const revision of history.revisions) this.saveRevision(page.pageId, revision, false);
      for (const revision of history.followers ?? []) this.saveRevision(page.pageId, revision, true);
      for (const move of history.moves) this.insertMove.run(this.wiki, page.pageId, move.timestamp, move.from, move.to);
      this.insertWindowPage.run(this.wiki, window.start, window.end, page.pageId);
    })();
  }

  isPageDone(window: Window, pageId: number): boolean {
    return this.selectWindowPage.get(this.wiki, window.start, window.end, pageId) !== undefined;
  }

  unparsedBatch(limit: number): Array<{ revId: number; pageId: number; timestamp: string; text: string | null }> {
    return this.selectUnparsed.all(this.wiki, limit) as Array<{ revId: number; pageId: number; timestamp: string; text: string | null }>;
  }

  /** Writes the parse results of a batch in one transaction; the raw text is dropped unless content is cached. */
  saveParsed(results: Array<{ revId: number; infoboxes: Infobox[]; firstParagraph: string | null }>, keepContent: boolean): void {
    this.db.transaction(() => {
      for (const result of results) {
        result.infoboxes.forEach((infobox, position) => {
          this.insertInfobox.run(this.wiki, result.revId, position, infobox.template, JSON.stringify(infobox.fields));
        });
        this.markParsed.run(result.firstParagraph, keepContent ? 1 : 0, this.wiki, result.revId);
      }
    })();
  }

  private saveRevision(pageId: number, revision: Revision, metadataOnly: boolean): void {
    this.insertRevision.run({
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

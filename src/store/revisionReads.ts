/**
 * The read side of the revisions aggregate for readers outside the weekly stages: page titles,
 * titles before moves, and each page's latest parsed revision with its infoboxes. Kept apart from
 * RevisionStore (the collect and parse stages' writer) only while that module is being reworked;
 * statements are prepared once per repository and rows come back parsed.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import type { Infobox, Window } from '../model.js';
import { FieldsColumn } from './rows.js';

const PageTitleRow = z.object({ pageId: z.number().int(), title: z.string() });
const PageMatchRow = z.object({ wiki: z.string(), pageId: z.number().int(), title: z.string().nullable(), former: z.number().int() });
const LatestRevisionRow = z.object({ pageId: z.number().int(), title: z.string(), revId: z.number().int(), lead: z.string() });
const InfoboxRow = z.object({ template: z.string(), fields: FieldsColumn });
const ArticleAtRow = z.object({ title: z.string(), revId: z.number().int(), lead: z.string().nullable() });

/** The revisions' read side for readers outside the weekly stages: page titles, titles before moves, each page's latest parsed revision. */
export class RevisionReads {
  private readonly selectTitles;
  private readonly selectByTitle;
  private readonly selectLatestRevisions;
  private readonly selectInfoboxes;
  private readonly selectArticleAt;

  constructor(db: Database) {
    this.selectTitles = db.prepare('SELECT page_id AS pageId, title FROM pages WHERE wiki = ?');
    this.selectByTitle = db.prepare(
      `SELECT wiki, page_id AS pageId, title, 0 AS former FROM pages WHERE title = @title AND (@wiki IS NULL OR wiki = @wiki)
       UNION ALL
       SELECT m.wiki, m.page_id AS pageId, p.title, 1 AS former FROM page_moves m LEFT JOIN pages p ON p.wiki = m.wiki AND p.page_id = m.page_id
       WHERE m.from_title = @title AND (@wiki IS NULL OR m.wiki = @wiki)
       UNION ALL
       SELECT e.wiki, e.page_id AS pageId, p.title, 2 AS former FROM entity_pages e LEFT JOIN pages p ON p.wiki = e.wiki AND p.page_id = e.page_id
       WHERE e.label IN (@label, @title) AND (@wiki IS NULL OR e.wiki = @wiki)
       ORDER BY former, pageId`,
    );
    this.selectLatestRevisions = db.prepare(
      `SELECT p.page_id AS pageId, COALESCE(e.label, p.title) AS title,
              r.rev_id AS revId, r.first_paragraph AS lead
       FROM window_pages w JOIN pages p ON p.wiki = w.wiki AND p.page_id = w.page_id
       LEFT JOIN entity_pages e ON e.wiki = p.wiki AND e.page_id = p.page_id JOIN revisions r ON r.rev_id = (
         SELECT rev_id FROM revisions WHERE wiki = p.wiki AND page_id = p.page_id AND parsed = 1 AND first_paragraph IS NOT NULL
           AND timestamp < @end ORDER BY timestamp DESC, rev_id DESC LIMIT 1) AND r.wiki = p.wiki AND r.page_id = p.page_id
       WHERE w.wiki = @wiki AND w.window_start = @start AND w.window_end = @end AND p.namespace = 0 ORDER BY p.page_id`,
    );
    this.selectInfoboxes = db.prepare('SELECT template, fields FROM infoboxes WHERE wiki = ? AND page_id = ? AND rev_id = ? ORDER BY position');
    // The revision in effect at the instant (docs/ARCHITECTURE.md §2), and the first paragraph of the
    // latest revision up to it that had one stored (not every revision's is).
    this.selectArticleAt = db.prepare(
      `SELECT p.title, r.rev_id AS revId,
              (SELECT first_paragraph FROM revisions WHERE wiki = r.wiki AND page_id = r.page_id AND parsed = 1
                 AND first_paragraph IS NOT NULL AND timestamp <= @instant ORDER BY timestamp DESC, rev_id DESC LIMIT 1) AS lead
       FROM pages p JOIN revisions r ON r.wiki = p.wiki AND r.page_id = p.page_id
       WHERE p.wiki = @wiki AND p.page_id = @pageId AND r.parsed = 1 AND r.metadata_only = 0 AND r.timestamp <= @instant
       ORDER BY r.timestamp DESC, r.rev_id DESC LIMIT 1`,
    );
  }

  /** Every page of the wiki with its current title. */
  pageTitles(wiki: string): Array<{ pageId: number; title: string }> {
    return this.selectTitles.all(wiki).map((row) => PageTitleRow.parse(row));
  }

  /**
   * Pages a title names now (`former` 0), then those it named before a move (1), then entities whose
   * English label is `label` as written (a label is not a title: `iPhone` is not `IPhone`) or `title`
   * (2), each with its title now; of one wiki or all.
   */
  pagesTitled(title: string, wiki?: string, label: string = title): Array<{ wiki: string; pageId: number; title: string | null; former: number }> {
    return this.selectByTitle.all({ title, label, wiki: wiki ?? null }).map((row) => PageMatchRow.parse(row));
  }

  /**
   * Every article the window collected, at its latest parsed revision before the window's end that
   * has a first paragraph, by page id, under the title its data units name it by (the page's as its
   * source gives it; an entity's latest English label). Not its title at the window's end: a move
   * only a later week collected would rename the page in this week's index but not in its questions,
   * and the check would then miss the page in a store that ran the later week first. The window's
   * pages as the window saw them, whatever else the store holds: a week's checks do not depend on the
   * weeks run before it (docs/ARCHITECTURE.md §5), but for an entity relabelled since.
   */
  latestRevisions(wiki: string, window: Window): Array<{ pageId: number; title: string; revId: number; lead: string }> {
    return this.selectLatestRevisions.all({ wiki, start: window.start, end: window.end }).map((row) => LatestRevisionRow.parse(row));
  }

  /** The page as of an instant: its title, the revision in effect and a first paragraph; undefined before any known revision. */
  articleAt(wiki: string, pageId: number, instant: string): { title: string; revId: number; lead: string | null } | undefined {
    const row = this.selectArticleAt.get({ wiki, pageId, instant });
    return row === undefined ? undefined : ArticleAtRow.parse(row);
  }

  /** A stored revision's parsed infoboxes, in page order. */
  infoboxes(wiki: string, pageId: number, revId: number): Infobox[] {
    return this.selectInfoboxes.all(wiki, pageId, revId).map((row) => InfoboxRow.parse(row));
  }
}

import type { Database } from 'better-sqlite3';
import { UserError } from '../errors.js';

/** The page a title names now, or named before a move; optionally within one wiki. */
export function findPageByTitle(db: Database, title: string, wiki?: string): { wiki: string; pageId: number } {
  const normalised = title.replace(/_/g, ' ').trim();
  const rows = db
    .prepare(
      `SELECT wiki, page_id AS pageId, 0 AS former FROM pages WHERE title = @title AND (@wiki IS NULL OR wiki = @wiki)
       UNION ALL
       SELECT wiki, page_id AS pageId, 1 AS former FROM page_moves WHERE from_title = @title AND (@wiki IS NULL OR wiki = @wiki)
       ORDER BY former`,
    )
    .all({ title: normalised, wiki: wiki ?? null }) as Array<{ wiki: string; pageId: number }>;
  const first = rows[0];
  if (!first) throw new UserError(`no page titled "${normalised}" in the store${wiki ? ` for wiki ${wiki}` : ''}`);
  return first;
}

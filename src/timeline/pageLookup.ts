import type { Database } from 'better-sqlite3';
import { UserError } from '../errors.js';
import { RevisionReads } from '../store/revisionReads.js';
import { normaliseTitle } from '../text/titles.js';

/** The page a title names now, or named before a move; optionally within one wiki. */
export function findPageByTitle(db: Database, title: string, wiki?: string): { wiki: string; pageId: number } {
  const normalised = normaliseTitle(title);
  const rows = new RevisionReads(db).pagesTitled(normalised, wiki);
  const first = rows[0];
  if (!first) throw new UserError('E_PAGE_NOT_FOUND', `no page titled "${normalised}" in the store${wiki ? ` for wiki ${wiki}` : ''}`);
  return first;
}

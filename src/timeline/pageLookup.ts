import type { Store } from '../store/store.js';
import { UserError } from '../errors.js';
import { normaliseTitle } from '../text/titles.js';

/** The page a title names now, or named before a move; optionally within one wiki. */
export function findPageByTitle(store: Store, title: string, wiki?: string): { wiki: string; pageId: number } {
  const normalised = normaliseTitle(title);
  const rows = store.pages.pagesTitled(normalised, wiki);
  const first = rows[0];
  if (!first) throw new UserError('E_PAGE_NOT_FOUND', `no page titled "${normalised}" in the store${wiki ? ` for wiki ${wiki}` : ''}`);
  return first;
}

import type { Store } from '../store/store.js';
import { UserError } from '../errors.js';
import { normaliseTitle } from '../text/titles.js';

/**
 * The page a title names now, or named before a move, or the entity whose English label it is (the
 * label read as written, not as a title: `iPhone`); optionally within one wiki. A title that names
 * pages of several wikis is refused (`E_WIKI_AMBIGUOUS`) rather than answered from one of them, and a
former title or label of several pages of one wiki (`E_TITLE_AMBIGUOUS`) likewise.
 */
export function findPageByTitle(store: Store, title: string, wiki?: string): { wiki: string; pageId: number } {
  const normalised = normaliseTitle(title);
  const rows = store.pages.pagesTitled(normalised, wiki, title.normalize('NFC').trim());
  const first = rows[0];
  if (!first) throw new UserError('E_PAGE_NOT_FOUND', `no page titled "${normalised}" in the store${wiki ? ` for wiki ${wiki}` : ''}`);
  const wikis = [...new Set(rows.map((row) => row.wiki))];
  if (wikis.length > 1) throw new UserError('E_WIKI_AMBIGUOUS', `pages of several wikis are titled "${normalised}" (${wikis.join(', ')}): name one with --wiki`);
  // A title now is one page; a former title, or a label, may name several (two entities called "Springfield").
  const named = rows.filter((row) => row.former === first.former);
  if (new Set(named.map((row) => row.pageId)).size > 1) {
    const pages = [...new Map(named.map((row) => [row.pageId, row.title ?? `page ${row.pageId}`])).values()];
    throw new UserError('E_TITLE_AMBIGUOUS', `"${normalised}" is ${first.former === 1 ? 'a former title' : 'the English label'} of ${pages.length} pages (${pages.join(', ')}): name one by its title`);
  }
  return { wiki: first.wiki, pageId: first.pageId };
}

/**
 * A local BM25 index (MiniSearch's BM25+ ranking) over the pages a week collected: for each page, its
 * title, first paragraph and infobox values at its latest parsed revision before the week's end that
 * has a first paragraph (`RevisionReads.latestRevisions`). The offline stand-in for a web or wiki
 * search in the descriptiveness check.
 *
 * A search scores every page holding any of the query's terms, so a term found on most pages
 * ("the", "population" on a week of towns) cost a pass over the index per question, and a week's
 * check, whose questions and pages grow together, grew with their product. A question is searched
 * with its rarest terms, as many as hold together at most 2,000 pages (its rarest term always):
 * the terms left out are the ones BM25 weighs least, a search costs the same whatever the store,
 * and a small store is searched with every term (docs/ARCHITECTURE.md §12).
 */
import MiniSearch from 'minisearch';
import type { Store } from '../store/store.js';
import type { Window } from '../model.js';
import type { SearchBackend } from './searchBackend.js';

interface PageDocument {
  id: number;
  title: string;
  lead: string;
  infobox: string;
}

const FIELDS = ['title', 'lead', 'infobox'] as const;
/** The pages a search's terms may hold together: the bound on what one search costs. */
const SEARCHED_PAGES = 2000;

type Tokenize = (text: string) => string[];
type ProcessTerm = (term: string) => string | null | undefined | false;
const tokenize = MiniSearch.getDefault('tokenize') as Tokenize;
const processTerm = MiniSearch.getDefault('processTerm') as ProcessTerm;

/** The terms of a text as the index reads them. */
function termsOf(text: string): string[] {
  return tokenize(text).flatMap((token) => {
    const term = processTerm(token);
    return term ? [term] : [];
  });
}

export class LocalSearchIndex implements SearchBackend {
  readonly name = 'local-bm25';
  private readonly index: MiniSearch<PageDocument>;
  private readonly titles = new Map<number, string>();
  /** How many pages hold each term, in any field. */
  private readonly pagesWith = new Map<string, number>();

  constructor(documents: Iterable<PageDocument>) {
    this.index = new MiniSearch<PageDocument>({ fields: [...FIELDS], storeFields: [] });
    for (const document of documents) {
      this.titles.set(document.id, document.title);
      this.index.add(document);
      for (const term of new Set(FIELDS.flatMap((field) => termsOf(document[field])))) this.pagesWith.set(term, (this.pagesWith.get(term) ?? 0) + 1);
    }
  }

  /**
   * Every page a window collected, as of its latest parsed revision with a first paragraph before
   * the window's end: what the week saw, not what other weeks added to the store since, so a week's
   * checks are the same whatever ran before it.
   *
   * @param store the session's store.
   * @param wiki the wiki whose pages are indexed.
   * @param window the week whose collected pages are indexed.
   * @returns the index, built in memory.
   * @example const search = LocalSearchIndex.fromStore(context.store, 'enwiki', input.window);
   */
  static fromStore(store: Store, wiki: string, window: Window): LocalSearchIndex {
    const revisions = store.pages;
    return new LocalSearchIndex(
      revisions.latestRevisions(wiki, window).map((page) => ({
        id: page.pageId,
        title: page.title,
        lead: page.lead,
        infobox: revisions
          .infoboxes(wiki, page.pageId, page.revId)
          .flatMap((infobox) => infobox.fields.map(([, value]) => value))
          .join('\n'),
      })),
    );
  }

  get size(): number {
    return this.index.documentCount;
  }

  async topTitles(query: string, limit: number): Promise<string[]> {
    const searched = this.searchedTerms(query);
    return this.index
      .search(query, { boost: { title: 2 }, processTerm: (term) => {
        const processed = processTerm(term);
        return processed && searched.has(processed) ? processed : null;
      } })
      .slice(0, limit)
      .map((hit) => this.titles.get(hit.id as number) as string);
  }

  /** The query's rarest terms whose pages add up to at most SEARCHED_PAGES, and always its rarest one. */
  private searchedTerms(query: string): Set<string> {
    const pages = (term: string) => this.pagesWith.get(term) ?? 0;
    const kept = new Set<string>();
    let held = 0;
    for (const term of [...new Set(termsOf(query))].sort((a, b) => pages(a) - pages(b) || (a < b ? -1 : 1))) {
      if (kept.size > 0 && held + pages(term) > SEARCHED_PAGES) break;
      kept.add(term);
      held += pages(term);
    }
    return kept;
  }
}

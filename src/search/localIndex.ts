/**
 * A local BM25 index (MiniSearch's BM25+ ranking) over the pages in the store: for each page, its
 * title, first paragraph and infobox values at its latest parsed revision that has a first
 * paragraph. The offline stand-in for a web or wiki search in the descriptiveness check.
 */
import type { Database } from 'better-sqlite3';
import MiniSearch from 'minisearch';
import { RevisionReads } from '../store/revisionReads.js';
import type { SearchBackend } from './searchBackend.js';

interface PageDocument {
  id: number;
  title: string;
  lead: string;
  infobox: string;
}

export class LocalSearchIndex implements SearchBackend {
  readonly name = 'local-bm25';
  private readonly index: MiniSearch<PageDocument>;
  private readonly titles = new Map<number, string>();

  constructor(documents: Iterable<PageDocument>) {
    this.index = new MiniSearch<PageDocument>({ fields: ['title', 'lead', 'infobox'], storeFields: [] });
    for (const document of documents) {
      this.titles.set(document.id, document.title);
      this.index.add(document);
    }
  }

  /** Every page of a wiki in the store, as of its latest parsed revision with a first paragraph. */
  static fromStore(db: Database, wiki: string): LocalSearchIndex {
    const revisions = new RevisionReads(db);
    return new LocalSearchIndex(
      revisions.latestRevisions(wiki).map((page) => ({
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
    return this.index
      .search(query, { boost: { title: 2 } })
      .slice(0, limit)
      .map((hit) => this.titles.get(hit.id as number) as string);
  }
}

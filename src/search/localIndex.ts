/**
 * A local BM25 index (MiniSearch's BM25+ ranking) over the pages in the store: for each page, its
 * title, first paragraph and infobox values at its latest parsed revision that has a first
 * paragraph. The offline stand-in for a web or wiki search in the descriptiveness check.
 */
import type { Database } from 'better-sqlite3';
import MiniSearch from 'minisearch';
import { z } from 'zod';
import type { SearchBackend } from './searchBackend.js';

interface PageDocument {
  id: number;
  title: string;
  lead: string;
  infobox: string;
}

const FieldsJson = z.array(z.tuple([z.string(), z.string()]));

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
    const pages = db
      .prepare(
        `SELECT p.page_id AS pageId, p.title, r.rev_id AS revId, r.first_paragraph AS lead
         FROM pages p JOIN revisions r ON r.rev_id = (
           SELECT rev_id FROM revisions WHERE wiki = p.wiki AND page_id = p.page_id AND parsed = 1 AND first_paragraph IS NOT NULL
           ORDER BY timestamp DESC, rev_id DESC LIMIT 1) AND r.wiki = p.wiki
         WHERE p.wiki = ? AND p.namespace = 0 ORDER BY p.page_id`,
      )
      .all(wiki) as Array<{ pageId: number; title: string; revId: number; lead: string }>;
    const infoboxes = db.prepare('SELECT fields FROM infoboxes WHERE wiki = ? AND rev_id = ? ORDER BY position').pluck();
    return new LocalSearchIndex(
      pages.map((page) => ({
        id: page.pageId,
        title: page.title,
        lead: page.lead,
        infobox: (infoboxes.all(wiki, page.revId) as string[])
          .flatMap((fields) => FieldsJson.parse(JSON.parse(fields)).map(([, value]) => value))
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

/**
 * The wikis a store holds pages of, and where each one's articles are (docs/ARCHITECTURE.md §3):
 * recorded by the run that reads the wiki's source, read by a run given none.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';

/** Where each wiki's articles are (its article base URL), recorded by collect for the runs that give no source. */
export class WikiStore {
  private readonly upsert;
  private readonly selectBase;
  private readonly selectNames;

  constructor(db: Database) {
    this.upsert = db.prepare(
      'INSERT INTO wikis (wiki, article_base_url) VALUES (?, ?) ON CONFLICT (wiki) DO UPDATE SET article_base_url = excluded.article_base_url',
    );
    this.selectBase = db.prepare('SELECT article_base_url FROM wikis WHERE wiki = ?').pluck();
    this.selectNames = db.prepare('SELECT wiki FROM wikis UNION SELECT DISTINCT wiki FROM data_units ORDER BY wiki').pluck();
  }

  /**
   * The wikis the store holds weeks of, in name order: those whose source a run has read since the
   * store recorded it (migration 23), and those of its data units (a store made before it holds
   * its dump weeks under `dump`, which no run recorded).
   */
  names(): string[] {
    return z.array(z.string()).parse(this.selectNames.all());
  }

  /** Records where the wiki's articles are, replacing what an earlier run recorded. */
  recordArticleBase(wiki: string, articleBaseUrl: string): void {
    this.upsert.run(wiki, articleBaseUrl);
  }

  /** Where the wiki's articles are, as the last run that read its source recorded; undefined when none did. */
  articleBase(wiki: string): string | undefined {
    return z.string().optional().parse(this.selectBase.get(wiki));
  }
}

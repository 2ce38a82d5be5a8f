/** Snapshots and sentence labels in the store (schema version 4), through prepared statements only. */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { UserError } from '../errors.js';
import type { ArticleSentence } from '../text/articleText.js';
import type { ArticleLabels, LabelName, LabelStep } from '../labels/labeler.js';
import { sentenceHash } from '../text/normalise.js';
import type { SnapshotArticle } from '../sources/snapshotSources.js';

export interface SnapshotRecord {
  name: string;
  wiki: string;
  source: string;
  asOf: string | null;
}

export interface StoredArticle {
  pageId: number;
  title: string;
  revId: number;
  timestamp: string;
}

/** An old and a new article taken as versions of one another; old null when the article is new. */
export interface ArticlePair {
  newArticle: StoredArticle;
  oldArticle: StoredArticle | null;
}

export interface StoredLabel {
  title: string;
  side: 'new' | 'old';
  index: number;
  text: string;
  label: LabelName;
  oldIndices: number[];
  oldText: string | null;
  similarity: number | null;
  backend: string;
  step: LabelStep;
}

const IndicesJson = z.array(z.number().int());

export class SnapshotStore {
  constructor(private readonly db: Database) {}

  /** Creates the snapshot, or checks that an existing one of that name has the same origin (a rerun). */
  openSnapshot(record: SnapshotRecord): void {
    const existing = this.snapshot(record.name);
    if (existing && (existing.source !== record.source || existing.asOf !== record.asOf || existing.wiki !== record.wiki)) {
      throw new UserError(
        `snapshot "${record.name}" already exists from ${existing.source} as of ${existing.asOf ?? 'latest'}: choose another --name`,
      );
    }
    if (!existing) {
      this.db
        .prepare('INSERT INTO snapshots (name, wiki, source, as_of, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(record.name, record.wiki, record.source, record.asOf, new Date().toISOString());
    }
  }

  snapshot(name: string): SnapshotRecord | undefined {
    const row = this.db.prepare('SELECT name, wiki, source, as_of FROM snapshots WHERE name = ?').get(name) as
      | { name: string; wiki: string; source: string; as_of: string | null }
      | undefined;
    return row && { name: row.name, wiki: row.wiki, source: row.source, asOf: row.as_of };
  }

  requireSnapshot(name: string): SnapshotRecord {
    const found = this.snapshot(name);
    if (!found) throw new UserError(`no snapshot named "${name}": make it first with wikidelta snapshot --name ${name}`);
    return found;
  }

  hasArticle(snapshot: string, pageId: number): boolean {
    return this.db.prepare('SELECT 1 FROM snapshot_articles WHERE snapshot = ? AND page_id = ?').get(snapshot, pageId) !== undefined;
  }

  /** Stores one article and its sentences in one transaction (replacing an earlier copy). */
  storeArticle(snapshot: string, article: SnapshotArticle, sentences: ArticleSentence[]): void {
    const insertSentence = this.db.prepare(
      'INSERT INTO snapshot_sentences (snapshot, page_id, idx, paragraph, text, hash) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM snapshot_sentences WHERE snapshot = ? AND page_id = ?').run(snapshot, article.pageId);
      this.db
        .prepare('INSERT OR REPLACE INTO snapshot_articles (snapshot, page_id, title, rev_id, timestamp, sentence_count) VALUES (?, ?, ?, ?, ?, ?)')
        .run(snapshot, article.pageId, article.title, article.revId, article.timestamp, sentences.length);
      for (const sentence of sentences) {
        insertSentence.run(snapshot, article.pageId, sentence.index, sentence.paragraph, sentence.text, sentenceHash(sentence.text));
      }
    })();
  }

  articles(snapshot: string): StoredArticle[] {
    return this.db
      .prepare('SELECT page_id AS pageId, title, rev_id AS revId, timestamp FROM snapshot_articles WHERE snapshot = ? ORDER BY page_id')
      .all(snapshot) as StoredArticle[];
  }

  sentences(snapshot: string, pageId: number): string[] {
    return this.db
      .prepare('SELECT text FROM snapshot_sentences WHERE snapshot = ? AND page_id = ? ORDER BY idx')
      .pluck()
      .all(snapshot, pageId) as string[];
  }

  /**
   * Articles of the new snapshot with their old versions: by page id when both snapshots come from
   * the same wiki (titles change on moves, ids do not), else by title (ids differ between wikis).
   */
  pairs(oldName: string, newName: string): ArticlePair[] {
    const sameWiki = this.requireSnapshot(oldName).wiki === this.requireSnapshot(newName).wiki;
    const olds = this.articles(oldName);
    const byId = new Map(olds.map((article) => [article.pageId, article]));
    const byTitle = new Map(olds.map((article) => [article.title, article]));
    return this.articles(newName).map((newArticle) => ({
      newArticle,
      oldArticle: (sameWiki ? byId.get(newArticle.pageId) : byTitle.get(newArticle.title)) ?? null,
    }));
  }

  isLabeled(oldName: string, newName: string, newPageId: number): boolean {
    return (
      this.db.prepare('SELECT 1 FROM label_articles WHERE old_snapshot = ? AND new_snapshot = ? AND new_page_id = ?').get(oldName, newName, newPageId) !==
      undefined
    );
  }

  /** Stores an article's labels in one transaction, so a resumed run finds each article whole or absent. */
  storeLabels(oldName: string, newName: string, pair: ArticlePair, labels: ArticleLabels): void {
    const insert = this.db.prepare(
      `INSERT OR REPLACE INTO sentence_labels
         (old_snapshot, new_snapshot, new_page_id, side, idx, label, old_indices, similarity, nli, step, backend)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const pageId = pair.newArticle.pageId;
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT OR REPLACE INTO label_articles (old_snapshot, new_snapshot, new_page_id, old_page_id, title, embedded, nli_pairs)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(oldName, newName, pageId, pair.oldArticle?.pageId ?? null, pair.newArticle.title, labels.work.embedded, labels.work.nliPairs);
      for (const label of labels.sentences) {
        insert.run(oldName, newName, pageId, 'new', label.newIndex, label.label, JSON.stringify(label.oldIndices), label.similarity, label.nli && JSON.stringify(label.nli), label.step, label.backend);
      }
      for (const index of labels.deleted) insert.run(oldName, newName, pageId, 'old', index, 'deleted', '[]', null, null, 'no-counterpart', 'hash');
    })();
  }

  labelCounts(oldName: string, newName: string): Record<LabelName, number> {
    const counts: Record<LabelName, number> = { unchanged: 0, changed: 0, new: 0, undecided: 0, deleted: 0 };
    const rows = this.db
      .prepare('SELECT label, COUNT(*) AS n FROM sentence_labels WHERE old_snapshot = ? AND new_snapshot = ? GROUP BY label')
      .all(oldName, newName) as Array<{ label: LabelName; n: number }>;
    for (const row of rows) counts[row.label] = row.n;
    return counts;
  }

  /** Every stored label with the texts it refers to, article by article, new sentences first, then deleted old ones. */
  *labels(oldName: string, newName: string): Iterable<StoredLabel> {
    const articles = this.db
      .prepare('SELECT new_page_id, old_page_id, title FROM label_articles WHERE old_snapshot = ? AND new_snapshot = ? ORDER BY new_page_id')
      .all(oldName, newName) as Array<{ new_page_id: number; old_page_id: number | null; title: string }>;
    const rowsOf = this.db.prepare(
      `SELECT side, idx, label, old_indices, similarity, step, backend FROM sentence_labels
       WHERE old_snapshot = ? AND new_snapshot = ? AND new_page_id = ? ORDER BY side DESC, idx`,
    );
    for (const article of articles) {
      const newTexts = this.sentences(newName, article.new_page_id);
      const oldTexts = article.old_page_id === null ? [] : this.sentences(oldName, article.old_page_id);
      const rows = rowsOf.all(oldName, newName, article.new_page_id) as Array<{
        side: 'new' | 'old';
        idx: number;
        label: LabelName;
        old_indices: string;
        similarity: number | null;
        step: LabelStep;
        backend: string;
      }>;
      for (const row of rows) {
        const oldIndices = IndicesJson.parse(JSON.parse(row.old_indices));
        const text = (row.side === 'new' ? newTexts[row.idx] : oldTexts[row.idx]) ?? '';
        yield {
          title: article.title,
          side: row.side,
          index: row.idx,
          text,
          label: row.label,
          oldIndices,
          oldText: oldIndices.length > 0 ? oldIndices.map((i) => oldTexts[i] ?? '').join(' ') : null,
          similarity: row.similarity,
          backend: row.backend,
          step: row.step,
        };
      }
    }
  }
}

/**
 * Snapshots and sentence labels in the store (schema version 4), through statements prepared once
 * per repository; rows come back parsed into model records.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { Statements } from './statements.js';
import { UserError } from '../errors.js';
import type { LabeledPair, LabeledSentence } from '../model/growover.js';
import type { ArticleLabels, ArticlePair, ArticleSentence, LabelName, SnapshotRecord, StoredArticle, StoredLabel } from '../model/labels.js';
import { IndicesColumn, Texts } from './rows.js';

const SnapshotRow = z.object({ name: z.string(), wiki: z.string(), source: z.string(), as_of: z.string().nullable() });
const ArticleRow = z.object({ pageId: z.number().int(), title: z.string(), revId: z.number().int(), timestamp: z.string() });
const LabelNameColumn = z.enum(['unchanged', 'changed', 'new', 'undecided', 'deleted']);
const LabelCountRow = z.object({ label: LabelNameColumn, n: z.number().int() });
const LabeledPairRow = z.object({ newPageId: z.number().int(), oldPageId: z.number().int().nullable(), title: z.string() });
const SentenceRow = z.object({ index: z.number().int(), paragraph: z.number().int(), text: z.string() });
const NewLabelRow = z.object({ idx: z.number().int(), label: z.enum(['unchanged', 'changed', 'new', 'undecided']), old_indices: IndicesColumn });
const LabelRow = z.object({
  side: z.enum(['new', 'old']),
  idx: z.number().int(),
  label: LabelNameColumn,
  old_indices: IndicesColumn,
  similarity: z.number().nullable(),
  step: z.enum(['exact', 'moved', 'lexical', 'near-duplicate', 'span', 'nli', 'llm', 'no-counterpart', 'new-article']),
  backend: z.string(),
  evidence: z.string().nullable(),
});
const OptionalText = z.string().optional();
const TakenAtRow = z.object({ asOf: z.string().nullable(), newest: z.string().nullable() });

/** Monthly snapshots, their articles and sentences, and the sentence labels of each snapshot pair. */
export class SnapshotStore {
  private readonly insertSnapshot;
  private readonly selectSnapshot;
  private readonly selectTakenAt;
  private readonly selectArticle;
  private readonly insertSentence;
  private readonly deleteSentences;
  private readonly insertArticle;
  private readonly selectArticles;
  private readonly selectSentences;
  private readonly selectArticleSentences;
  private readonly selectSentenceText;
  private readonly selectArticleTitle;
  private readonly selectLabeled;
  private readonly insertLabelArticle;
  private readonly insertLabel;
  private readonly selectLabelCounts;
  private readonly selectLabelArticles;
  private readonly selectArticleLabels;
  private readonly selectNewLabels;

  private readonly statements: Statements;

  constructor(private readonly db: Database) {
    this.statements = new Statements(db);
    this.insertSnapshot = db.prepare('INSERT INTO snapshots (name, wiki, source, as_of, created_at) VALUES (?, ?, ?, ?, ?)');
    this.selectSnapshot = db.prepare('SELECT name, wiki, source, as_of FROM snapshots WHERE name = ?');
    this.selectTakenAt = db.prepare(
      'SELECT s.as_of AS asOf, (SELECT MAX(timestamp) FROM snapshot_articles a WHERE a.snapshot = s.name) AS newest FROM snapshots s WHERE s.name = ?',
    );
    this.selectArticle = db.prepare('SELECT 1 FROM snapshot_articles WHERE snapshot = ? AND page_id = ?');
    this.insertSentence = db.prepare("INSERT INTO snapshot_sentences (snapshot, page_id, idx, paragraph, text, hash) VALUES (?, ?, ?, ?, ?, '')");
    this.deleteSentences = db.prepare('DELETE FROM snapshot_sentences WHERE snapshot = ? AND page_id = ?');
    this.insertArticle = db.prepare(
      'INSERT OR REPLACE INTO snapshot_articles (snapshot, page_id, title, rev_id, timestamp, sentence_count) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.selectArticles = db.prepare('SELECT page_id AS pageId, title, rev_id AS revId, timestamp FROM snapshot_articles WHERE snapshot = ? ORDER BY page_id');
    this.selectSentences = db.prepare('SELECT text FROM snapshot_sentences WHERE snapshot = ? AND page_id = ? ORDER BY idx').pluck();
    this.selectArticleSentences = db.prepare('SELECT idx AS "index", paragraph, text FROM snapshot_sentences WHERE snapshot = ? AND page_id = ? ORDER BY idx');
    this.selectSentenceText = db.prepare('SELECT text FROM snapshot_sentences WHERE snapshot = ? AND page_id = ? AND idx = ?').pluck();
    this.selectArticleTitle = db.prepare('SELECT title FROM snapshot_articles WHERE snapshot = ? AND page_id = ?').pluck();
    this.selectLabeled = db.prepare('SELECT 1 FROM label_articles WHERE old_snapshot = ? AND new_snapshot = ? AND new_page_id = ?');
    this.insertLabelArticle = db.prepare(
      `INSERT OR REPLACE INTO label_articles (old_snapshot, new_snapshot, new_page_id, old_page_id, title, embedded, nli_pairs)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertLabel = db.prepare(
      `INSERT OR REPLACE INTO sentence_labels
         (old_snapshot, new_snapshot, new_page_id, side, idx, label, old_indices, similarity, nli, step, backend, evidence)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectLabelCounts = db.prepare('SELECT label, COUNT(*) AS n FROM sentence_labels WHERE old_snapshot = ? AND new_snapshot = ? GROUP BY label');
    this.selectLabelArticles = db.prepare(
      'SELECT new_page_id AS newPageId, old_page_id AS oldPageId, title FROM label_articles WHERE old_snapshot = ? AND new_snapshot = ? ORDER BY new_page_id',
    );
    this.selectArticleLabels = db.prepare(
      `SELECT side, idx, label, old_indices, similarity, step, backend, evidence FROM sentence_labels
       WHERE old_snapshot = ? AND new_snapshot = ? AND new_page_id = ? ORDER BY side DESC, idx`,
    );
    this.selectNewLabels = db.prepare(
      "SELECT idx, label, old_indices FROM sentence_labels WHERE old_snapshot = ? AND new_snapshot = ? AND new_page_id = ? AND side = 'new' ORDER BY idx",
    );
  }

  /**
   * Creates the snapshot, or checks that an existing one of that name has the same origin (a rerun).
   * One whose taking never finished (`unfinished`: its run stopped, on a broken dump say) is taken
   * again from the origin given: its articles are dropped, as a source of other bytes may hold others.
   *
   * @returns the origin the snapshot had before it was taken again, if it was
   * @throws UserError (`E_SNAPSHOT_EXISTS`) for a finished snapshot of that name from another origin
   */
  openSnapshot(record: SnapshotRecord, unfinished: (existing: SnapshotRecord) => boolean = () => false): SnapshotRecord | undefined {
    const existing = this.snapshot(record.name);
    if (!existing) {
      this.insertSnapshot.run(record.name, record.wiki, record.source, record.asOf, new Date().toISOString());
      return undefined;
    }
    if (existing.source === record.source && existing.asOf === record.asOf && existing.wiki === record.wiki) return undefined;
    if (!unfinished(existing)) {
      throw new UserError(
        'E_SNAPSHOT_EXISTS',
        `snapshot "${record.name}" already exists from ${existing.source} as of ${existing.asOf ?? 'latest'}: choose another --name`,
      );
    }
    this.db.transaction(() => {
      this.statements.get('DELETE FROM snapshot_sentences WHERE snapshot = ?').run(record.name);
      this.statements.get('DELETE FROM snapshot_articles WHERE snapshot = ?').run(record.name);
      this.statements.get('UPDATE snapshots SET wiki = ?, source = ?, as_of = ? WHERE name = ?').run(record.wiki, record.source, record.asOf, record.name);
    })();
    return existing;
  }

  /** The snapshot named `name`, or undefined. */
  snapshot(name: string): SnapshotRecord | undefined {
    const row = SnapshotRow.optional().parse(this.selectSnapshot.get(name));
    return row && { name: row.name, wiki: row.wiki, source: row.source, asOf: row.as_of };
  }

  /** Every snapshot's name, in name order (month names YYYY-MM sort by date). */
  snapshotNames(): string[] {
    return z.array(z.string()).parse(this.statements.get('SELECT name FROM snapshots ORDER BY name').pluck().all());
  }

  /** The snapshot named `name`; a UserError saying how to make it when there is none. */
  requireSnapshot(name: string): SnapshotRecord {
    const found = this.snapshot(name);
    if (!found) throw new UserError('E_SNAPSHOT_NOT_FOUND', `no snapshot named "${name}": make it first with wikidelta snapshot --name ${name}`);
    return found;
  }

  /** The instant the snapshot stands for: its as-of date, or for a snapshot of latest revisions its newest revision's time; empty for an unknown snapshot. */
  takenAt(name: string): string {
    const row = TakenAtRow.optional().parse(this.selectTakenAt.get(name));
    return row?.asOf ?? row?.newest ?? '';
  }

  /**
   * Refuses a pair whose old snapshot is not taken before the new one: labels, maintenance and
   * generation run forward in time, and a pair given backwards would rewrite an earlier month.
   */
  requireEarlier(oldName: string, newName: string): void {
    this.requireSnapshot(oldName);
    this.requireSnapshot(newName);
    const [oldAt, newAt] = [this.takenAt(oldName), this.takenAt(newName)];
    if (Date.parse(oldAt) >= Date.parse(newAt)) {
      throw new UserError(
        'E_DATE_RANGE_INVALID',
        `--old ${oldName} (as of ${oldAt}) is not earlier than --new ${newName} (as of ${newAt}): give the earlier snapshot as --old`,
      );
    }
  }

  /** Whether the snapshot holds the article. */
  hasArticle(snapshot: string, pageId: number): boolean {
    return this.selectArticle.get(snapshot, pageId) !== undefined;
  }

  /**
   * Stores one article and its sentences in one transaction (replacing an earlier copy). The
   * sentences' `hash` column (migration 4) is left empty: nothing reads it, and the labeler hashes
   * both months' sentences as it labels them, so both go through the normaliser of the day rather
   * than an older snapshot's (docs/ARCHITECTURE.md §7.3).
   */
  storeArticle(snapshot: string, article: StoredArticle, sentences: readonly ArticleSentence[]): void {
    this.db.transaction(() => {
      this.deleteSentences.run(snapshot, article.pageId);
      this.insertArticle.run(snapshot, article.pageId, article.title, article.revId, article.timestamp, sentences.length);
      for (const sentence of sentences) {
        this.insertSentence.run(snapshot, article.pageId, sentence.index, sentence.paragraph, sentence.text);
      }
    })();
  }

  /** The snapshot's articles in page-id order. */
  articles(snapshot: string): StoredArticle[] {
    return this.selectArticles.all(snapshot).map((row) => ArticleRow.parse(row));
  }

  /** An article's sentences by index: indices run from 0 without gaps, as the sentence cut numbers them. */
  sentences(snapshot: string, pageId: number): string[] {
    return Texts.parse(this.selectSentences.all(snapshot, pageId));
  }

  /** One sentence of an article, or "" when the snapshot has no such sentence. */
  sentenceText(snapshot: string, pageId: number, index: number): string {
    return OptionalText.parse(this.selectSentenceText.get(snapshot, pageId, index)) ?? '';
  }

  /** An article's title in the snapshot, or "" when the snapshot lacks the article. */
  articleTitle(snapshot: string, pageId: number): string {
    return OptionalText.parse(this.selectArticleTitle.get(snapshot, pageId)) ?? '';
  }

  /** An article's sentences with their paragraph numbers, in index order. */
  articleSentences(snapshot: string, pageId: number): ArticleSentence[] {
    return this.selectArticleSentences.all(snapshot, pageId).map((row) => SentenceRow.parse(row));
  }

  /** The labeled article pairs of two snapshots (the label stage's record of what it paired), by new page id. */
  labeledPairs(oldName: string, newName: string): LabeledPair[] {
    return this.selectLabelArticles.all(oldName, newName).map((row) => LabeledPairRow.parse(row));
  }

  /** The new version's sentence labels of one article. */
  newLabels(oldName: string, newName: string, newPageId: number): LabeledSentence[] {
    return this.selectNewLabels.all(oldName, newName, newPageId).map((raw) => {
      const row = NewLabelRow.parse(raw);
      return { index: row.idx, label: row.label, oldIndices: row.old_indices };
    });
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

  /** Whether the new article's sentences are labeled for this pair of snapshots. */
  isLabeled(oldName: string, newName: string, newPageId: number): boolean {
    return this.selectLabeled.get(oldName, newName, newPageId) !== undefined;
  }

  /** Removes every label of the pair, in one transaction: a relabeling with other models starts from none. */
  clearLabels(oldName: string, newName: string): void {
    this.db.transaction(() => {
      this.statements.get('DELETE FROM sentence_labels WHERE old_snapshot = ? AND new_snapshot = ?').run(oldName, newName);
      this.statements.get('DELETE FROM label_articles WHERE old_snapshot = ? AND new_snapshot = ?').run(oldName, newName);
    })();
  }

  /** Stores an article's labels in one transaction, so a resumed run finds each article whole or absent. */
  storeLabels(oldName: string, newName: string, pair: ArticlePair, labels: ArticleLabels): void {
    const pageId = pair.newArticle.pageId;
    this.db.transaction(() => {
      this.insertLabelArticle.run(oldName, newName, pageId, pair.oldArticle?.pageId ?? null, pair.newArticle.title, labels.work.embedded, labels.work.nliPairs);
      for (const label of labels.sentences) {
        this.insertLabel.run(oldName, newName, pageId, 'new', label.newIndex, label.label, JSON.stringify(label.oldIndices), label.similarity, label.nli && JSON.stringify(label.nli), label.step, label.backend, label.evidence);
      }
      for (const index of labels.deleted) this.insertLabel.run(oldName, newName, pageId, 'old', index, 'deleted', '[]', null, null, 'no-counterpart', 'hash', null);
    })();
  }

  /** How many sentences of the pair carry each label (zero for a label none carries). */
  labelCounts(oldName: string, newName: string): Record<LabelName, number> {
    const counts: Record<LabelName, number> = { unchanged: 0, changed: 0, new: 0, undecided: 0, deleted: 0 };
    for (const raw of this.selectLabelCounts.all(oldName, newName)) {
      const row = LabelCountRow.parse(raw);
      counts[row.label] = row.n;
    }
    return counts;
  }

  /** Every stored label with the texts it refers to, article by article, new sentences first, then deleted old ones. */
  *labels(oldName: string, newName: string): Iterable<StoredLabel> {
    for (const article of this.labeledPairs(oldName, newName)) {
      const newTexts = this.sentences(newName, article.newPageId);
      const oldTexts = article.oldPageId === null ? [] : this.sentences(oldName, article.oldPageId);
      for (const raw of this.selectArticleLabels.all(oldName, newName, article.newPageId)) {
        const row = LabelRow.parse(raw);
        const oldIndices = row.old_indices;
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
          evidence: row.evidence,
        };
      }
    }
  }
}

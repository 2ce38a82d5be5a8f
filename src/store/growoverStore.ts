/**
 * GrowOVER items in the store (schema version 5), through prepared statements only. Each article's
 * work of a stage (its kept and retired items, or its generated items and rejects) is written in one
 * transaction together with the article's done marker, so a resumed run finds it whole or absent.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import type { Provenance } from '../model.js';
import type { ArticleSentence } from '../text/articleText.js';
import type { SentenceLabelName } from '../labels/labeler.js';
import type { LabeledSentence } from '../growover/maintenance.js';

export type QaType = 'initial' | 'new' | 'changed';
export type TurnType = 'initial' | 'unchanged' | 'new' | 'changed';
export type ItemKind = 'qa' | 'turn';
export type GrowoverStage = 'maintain' | 'generate';

export interface QaItem {
  id: string;
  type: QaType;
  question: string;
  answer: string;
  /** CHANGED items: the answer of the old wording, and that wording. */
  oldAnswer: string | null;
  oldText: string | null;
  evidence: number[];
  provenance: Provenance;
}

export interface DialogueItem {
  id: string;
  type: 'initial' | 'new';
  paragraph: number;
  provenance: Provenance;
  turns: Array<{ user: string; expert: string; type: TurnType; evidence: number }>;
}

export interface Reject {
  id: string;
  kind: 'qa' | 'dialogue';
  type: string;
  reason: string;
  reply: unknown;
  provenance: Provenance;
}

/** An item (QA id, or "dialogue id#turn") with its evidence in some snapshot. */
export interface EvidenceState {
  itemId: string;
  kind: ItemKind;
  indices: number[];
}

/** An active item as maintenance sees it: with its answer when it is a QA item. */
export interface ActiveItem extends EvidenceState {
  answer: string | null;
}

export interface ArticleRef {
  snapshot: string;
  month: string;
  pageId: number;
  title: string;
}

export interface LabeledPair {
  newPageId: number;
  oldPageId: number | null;
  title: string;
}

/** Evidence as stored: a JSON array of sentence indices. */
export const EvidenceIndices = z.array(z.number().int());

export function turnItemId(dialogueId: string, turn: number): string {
  return `${dialogueId}#${turn}`;
}

export class GrowoverStore {
  constructor(private readonly db: Database) {}

  /** The snapshot's month (YYYY-MM): of its date, or for a snapshot of latest revisions, of its newest revision. */
  month(snapshot: string): string {
    const row = this.db
      .prepare('SELECT s.as_of AS asOf, (SELECT MAX(timestamp) FROM snapshot_articles a WHERE a.snapshot = s.name) AS newest FROM snapshots s WHERE s.name = ?')
      .get(snapshot) as { asOf: string | null; newest: string | null } | undefined;
    return (row?.asOf ?? row?.newest ?? '').slice(0, 7);
  }

  /** The article's sentences with their paragraph numbers, in index order. */
  sentences(snapshot: string, pageId: number): ArticleSentence[] {
    return this.db
      .prepare('SELECT idx AS "index", paragraph, text FROM snapshot_sentences WHERE snapshot = ? AND page_id = ? ORDER BY idx')
      .all(snapshot, pageId) as ArticleSentence[];
  }

  /** The labeled article pairs of two snapshots (the label stage's record of what it paired). */
  labeledPairs(oldName: string, newName: string): LabeledPair[] {
    return this.db
      .prepare('SELECT new_page_id AS newPageId, old_page_id AS oldPageId, title FROM label_articles WHERE old_snapshot = ? AND new_snapshot = ? ORDER BY new_page_id')
      .all(oldName, newName) as LabeledPair[];
  }

  /** The new version's sentence labels of one article. */
  labels(oldName: string, newName: string, newPageId: number): LabeledSentence[] {
    const rows = this.db
      .prepare(
        "SELECT idx, label, old_indices FROM sentence_labels WHERE old_snapshot = ? AND new_snapshot = ? AND new_page_id = ? AND side = 'new' ORDER BY idx",
      )
      .all(oldName, newName, newPageId) as Array<{ idx: number; label: SentenceLabelName; old_indices: string }>;
    return rows.map((row) => ({ index: row.idx, label: row.label, oldIndices: EvidenceIndices.parse(JSON.parse(row.old_indices)) }));
  }

  isDone(snapshot: string, pageId: number, stage: GrowoverStage): boolean {
    return this.db.prepare('SELECT 1 FROM growover_done WHERE snapshot = ? AND page_id = ? AND stage = ?').get(snapshot, pageId, stage) !== undefined;
  }

  /** Items active in the snapshot for the article, with their evidence there. */
  evidenceIn(snapshot: string, pageId: number): ActiveItem[] {
    const rows = this.db
      .prepare(
        `SELECT e.item_id AS itemId, e.kind, e.indices, q.answer FROM growover_evidence e LEFT JOIN growover_qa q ON q.id = e.item_id
         WHERE e.snapshot = ? AND e.page_id = ? ORDER BY e.item_id`,
      )
      .all(snapshot, pageId) as Array<{ itemId: string; kind: ItemKind; indices: string; answer: string | null }>;
    return rows.map((row) => ({ ...row, indices: EvidenceIndices.parse(JSON.parse(row.indices)) }));
  }

  /** Records an article's maintenance: kept items get their evidence in the new snapshot, the others retire there. */
  saveMaintenance(article: ArticleRef, kept: EvidenceState[], retired: Array<{ itemId: string; kind: ItemKind; reason: string }>): void {
    const state = this.evidenceStatement();
    const retireQa = this.db.prepare(
      "UPDATE growover_qa SET status = 'retired', retired_snapshot = ?, retired_reason = ? WHERE id = ? AND status = 'active'",
    );
    const retireTurn = this.db.prepare(
      "UPDATE growover_turns SET status = 'retired', retired_snapshot = ?, retired_reason = ? WHERE dialogue_id = ? AND turn = ? AND status = 'active'",
    );
    this.db.transaction(() => {
      for (const item of kept) state.run(item.itemId, article.snapshot, item.kind, article.pageId, 'unchanged', JSON.stringify(item.indices));
      for (const item of retired) {
        if (item.kind === 'qa') {
          retireQa.run(article.snapshot, item.reason, item.itemId);
        } else {
          const at = item.itemId.lastIndexOf('#');
          retireTurn.run(article.snapshot, item.reason, item.itemId.slice(0, at), Number(item.itemId.slice(at + 1)));
        }
      }
      this.markDone(article, 'maintain');
    })();
  }

  /** Stores an article's generated items and rejects (replays change nothing: ids are natural keys). */
  saveGenerated(article: ArticleRef, generated: { qa: QaItem[]; dialogues: DialogueItem[]; rejects: Reject[] }): void {
    const state = this.evidenceStatement();
    const qa = this.db.prepare(
      `INSERT OR IGNORE INTO growover_qa (id, snapshot, month, page_id, title, type, question, answer, old_answer, old_text, status,
         prompt, prompt_version, provider, model, seed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)`,
    );
    const dialogue = this.db.prepare(
      `INSERT OR IGNORE INTO growover_dialogues (id, snapshot, month, page_id, title, type, paragraph, prompt, prompt_version, provider, model, seed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const turn = this.db.prepare(
      "INSERT OR IGNORE INTO growover_turns (dialogue_id, turn, user_text, expert_text, type, status) VALUES (?, ?, ?, ?, ?, 'active')",
    );
    const reject = this.db.prepare(
      `INSERT OR IGNORE INTO growover_rejects (id, snapshot, page_id, title, kind, type, reason, reply, prompt, prompt_version, provider, model, seed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const { snapshot, month, pageId, title } = article;
    this.db.transaction(() => {
      for (const item of generated.qa) {
        const p = item.provenance;
        qa.run(item.id, snapshot, month, pageId, title, item.type, item.question, item.answer, item.oldAnswer, item.oldText, p.prompt, p.promptVersion, p.provider, p.model, p.seed);
        state.run(item.id, snapshot, 'qa', pageId, item.type, JSON.stringify(item.evidence));
      }
      for (const item of generated.dialogues) {
        const p = item.provenance;
        dialogue.run(item.id, snapshot, month, pageId, title, item.type, item.paragraph, p.prompt, p.promptVersion, p.provider, p.model, p.seed);
        item.turns.forEach((t, number) => {
          turn.run(item.id, number, t.user, t.expert, t.type);
          state.run(turnItemId(item.id, number), snapshot, 'turn', pageId, t.type, JSON.stringify([t.evidence]));
        });
      }
      for (const item of generated.rejects) {
        const p = item.provenance;
        reject.run(item.id, snapshot, pageId, title, item.kind, item.type, item.reason, JSON.stringify(item.reply ?? null), p.prompt, p.promptVersion, p.provider, p.model, p.seed);
      }
      this.markDone(article, 'generate');
    })();
  }

  private evidenceStatement() {
    return this.db.prepare('INSERT OR IGNORE INTO growover_evidence (item_id, snapshot, kind, page_id, type, indices) VALUES (?, ?, ?, ?, ?, ?)');
  }

  private markDone(article: ArticleRef, stage: GrowoverStage): void {
    this.db.prepare('INSERT OR IGNORE INTO growover_done (snapshot, page_id, stage) VALUES (?, ?, ?)').run(article.snapshot, article.pageId, stage);
  }
}

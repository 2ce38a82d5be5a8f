/**
 * GrowOVER items in the store (schema version 5), through statements prepared once per repository.
 * Each article's work of a stage (its kept and retired items, or its generated items and rejects) is
 * written in one transaction together with the article's done marker, so a resumed run finds it
 * whole or absent. Reads come back as model records, every row parsed.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { UserError } from '../errors.js';
import type {
  ActiveItem,
  ArticleQaAt,
  ArticleRef,
  DialogueItem,
  DialogueRecord,
  EvidenceState,
  GrowoverStage,
  ItemKind,
  ItemState,
  LabeledPair,
  LabeledSentence,
  QaItem,
  QaRecord,
  Reject,
  RejectRecord,
  TurnRecord,
  TurnType,
} from '../model/growover.js';
import { turnItemId } from '../model/growover.js';
import type { ArticleSentence } from '../model/labels.js';
import { SnapshotStore } from './snapshotStore.js';
import { Statements } from './statements.js';
import { Count, IndicesColumn, jsonColumn, ProvenanceColumns, provenanceOf, Texts } from './rows.js';

/** A snapshot's articles, and how many of them its item generation has not done. */
const ArticleProgressRow = z.object({ articles: z.number().int(), undone: z.number().int() });
const TurnTypeColumn = z.enum(['initial', 'unchanged', 'new', 'changed']);
const StatusColumn = z.enum(['active', 'retired']);

const ActiveItemRow = z.object({ itemId: z.string(), kind: z.enum(['qa', 'turn']), indices: IndicesColumn, answer: z.string().nullable() });
/** An item's evidence columns in the snapshot read for, all null when it is retired there. */
const NowColumns = { now_type: TurnTypeColumn.nullable(), now_page: z.number().int().nullable(), indices: IndicesColumn.nullable() };
const QaRow = z.object({
  id: z.string(),
  snapshot: z.string(),
  month: z.string(),
  page_id: z.number().int(),
  type: z.enum(['initial', 'new', 'changed']),
  question: z.string(),
  answer: z.string(),
  old_answer: z.string().nullable(),
  old_text: z.string().nullable(),
  status: StatusColumn,
  retired_snapshot: z.string().nullable(),
  retired_reason: z.string().nullable(),
  ...ProvenanceColumns,
  ...NowColumns,
});
const TurnRow = z.object({
  dialogue_id: z.string(),
  turn: z.number().int(),
  user_text: z.string(),
  expert_text: z.string(),
  type: TurnTypeColumn,
  status: StatusColumn,
  retired_snapshot: z.string().nullable(),
  retired_reason: z.string().nullable(),
  ...NowColumns,
});
const DialogueRow = z.object({
  id: z.string(),
  snapshot: z.string(),
  month: z.string(),
  page_id: z.number().int(),
  type: z.enum(['initial', 'new']),
  paragraph: z.number().int(),
  ...ProvenanceColumns,
});
const RejectRow = z.object({
  id: z.string(),
  snapshot: z.string(),
  page_id: z.number().int(),
  title: z.string(),
  kind: z.enum(['qa', 'dialogue']),
  type: z.string(),
  reason: z.string(),
  reply: jsonColumn(z.unknown()).nullable(),
  ...ProvenanceColumns,
});
const TypeCountRow = z.object({ type: TurnTypeColumn, n: z.number().int() });
const ArticleQaRow = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  old_answer: z.string().nullable(),
  type: z.string(),
  indices: IndicesColumn.nullable(),
  retired_reason: z.string().nullable(),
});

const KindCountRow = z.object({ kind: z.enum(['qa', 'turn']), n: z.number().int() });
const LaterSnapshotRow = z.object({ name: z.string(), done: z.number().int() });

/** The ids of the items the snapshot's generate made (QA ids and "dialogue id#turn"), as a subquery on @snapshot. */
const MADE_IN = `SELECT id FROM growover_qa WHERE snapshot = @snapshot
  UNION ALL SELECT t.dialogue_id || '#' || t.turn FROM growover_turns t JOIN growover_dialogues d ON d.id = t.dialogue_id WHERE d.snapshot = @snapshot`;

/** What each stage stored for a snapshot, removed by `clearStage`: statements on @snapshot, run in this order. */
const STAGE_RESULTS: Record<GrowoverStage, readonly string[]> = {
  maintain: [
    `DELETE FROM growover_evidence WHERE snapshot = @snapshot AND item_id NOT IN (${MADE_IN})`,
    "UPDATE growover_qa SET status = 'active', retired_snapshot = NULL, retired_reason = NULL WHERE retired_snapshot = @snapshot",
    "UPDATE growover_turns SET status = 'active', retired_snapshot = NULL, retired_reason = NULL WHERE retired_snapshot = @snapshot",
    "DELETE FROM growover_done WHERE snapshot = @snapshot AND stage = 'maintain'",
  ],
  generate: [
    `DELETE FROM growover_evidence WHERE item_id IN (${MADE_IN})`,
    'DELETE FROM growover_turns WHERE dialogue_id IN (SELECT id FROM growover_dialogues WHERE snapshot = @snapshot)',
    'DELETE FROM growover_dialogues WHERE snapshot = @snapshot',
    'DELETE FROM growover_qa WHERE snapshot = @snapshot',
    'DELETE FROM growover_rejects WHERE snapshot = @snapshot',
    "DELETE FROM growover_done WHERE snapshot = @snapshot AND stage = 'generate'",
  ],
};

function stateOf(row: z.infer<z.ZodObject<typeof NowColumns>>): ItemState | null {
  if (row.now_type === null || row.now_page === null || row.indices === null) return null;
  return { type: row.now_type, pageId: row.now_page, indices: row.indices };
}

/** GrowOVER QA items and dialogues by snapshot, with the evidence they rest on and why each was kept, retired or added. */
export class GrowoverStore {
  private readonly snapshots: SnapshotStore;
  private readonly selectDone;
  private readonly selectEvidence;
  private readonly insertEvidence;
  private readonly retireQa;
  private readonly retireTurn;
  private readonly insertQa;
  private readonly insertDialogue;
  private readonly insertTurn;
  private readonly insertReject;
  private readonly insertDone;
  private readonly selectQaAt;
  private readonly selectTurnsAt;
  private readonly selectDialogues;
  private readonly selectRejects;
  private readonly selectTurnRetirements;
  private readonly selectSnapshotsWithItems;
  private readonly selectEvidenceTypes;
  private readonly countRetiredQa;
  private readonly countRetiredTurns;
  private readonly selectFeaturedArticle;
  private readonly selectQaTitle;
  private readonly selectArticleQaAt;

  private readonly statements: Statements;

  constructor(private readonly db: Database) {
    this.snapshots = new SnapshotStore(db);
    this.statements = new Statements(db);
    this.selectDone = db.prepare('SELECT 1 FROM growover_done WHERE snapshot = ? AND page_id = ? AND stage = ?');
    this.selectEvidence = db.prepare(
      `SELECT e.item_id AS itemId, e.kind, e.indices, q.answer FROM growover_evidence e LEFT JOIN growover_qa q ON q.id = e.item_id
       WHERE e.snapshot = ? AND e.page_id = ? ORDER BY e.item_id`,
    );
    this.insertEvidence = db.prepare(
      'INSERT OR IGNORE INTO growover_evidence (item_id, snapshot, kind, page_id, type, indices) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.retireQa = db.prepare(
      "UPDATE growover_qa SET status = 'retired', retired_snapshot = ?, retired_reason = ? WHERE id = ? AND status = 'active'",
    );
    this.retireTurn = db.prepare(
      "UPDATE growover_turns SET status = 'retired', retired_snapshot = ?, retired_reason = ? WHERE dialogue_id = ? AND turn = ? AND status = 'active'",
    );
    this.insertQa = db.prepare(
      `INSERT OR IGNORE INTO growover_qa (id, snapshot, month, page_id, title, type, question, answer, old_answer, old_text, status,
         prompt, prompt_version, provider, model, seed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)`,
    );
    this.insertDialogue = db.prepare(
      `INSERT OR IGNORE INTO growover_dialogues (id, snapshot, month, page_id, title, type, paragraph, prompt, prompt_version, provider, model, seed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertTurn = db.prepare(
      "INSERT OR IGNORE INTO growover_turns (dialogue_id, turn, user_text, expert_text, type, status) VALUES (?, ?, ?, ?, ?, 'active')",
    );
    this.insertReject = db.prepare(
      `INSERT OR IGNORE INTO growover_rejects (id, snapshot, page_id, title, kind, type, reason, reply, prompt, prompt_version, provider, model, seed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertDone = db.prepare('INSERT OR IGNORE INTO growover_done (snapshot, page_id, stage) VALUES (?, ?, ?)');
    this.selectQaAt = db.prepare(
      `SELECT q.id, q.snapshot, q.month, q.page_id, q.type, q.question, q.answer, q.old_answer, q.old_text, q.status, q.retired_snapshot,
              q.retired_reason, q.prompt, q.prompt_version, q.provider, q.model, q.seed,
              e.type AS now_type, e.page_id AS now_page, e.indices
       FROM growover_qa q
       LEFT JOIN growover_evidence e ON e.item_id = q.id AND e.snapshot = ?
       WHERE e.item_id IS NOT NULL OR q.retired_snapshot = ? ORDER BY q.id`,
    );
    this.selectTurnsAt = db.prepare(
      `SELECT t.dialogue_id, t.turn, t.user_text, t.expert_text, t.type, t.status, t.retired_snapshot, t.retired_reason,
              e.type AS now_type, e.page_id AS now_page, e.indices
       FROM growover_turns t
       LEFT JOIN growover_evidence e ON e.item_id = t.dialogue_id || '#' || t.turn AND e.snapshot = ?
       WHERE e.item_id IS NOT NULL OR t.retired_snapshot = ? ORDER BY t.dialogue_id, t.turn`,
    );
    this.selectDialogues = db.prepare(
      'SELECT id, snapshot, month, page_id, type, paragraph, prompt, prompt_version, provider, model, seed FROM growover_dialogues ORDER BY id',
    );
    this.selectRejects = db.prepare(
      `SELECT id, snapshot, page_id, title, kind, type, reason, reply, prompt, prompt_version, provider, model, seed
       FROM growover_rejects WHERE snapshot = ? ORDER BY id`,
    );
    this.selectTurnRetirements = db
      .prepare('SELECT DISTINCT retired_snapshot FROM growover_turns WHERE dialogue_id = ? AND retired_snapshot IS NOT NULL')
      .pluck();
    this.selectSnapshotsWithItems = db
      .prepare(
        `SELECT s.name FROM snapshots s
         WHERE COALESCE(s.as_of, s.name) <= ? AND (EXISTS (SELECT 1 FROM growover_evidence e WHERE e.snapshot = s.name)
            OR EXISTS (SELECT 1 FROM growover_qa q WHERE q.retired_snapshot = s.name)
            OR EXISTS (SELECT 1 FROM growover_turns t WHERE t.retired_snapshot = s.name))
         ORDER BY COALESCE(s.as_of, s.name), s.name`,
      )
      .pluck();
    this.selectEvidenceTypes = db.prepare('SELECT type, COUNT(*) AS n FROM growover_evidence WHERE snapshot = ? AND kind = ? GROUP BY type');
    this.countRetiredQa = db.prepare('SELECT COUNT(*) FROM growover_qa WHERE retired_snapshot = ?').pluck();
    this.countRetiredTurns = db.prepare('SELECT COUNT(*) FROM growover_turns WHERE retired_snapshot = ?').pluck();
    this.selectFeaturedArticle = db
      .prepare(
        `SELECT page_id FROM growover_qa GROUP BY page_id
         ORDER BY MAX(type = 'changed') DESC, MAX(status = 'retired') DESC, COUNT(*) DESC, page_id LIMIT 1`,
      )
      .pluck();
    this.selectQaTitle = db.prepare('SELECT title FROM growover_qa WHERE page_id = ? LIMIT 1').pluck();
    this.selectArticleQaAt = db.prepare(
      `SELECT q.id, q.question, q.answer, q.old_answer, e.type, e.indices, NULL AS retired_reason
       FROM growover_evidence e JOIN growover_qa q ON q.id = e.item_id WHERE e.snapshot = ? AND e.page_id = ?
       UNION ALL
       SELECT q.id, q.question, q.answer, q.old_answer, 'retired', NULL, q.retired_reason
       FROM growover_qa q WHERE q.retired_snapshot = ? AND q.page_id = ?
       ORDER BY 1`,
    );
  }

  /** The snapshot's month (YYYY-MM): of its date, or for a snapshot of latest revisions, of its newest revision. */
  month(snapshot: string): string {
    return this.date(snapshot).slice(0, 7);
  }

  /** The snapshot's day (YYYY-MM-DD), as its month is taken; empty for an unknown snapshot. */
  date(snapshot: string): string {
    return this.snapshots.takenAt(snapshot).slice(0, 10);
  }

  /** The article's sentences with their paragraph numbers, in index order (read by the snapshot store). */
  sentences(snapshot: string, pageId: number): ArticleSentence[] {
    return this.snapshots.articleSentences(snapshot, pageId);
  }

  /** The labeled article pairs of two snapshots (the label stage's record of what it paired). */
  labeledPairs(oldName: string, newName: string): LabeledPair[] {
    return this.snapshots.labeledPairs(oldName, newName);
  }

  /** The new version's sentence labels of one article. */
  labels(oldName: string, newName: string, newPageId: number): LabeledSentence[] {
    return this.snapshots.newLabels(oldName, newName, newPageId);
  }

  /** Whether the stage's work on the page is recorded done for the snapshot (a killed run resumes after it). */
  isDone(snapshot: string, pageId: number, stage: GrowoverStage): boolean {
    return this.selectDone.get(snapshot, pageId, stage) !== undefined;
  }

  /**
   * Refuses (E_PREREQUISITE_MISSING) the items of a snapshot whose monthly run stopped part way: it holds
   * items (those kept from the month before, or some articles' new ones) while some of its articles are
   * not generated yet, so they are only part of the month's. Whatever reads a month's items (its release,
   * scores, baselines, audits) takes them whole or not at all; a snapshot without any item is its
   * caller's to name (a month not run yet, or cleared).
   *
   * @param rerun - the command that finishes the month (`monthlyCommandFor`), asked for the refusal's line only
   */
  requireWholeItems(snapshot: string, rerun: () => string): void {
    const sql = `SELECT COUNT(*) AS articles,
        COALESCE(SUM(NOT EXISTS (SELECT 1 FROM growover_done d WHERE d.snapshot = a.snapshot AND d.page_id = a.page_id AND d.stage = 'generate')), 0) AS undone
      FROM snapshot_articles a WHERE a.snapshot = ?`;
    const { articles, undone } = ArticleProgressRow.parse(this.statements.get(sql).get(snapshot));
    if (undone === 0 || !this.holdsItems(snapshot)) return;
    throw new UserError(
      'E_PREREQUISITE_MISSING',
      `the GrowOVER items of snapshot "${snapshot}" are incomplete (${undone} of ${articles} articles not generated yet, its monthly run did not finish): run ${rerun()} again first`,
    );
  }

  /** Whether any item is active in the snapshot or retired there. */
  private holdsItems(snapshot: string): boolean {
    const sql = `SELECT EXISTS (SELECT 1 FROM growover_evidence WHERE snapshot = @snapshot)
      OR EXISTS (SELECT 1 FROM growover_qa WHERE retired_snapshot = @snapshot)
      OR EXISTS (SELECT 1 FROM growover_turns WHERE retired_snapshot = @snapshot)`;
    return this.statements.get(sql).pluck().get({ snapshot }) === 1;
  }

  /** Items active in the snapshot for the article, with their evidence there. */
  evidenceIn(snapshot: string, pageId: number): ActiveItem[] {
    return this.selectEvidence.all(snapshot, pageId).map((row) => ActiveItemRow.parse(row));
  }

  /** Records an article's maintenance: kept items get their evidence in the new snapshot, the others retire there. */
  saveMaintenance(article: ArticleRef, kept: EvidenceState[], retired: Array<{ itemId: string; kind: ItemKind; reason: string }>): void {
    this.db.transaction(() => {
      for (const item of kept) this.insertEvidence.run(item.itemId, article.snapshot, item.kind, article.pageId, 'unchanged', JSON.stringify(item.indices));
      for (const item of retired) {
        if (item.kind === 'qa') {
          this.retireQa.run(article.snapshot, item.reason, item.itemId);
        } else {
          const at = item.itemId.lastIndexOf('#');
          this.retireTurn.run(article.snapshot, item.reason, item.itemId.slice(0, at), Number(item.itemId.slice(at + 1)));
        }
      }
      this.insertDone.run(article.snapshot, article.pageId, 'maintain');
    })();
  }

  /** Stores an article's generated items and rejects (replays change nothing: ids are natural keys). */
  saveGenerated(article: ArticleRef, generated: { qa: QaItem[]; dialogues: DialogueItem[]; rejects: Reject[] }): void {
    const { snapshot, month, pageId, title } = article;
    this.db.transaction(() => {
      for (const item of generated.qa) {
        const p = item.provenance;
        this.insertQa.run(item.id, snapshot, month, pageId, title, item.type, item.question, item.answer, item.oldAnswer, item.oldText, p.prompt, p.promptVersion, p.provider, p.model, p.seed);
        this.insertEvidence.run(item.id, snapshot, 'qa', pageId, item.type, JSON.stringify(item.evidence));
      }
      for (const item of generated.dialogues) {
        const p = item.provenance;
        this.insertDialogue.run(item.id, snapshot, month, pageId, title, item.type, item.paragraph, p.prompt, p.promptVersion, p.provider, p.model, p.seed);
        item.turns.forEach((t, number) => {
          this.insertTurn.run(item.id, number, t.user, t.expert, t.type);
          this.insertEvidence.run(turnItemId(item.id, number), snapshot, 'turn', pageId, t.type, JSON.stringify([t.evidence]));
        });
      }
      for (const item of generated.rejects) {
        const p = item.provenance;
        this.insertReject.run(item.id, snapshot, pageId, title, item.kind, item.type, item.reason, JSON.stringify(item.reply ?? null), p.prompt, p.promptVersion, p.provider, p.model, p.seed);
      }
      this.insertDone.run(snapshot, pageId, 'generate');
    })();
  }

  /**
   * Removes what a stage stored for the snapshot, with its done markers, in one transaction: the
   * stage then works on every article again. Items that later snapshots carried over are not
   * followed here: `clearAfter` clears those snapshots whole.
   */
  clearStage(snapshot: string, stage: GrowoverStage): void {
    this.db.transaction(() => {
      for (const sql of STAGE_RESULTS[stage]) this.statements.get(sql).run({ snapshot });
    })();
  }

  /**
   * Clears every result of the snapshots of the same wiki taken after this one, in one transaction:
   * each was made from the items of the snapshot before it, so once this one's items are made again
   * theirs are out of date, and their monthly runs, finding their articles undone, make them again.
   * Returns the snapshots that held results, in date order.
   */
  clearAfter(snapshot: string): string[] {
    const at = Date.parse(this.snapshots.takenAt(snapshot));
    const wiki = this.snapshots.snapshot(snapshot)?.wiki;
    const later = this.statements
      .get('SELECT name, EXISTS (SELECT 1 FROM growover_done d WHERE d.snapshot = s.name) AS done FROM snapshots s WHERE wiki = ?')
      .all(wiki ?? null)
      .map((raw) => LaterSnapshotRow.parse(raw))
      .map((row) => ({ ...row, at: Date.parse(this.snapshots.takenAt(row.name)) }))
      .filter((row) => row.at > at)
      .sort((a, b) => a.at - b.at);
    this.db.transaction(() => {
      for (const { name } of later) {
        this.clearStage(name, 'generate');
        this.clearStage(name, 'maintain');
      }
    })();
    return later.filter((row) => row.done === 1).map((row) => row.name);
  }

  /** What the snapshot's maintain stored: the items it carried over from the snapshot before, and those it retired. */
  maintainedCounts(snapshot: string): { kept_qa: number; retired_qa: number; kept_turns: number; retired_turns: number } {
    const kept = this.statements
      .get(`SELECT kind, COUNT(*) AS n FROM growover_evidence WHERE snapshot = @snapshot AND item_id NOT IN (${MADE_IN}) GROUP BY kind`)
      .all({ snapshot })
      .map((row) => KindCountRow.parse(row));
    const retired = this.retiredCounts(snapshot);
    const keptOf = (kind: ItemKind) => kept.find((row) => row.kind === kind)?.n ?? 0;
    return { kept_qa: keptOf('qa'), retired_qa: retired.qa, kept_turns: keptOf('turn'), retired_turns: retired.turns };
  }

  /** What the snapshot's generate stored: its QA items, dialogues, their turns, and the rejected generations. */
  generatedCounts(snapshot: string): { qa: number; dialogues: number; turns: number; rejects: number } {
    const count = (sql: string) => Count.parse(this.statements.get(sql).pluck().get({ snapshot }));
    return {
      qa: count('SELECT COUNT(*) FROM growover_qa WHERE snapshot = @snapshot'),
      dialogues: count('SELECT COUNT(*) FROM growover_dialogues WHERE snapshot = @snapshot'),
      turns: count('SELECT COUNT(*) FROM growover_turns t JOIN growover_dialogues d ON d.id = t.dialogue_id WHERE d.snapshot = @snapshot'),
      rejects: count('SELECT COUNT(*) FROM growover_rejects WHERE snapshot = @snapshot'),
    };
  }

  /** QA items active in the snapshot (with their state there) or retired there, by id. */
  qaAt(snapshot: string): QaRecord[] {
    return this.selectQaAt.all(snapshot, snapshot).map((raw) => {
      const row = QaRow.parse(raw);
      return {
        id: row.id,
        snapshot: row.snapshot,
        month: row.month,
        pageId: row.page_id,
        type: row.type,
        question: row.question,
        answer: row.answer,
        oldAnswer: row.old_answer,
        oldText: row.old_text,
        status: row.status,
        retiredSnapshot: row.retired_snapshot,
        retiredReason: row.retired_reason,
        provenance: provenanceOf(row),
        now: stateOf(row),
      };
    });
  }

  /** Dialogue turns active in the snapshot (with their state there) or retired there, by dialogue and turn. */
  turnsAt(snapshot: string): TurnRecord[] {
    return this.selectTurnsAt.all(snapshot, snapshot).map((raw) => {
      const row = TurnRow.parse(raw);
      return {
        dialogueId: row.dialogue_id,
        turn: row.turn,
        user: row.user_text,
        expert: row.expert_text,
        type: row.type,
        status: row.status,
        retiredSnapshot: row.retired_snapshot,
        retiredReason: row.retired_reason,
        now: stateOf(row),
      };
    });
  }

  /** Every dialogue, by id. */
  dialogues(): DialogueRecord[] {
    return this.selectDialogues.all().map((raw) => {
      const row = DialogueRow.parse(raw);
      return { id: row.id, snapshot: row.snapshot, month: row.month, pageId: row.page_id, type: row.type, paragraph: row.paragraph, provenance: provenanceOf(row) };
    });
  }

  /** The generations rejected in the snapshot, by id. */
  rejectsIn(snapshot: string): RejectRecord[] {
    return this.selectRejects.all(snapshot).map((raw) => {
      const row = RejectRow.parse(raw);
      return {
        id: row.id,
        snapshot: row.snapshot,
        pageId: row.page_id,
        title: row.title,
        kind: row.kind,
        type: row.type,
        reason: row.reason,
        reply: row.reply,
        provenance: provenanceOf(row),
      };
    });
  }

  /** The snapshots in which turns of the dialogue were retired. */
  turnRetirements(dialogueId: string): string[] {
    return Texts.parse(this.selectTurnRetirements.all(dialogueId));
  }

  /** Snapshots dated up to `date` that hold evidence or retirements, in date order. */
  snapshotsWithItems(date: string): string[] {
    return Texts.parse(this.selectSnapshotsWithItems.all(date));
  }

  /** How many items of a kind have evidence of each type in the snapshot. */
  evidenceTypeCounts(snapshot: string, kind: ItemKind): Array<{ type: TurnType; n: number }> {
    return this.selectEvidenceTypes.all(snapshot, kind).map((row) => TypeCountRow.parse(row));
  }

  /** How many QA items and dialogue turns retired in the snapshot. */
  retiredCounts(snapshot: string): { qa: number; turns: number } {
    return { qa: Count.parse(this.countRetiredQa.get(snapshot)), turns: Count.parse(this.countRetiredTurns.get(snapshot)) };
  }

  /** The article with a CHANGED item if any (the most interesting story), else the one with the most items. */
  featuredArticle(): { pageId: number; title: string } | undefined {
    const pageId = z.number().int().optional().parse(this.selectFeaturedArticle.get());
    if (pageId === undefined) return undefined;
    return { pageId, title: z.string().parse(this.selectQaTitle.get(pageId)) };
  }

  /** The article's QA items active in the snapshot (with their evidence) and those retired there, by id. */
  articleQaAt(snapshot: string, pageId: number): ArticleQaAt[] {
    return this.selectArticleQaAt.all(snapshot, pageId, snapshot, pageId).map((raw) => {
      const row = ArticleQaRow.parse(raw);
      return { id: row.id, question: row.question, answer: row.answer, oldAnswer: row.old_answer, type: row.type, indices: row.indices, retiredReason: row.retired_reason };
    });
  }
}

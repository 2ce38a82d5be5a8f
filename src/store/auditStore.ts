/**
 * The audits' repository (docs/ARCHITECTURE.md §14): audits, their frozen items, annotators (by
 * token hash), assignments, judgments and skips. Judgments are only ever appended; the latest row
 * per (item, annotator) is the one that counts, and a withdrawal row leaves the item unjudged. Every
 * write is one transaction, so two annotators posting at once, in one process or two, never lose a row.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import { AuditItemContentSchema, AuditSourceSchema, hashToken, VERDICTS, type Annotator, type AuditInfo, type AuditItem, type AuditItemContent, type Judgment, type JudgmentRecord } from '../model/audit.js';
import { UserError } from '../errors.js';
import { flag, jsonColumn } from './rows.js';
import { Statements } from './statements.js';

const AuditRow = z.object({
  id: z.number().int(),
  name: z.string(),
  source: AuditSourceSchema,
  params: jsonColumn(z.record(z.string(), z.unknown())),
  raters: z.number().int(),
  seed: z.number().int(),
  created_at: z.string(),
});

const ItemRow = z.object({
  id: z.number().int(),
  audit_id: z.number().int(),
  key: z.string(),
  stratum: z.string(),
  content: jsonColumn(AuditItemContentSchema),
});

const AnnotatorRow = z.object({
  id: z.number().int(),
  audit_id: z.number().int(),
  name: z.string(),
  role: z.enum(['annotator', 'admin']),
});

const AnnotatorWithHashRow = AnnotatorRow.extend({ token_hash: z.string() });

const JudgmentRow = z.object({
  id: z.number().int(),
  item_id: z.number().int(),
  annotator_id: z.number().int(),
  verdict: z.enum(VERDICTS),
  label: z.string().nullable(),
  answer: z.string().nullable(),
  note: z.string().nullable(),
  seconds: z.number().nullable(),
  created_at: z.string(),
  withdrawn: flag,
});

const SkipRow = z.object({ id: z.number().int(), item_id: z.number().int(), after_judgment: z.number().int().nullable() });

const TitleRow = z.object({ item_id: z.number().int(), title: z.string().nullable() });

const AssignedRow = z.object({ item_id: z.number().int(), key: z.string(), position: z.number().int() });

const AssignmentRow = z.object({ item_id: z.number().int(), annotator_id: z.number().int(), position: z.number().int(), judged: flag });

const ProgressRow = z.object({ annotator: z.string(), assigned: z.number().int(), judged: z.number().int() });

const JUDGMENT_COLUMNS = 'j.id, j.item_id, j.annotator_id, j.verdict, j.label, j.answer, j.note, j.seconds, j.created_at, j.withdrawn';

/** The newest judgment row of each (item, annotator) pair. */
const LATEST_IDS = 'SELECT MAX(id) FROM audit_judgments GROUP BY item_id, annotator_id';

/** Whether assignment `a` holds a verdict: its newest judgment row exists and is not a withdrawal. */
const STANDING_VERDICT = `COALESCE((SELECT j.withdrawn FROM audit_judgments j WHERE j.item_id = a.item_id AND j.annotator_id = a.annotator_id
                                     ORDER BY j.id DESC LIMIT 1), 1) = 0`;

/** One assigned item as its annotator's queue sees it. */
export interface AssignedItem {
  itemId: number;
  key: string;
  position: number;
  /** The annotator's standing verdict: the newest judgment row, unless that row withdrew it. */
  latest: Judgment | null;
  /** The withdrawal row, when the newest row took the verdict back. */
  withdrawn: JudgmentRecord | null;
  /** The standing skip's row id (skipped items come back in this order), or null. */
  skipped: number | null;
  /** The annotator's verdict's version on the item (see judgmentVersion). */
  version: number;
}

/** Audits: their items (content frozen when drawn), annotators and tokens, and the judgments (appended, withdrawals included). */
export class AuditStore {
  private readonly statements: Statements;

  constructor(private readonly db: Database) {
    this.statements = new Statements(db);
  }

  /** SQLite's data_version: it changes when another connection commits, so what was read before may be stale. */
  commitVersion(): number {
    return z.number().int().parse(this.statement('PRAGMA data_version').pluck().get());
  }

  private statement(sql: string): Statement {
    return this.statements.get(sql);
  }

  /**
   * Creates an audit; refuses a name already taken.
   *
   * @param info the audit without its id.
   * @returns the audit with its new id.
   */
  createAudit(info: Omit<AuditInfo, 'id'>): AuditInfo {
    return this.db.transaction(() => {
      if (this.audit(info.name)) throw new UserError('E_AUDIT_EXISTS', `an audit named ${info.name} exists already: choose another --name`);
      const id = Number(
        this.statement('INSERT INTO audits (name, source, params, raters, seed, created_at) VALUES (?, ?, ?, ?, ?, ?)')
          .run(info.name, info.source, JSON.stringify(info.params), info.raters, info.seed, info.createdAt).lastInsertRowid,
      );
      return { id, ...info };
    }).immediate();
  }

  /** The audit named `name`, or undefined. */
  audit(name: string): AuditInfo | undefined {
    return this.auditFrom(this.statement('SELECT * FROM audits WHERE name = ?').get(name));
  }

  /** The audit with this id, or undefined. */
  auditById(id: number): AuditInfo | undefined {
    return this.auditFrom(this.statement('SELECT * FROM audits WHERE id = ?').get(id));
  }

  /** Every audit, oldest first. */
  audits(): AuditInfo[] {
    return this.statement('SELECT * FROM audits ORDER BY id').all().map((raw) => auditOf(AuditRow.parse(raw)));
  }

  /** Stores the items in the order given; a key the audit holds already is kept once (the first copy). */
  addItems(auditId: number, items: ReadonlyArray<{ key: string; stratum: string; content: AuditItemContent }>): AuditItem[] {
    const insert = this.statement('INSERT INTO audit_items (audit_id, key, stratum, content) VALUES (?, ?, ?, ?) ON CONFLICT (audit_id, key) DO NOTHING');
    return this.db.transaction(() => {
      const added: AuditItem[] = [];
      for (const item of items) {
        const result = insert.run(auditId, item.key, item.stratum, JSON.stringify(AuditItemContentSchema.parse(item.content)));
        if (result.changes === 1) added.push({ id: Number(result.lastInsertRowid), auditId, key: item.key, stratum: item.stratum, content: item.content });
      }
      return added;
    }).immediate();
  }

  /** The audit's items in the order they were added. */
  items(auditId: number): AuditItem[] {
    return this.statement('SELECT * FROM audit_items WHERE audit_id = ? ORDER BY id').all(auditId).map((raw) => itemOf(ItemRow.parse(raw)));
  }

  /** One item by id, or undefined. */
  item(itemId: number): AuditItem | undefined {
    const raw = this.statement('SELECT * FROM audit_items WHERE id = ?').get(itemId);
    return raw === undefined ? undefined : itemOf(ItemRow.parse(raw));
  }

  /**
   * Adds an annotator (or the maintainer) to an audit with the hash of their token; refuses a name already in that role.
   *
   * @returns the annotator with its id.
   */
  addAnnotator(auditId: number, name: string, tokenHash: string, role: Annotator['role']): Annotator {
    return this.db.transaction(() => {
      const existing = this.statement('SELECT 1 FROM audit_annotators WHERE audit_id = ? AND role = ? AND name = ?').get(auditId, role, name);
      if (existing) throw new UserError('E_ANNOTATOR_DUPLICATE', `the audit has an ${role} named ${name} already`);
      const id = Number(
        this.statement('INSERT INTO audit_annotators (audit_id, name, token_hash, role) VALUES (?, ?, ?, ?)').run(auditId, name, tokenHash, role).lastInsertRowid,
      );
      return { id, auditId, name, role };
    }).immediate();
  }

  /** Gives an annotator a new token (its old link stops working): tokens are kept only as hashes, so a lost one cannot be shown again. */
  renewToken(annotatorId: number, tokenHash: string): void {
    this.statement('UPDATE audit_annotators SET token_hash = ? WHERE id = ?').run(tokenHash, annotatorId);
  }

  /** Runs several writes as one transaction: an audit is created or grown whole, or not at all. */
  atomically<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  /** The audit's annotators and its admin, in the order they were added. */
  annotators(auditId: number): Annotator[] {
    return this.statement('SELECT id, audit_id, name, role FROM audit_annotators WHERE audit_id = ? ORDER BY id')
      .all(auditId)
      .map((raw) => annotatorOf(AnnotatorRow.parse(raw)));
  }

  /** The annotator (or admin) holding this token; the stored hash is compared in constant time. */
  annotatorByToken(token: string): Annotator | undefined {
    const hash = hashToken(token);
    const raw = this.statement('SELECT id, audit_id, name, role, token_hash FROM audit_annotators WHERE token_hash = ?').get(hash);
    if (raw === undefined) return undefined;
    const row = AnnotatorWithHashRow.parse(raw);
    const found = Buffer.from(row.token_hash, 'hex');
    const given = Buffer.from(hash, 'hex');
    if (found.length !== given.length || !timingSafeEqual(found, given)) return undefined;
    return annotatorOf(row);
  }

  /** Adds assignments; each annotator's new items go after the ones it holds, in the order given. A pair held already is left as it is. */
  assign(pairs: ReadonlyArray<{ itemId: number; annotatorId: number }>): void {
    const last = this.statement('SELECT COALESCE(MAX(position), -1) FROM audit_assignments WHERE annotator_id = ?').pluck();
    const insert = this.statement('INSERT INTO audit_assignments (item_id, annotator_id, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
    this.db.transaction(() => {
      for (const pair of pairs) insert.run(pair.itemId, pair.annotatorId, z.number().int().parse(last.get(pair.annotatorId)) + 1);
    }).immediate();
  }

  /** Every assignment of the audit, each annotator's in queue order, and whether that annotator's verdict on the item stands. */
  assignments(auditId: number): Array<{ itemId: number; annotatorId: number; position: number; judged: boolean }> {
    return this.statement(
        `SELECT a.item_id, a.annotator_id, a.position, ${STANDING_VERDICT} AS judged
           FROM audit_assignments a JOIN audit_items i ON i.id = a.item_id
          WHERE i.audit_id = ? ORDER BY a.annotator_id, a.position`,
      )
      .all(auditId)
      .map((raw) => {
        const row = AssignmentRow.parse(raw);
        return { itemId: row.item_id, annotatorId: row.annotator_id, position: row.position, judged: row.judged };
      });
  }

  /**
   * Hands an item over from one annotator to another, at the end of the receiver's queue; refused
   * (false) while the giver's verdict on it stands, checked in the same transaction as the move.
   */
  moveAssignment(itemId: number, from: number, to: number): boolean {
    return this.db.transaction(() => {
      if (this.latestRow(itemId, from)?.withdrawn === false) return false;
      if (this.statement('DELETE FROM audit_assignments WHERE item_id = ? AND annotator_id = ?').run(itemId, from).changes === 0) return false;
      this.assign([{ itemId, annotatorId: to }]);
      return true;
    }).immediate();
  }

  /**
   * The annotator's assignment in order: each item's id and key, that annotator's standing verdict,
   * withdrawal and skip. Without the items' content, which every page asks for but only one item
   * is shown. Three plain queries, the newest rows per item picked here: a subquery per assigned
   * item cost a page more than everything else it does.
   */
  assignedItems(annotatorId: number): AssignedItem[] {
    const rows = this.statement(
      `SELECT a.item_id, i.key, a.position FROM audit_assignments a JOIN audit_items i ON i.id = a.item_id
        WHERE a.annotator_id = ? ORDER BY a.position`,
    )
      .all(annotatorId)
      .map((raw) => AssignedRow.parse(raw));
    const newest = new Map<number, JudgmentRecord>();
    const versions = new Map<number, number>();
    for (const raw of this.statement(`SELECT ${JUDGMENT_COLUMNS} FROM audit_judgments j WHERE j.annotator_id = ? ORDER BY j.id`).all(annotatorId)) {
      const record = recordOf(JudgmentRow.parse(raw));
      newest.set(record.itemId, record);
      versions.set(record.itemId, (versions.get(record.itemId) ?? 0) + 1);
    }
    const skips = new Map<number, z.infer<typeof SkipRow>>();
    for (const raw of this.statement('SELECT id, item_id, after_judgment FROM audit_skips WHERE annotator_id = ? ORDER BY id').all(annotatorId)) {
      const skip = SkipRow.parse(raw);
      skips.set(skip.item_id, skip);
    }
    return rows.map((row) => {
      const record = newest.get(row.item_id);
      const skip = skips.get(row.item_id);
      const standing = record !== undefined && !record.withdrawn;
      return {
        itemId: row.item_id,
        key: row.key,
        position: row.position,
        latest: standing ? verdictOf(record) : null,
        withdrawn: record?.withdrawn ? record : null,
        skipped: !standing && skip !== undefined && skip.after_judgment === (record?.id ?? null) ? skip.id : null,
        version: versions.get(row.item_id) ?? 0,
      };
    });
  }

  /** The title of each item assigned to the annotator, read from the frozen content by SQLite alone. */
  assignedTitles(annotatorId: number): Map<number, string> {
    const rows = this.statement(
      `SELECT a.item_id, json_extract(i.content, '$.title') AS title FROM audit_assignments a JOIN audit_items i ON i.id = a.item_id WHERE a.annotator_id = ?`,
    ).all(annotatorId);
    return new Map(rows.map((raw) => TitleRow.parse(raw)).map((row) => [row.item_id, row.title ?? '']));
  }

  /** Whether the item is assigned to the annotator. */
  isAssigned(itemId: number, annotatorId: number): boolean {
    return this.statement('SELECT 1 FROM audit_assignments WHERE item_id = ? AND annotator_id = ?').get(itemId, annotatorId) !== undefined;
  }

  /**
   * The version of the annotator's verdict on the item: how many verdicts and withdrawals they have
   * given on it, 0 before the first. Each one appended changes it, so a page that sends back the
   * version it showed is told when another tab or session has judged the item since (`409`).
   * Counted per (item, annotator), never a row id, which would tell how much others judged meanwhile.
   */
  judgmentVersion(itemId: number, annotatorId: number): number {
    return z.number().int().parse(this.statement('SELECT COUNT(*) FROM audit_judgments WHERE item_id = ? AND annotator_id = ?').pluck().get(itemId, annotatorId));
  }

  /** Always appends a row: a changed verdict is a new judgment, and the latest counts. */
  addJudgment(judgment: Omit<Judgment, 'id'>): Judgment {
    return this.db.transaction(() => {
      const id = Number(
        this.statement('INSERT INTO audit_judgments (item_id, annotator_id, verdict, label, answer, note, seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
          .run(judgment.itemId, judgment.annotatorId, judgment.verdict, judgment.label, judgment.answer, judgment.note, judgment.seconds, judgment.createdAt).lastInsertRowid,
      );
      return { id, ...judgment };
    }).immediate();
  }

  /**
   * Appends a withdrawal of the annotator's standing verdict on the item (the row names the verdict
   * taken back), after which the item is unjudged again; undefined when no verdict stands.
   */
  withdrawJudgment(itemId: number, annotatorId: number, createdAt: string): JudgmentRecord | undefined {
    return this.db.transaction(() => {
      const standing = this.latestRow(itemId, annotatorId);
      if (standing === undefined || standing.withdrawn) return undefined;
      const withdrawal = { itemId, annotatorId, verdict: standing.verdict, label: null, answer: null, note: null, seconds: null, createdAt };
      const id = Number(
        this.statement('INSERT INTO audit_judgments (item_id, annotator_id, verdict, created_at, withdrawn) VALUES (?, ?, ?, ?, 1)').run(itemId, annotatorId, standing.verdict, createdAt)
          .lastInsertRowid,
      );
      return { id, ...withdrawal, withdrawn: true };
    }).immediate();
  }

  /**
   * Sends an unjudged item to the end of the annotator's queue (the skip row names the newest
   * judgment row it saw, so a later verdict or withdrawal ends it) and returns the skip's id, which
   * orders the skipped items; undefined when a verdict stands.
   */
  addSkip(itemId: number, annotatorId: number, createdAt: string): number | undefined {
    return this.db.transaction(() => {
      const newest = this.latestRow(itemId, annotatorId);
      if (newest !== undefined && !newest.withdrawn) return undefined;
      return Number(
        this.statement('INSERT INTO audit_skips (item_id, annotator_id, after_judgment, created_at) VALUES (?, ?, ?, ?)').run(itemId, annotatorId, newest?.id ?? null, createdAt)
          .lastInsertRowid,
      );
    }).immediate();
  }

  /** Every judgment row of the audit, withdrawals included, oldest first. */
  judgments(auditId: number): JudgmentRecord[] {
    return this.statement(`SELECT ${JUDGMENT_COLUMNS} FROM audit_judgments j JOIN audit_items i ON i.id = j.item_id WHERE i.audit_id = ? ORDER BY j.id`)
      .all(auditId)
      .map((raw) => recordOf(JudgmentRow.parse(raw)));
  }

  /** The standing verdict per (item, annotator), oldest first: the latest row, unless it is a withdrawal. */
  latestJudgments(auditId: number): Judgment[] {
    return this.statement(
      `SELECT ${JUDGMENT_COLUMNS} FROM audit_judgments j JOIN audit_items i ON i.id = j.item_id
        WHERE i.audit_id = ? AND j.id IN (${LATEST_IDS}) AND j.withdrawn = 0 ORDER BY j.id`,
    )
      .all(auditId)
      .map((raw) => verdictOf(recordOf(JudgmentRow.parse(raw))));
  }

  /**
   * What the audit's report is computed from, the same for the CLI and the server: its items, its
   * annotators (never the maintainer, who judges nothing) and their standing verdicts.
   */
  reportInput(audit: AuditInfo): { audit: AuditInfo; items: AuditItem[]; annotators: Annotator[]; judgments: Judgment[] } {
    return {
      audit,
      items: this.items(audit.id),
      annotators: this.annotators(audit.id).filter((annotator) => annotator.role === 'annotator'),
      judgments: this.latestJudgments(audit.id),
    };
  }

  /** Per annotator (not the admin): items assigned, and on how many of them its verdict stands. */
  progress(auditId: number): Array<{ annotator: string; assigned: number; judged: number }> {
    return this.statement(
        `SELECT n.name AS annotator,
                (SELECT COUNT(*) FROM audit_assignments a WHERE a.annotator_id = n.id) AS assigned,
                (SELECT COUNT(*) FROM audit_assignments a WHERE a.annotator_id = n.id AND ${STANDING_VERDICT}) AS judged
           FROM audit_annotators n WHERE n.audit_id = ? AND n.role = 'annotator' ORDER BY n.id`,
      )
      .all(auditId)
      .map((raw) => ProgressRow.parse(raw));
  }

  /** The newest judgment row of an (item, annotator) pair, a withdrawal included. */
  private latestRow(itemId: number, annotatorId: number): JudgmentRecord | undefined {
    const raw = this.statement(`SELECT ${JUDGMENT_COLUMNS} FROM audit_judgments j WHERE j.item_id = ? AND j.annotator_id = ? ORDER BY j.id DESC LIMIT 1`).get(itemId, annotatorId);
    return raw === undefined ? undefined : recordOf(JudgmentRow.parse(raw));
  }

  private auditFrom(raw: unknown): AuditInfo | undefined {
    return raw === undefined ? undefined : auditOf(AuditRow.parse(raw));
  }
}

function auditOf(row: z.infer<typeof AuditRow>): AuditInfo {
  return { id: row.id, name: row.name, source: row.source, params: row.params, raters: row.raters, seed: row.seed, createdAt: row.created_at };
}

function itemOf(row: z.infer<typeof ItemRow>): AuditItem {
  return { id: row.id, auditId: row.audit_id, key: row.key, stratum: row.stratum, content: row.content };
}

function annotatorOf(row: z.infer<typeof AnnotatorRow>): Annotator {
  return { id: row.id, auditId: row.audit_id, name: row.name, role: row.role };
}

function recordOf(row: z.infer<typeof JudgmentRow>): JudgmentRecord {
  return {
    id: row.id,
    itemId: row.item_id,
    annotatorId: row.annotator_id,
    verdict: row.verdict,
    label: row.label,
    answer: row.answer,
    note: row.note,
    seconds: row.seconds,
    createdAt: row.created_at,
    withdrawn: row.withdrawn,
  };
}

/** A verdict row without its log flag. */
function verdictOf({ withdrawn: _withdrawn, ...judgment }: JudgmentRecord): Judgment {
  return judgment;
}

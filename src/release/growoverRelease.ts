/**
 * The files of a monthly GrowOVER release for one snapshot (docs/ARCHITECTURE.md §8): GrowOVER's published
 * formats (qa.jsonl, article_dialogue.jsonl, dialogue.jsonl, turn.jsonl) with the items active in
 * the snapshot, the native JSONL (every item active or retired there and every reject, with
 * provenance) and a dataset card with the monthly counts. Rendering only: the same store gives
 * byte-identical files.
 */
import type { Database } from 'better-sqlite3';
import type { z } from 'zod';
import { UserError } from '../errors.js';
import { EvidenceIndices, GrowoverStore, turnItemId, type TurnType } from '../store/growoverStore.js';
import { ArticleDialogueLine, DialogueLine, QaLine, TurnLine } from './growoverFormats.js';

interface QaRow {
  id: string;
  snapshot: string;
  month: string;
  page_id: number;
  type: string;
  question: string;
  answer: string;
  old_answer: string | null;
  old_text: string | null;
  status: 'active' | 'retired';
  retired_snapshot: string | null;
  retired_reason: string | null;
  prompt: string;
  prompt_version: string;
  provider: string;
  model: string;
  seed: string;
  /** In the release's snapshot; null for items retired there. */
  now_type: TurnType | null;
  now_page: number | null;
  indices: string | null;
}

interface TurnRow {
  dialogue_id: string;
  turn: number;
  user_text: string;
  expert_text: string;
  type: TurnType;
  status: 'active' | 'retired';
  retired_snapshot: string | null;
  retired_reason: string | null;
  now_type: TurnType | null;
  now_page: number | null;
  indices: string | null;
}

interface DialogueRow {
  id: string;
  snapshot: string;
  month: string;
  page_id: number;
  type: string;
  paragraph: number;
  prompt: string;
  prompt_version: string;
  provider: string;
  model: string;
  seed: string;
}

export interface MonthCounts {
  snapshot: string;
  qa: Record<'unchanged' | 'new' | 'changed' | 'deleted', number>;
  turns: Record<'unchanged' | 'new' | 'changed' | 'deleted', number>;
}

const PUBLISHED_TYPE: Record<TurnType, 'SAME' | 'NEW' | 'CHANGED'> = { initial: 'NEW', new: 'NEW', changed: 'CHANGED', unchanged: 'SAME' };
const PUBLISHED_TURN_TYPE: Record<TurnType, 'SAME' | 'NEW' | 'CONTRADICT'> = { initial: 'NEW', new: 'NEW', changed: 'CONTRADICT', unchanged: 'SAME' };

export function renderGrowoverRelease(db: Database, snapshot: string): { files: Map<string, string>; months: MonthCounts[] } {
  const record = db.prepare('SELECT name, as_of FROM snapshots WHERE name = ?').get(snapshot) as { name: string; as_of: string | null } | undefined;
  if (!record) throw new UserError(`no snapshot named "${snapshot}"`);
  const items = new GrowoverStore(db);
  const text = sentenceLookup(db, snapshot);
  const title = titleLookup(db, snapshot);
  const qa = qaRows(db, snapshot);
  const dialogues = new Map((db.prepare('SELECT * FROM growover_dialogues ORDER BY id').all() as DialogueRow[]).map((d) => [d.id, d]));
  const turns = turnRows(db, snapshot);
  const active = <T extends { now_type: TurnType | null }>(rows: T[]) => rows.filter((row) => row.now_type !== null);

  const qaByArticle = new Map<number, unknown[]>();
  for (const row of active(qa)) {
    const indices = EvidenceIndices.parse(JSON.parse(row.indices as string));
    const page = row.now_page as number;
    qaByArticle.set(page, [
      ...(qaByArticle.get(page) ?? []),
      {
        title: title(page),
        type: PUBLISHED_TYPE[row.now_type as TurnType],
        generated_month: row.month.slice(5, 7),
        question: row.question,
        answer: row.answer,
        grounded_text: indices.map((index) => text(page, index)).join(' '),
        start_idx: indices[0],
        end_idx: indices.at(-1),
      },
    ]);
  }

  const activeTurns = active(turns);
  const turnsByDialogue = new Map<string, TurnRow[]>();
  for (const turn of activeTurns) turnsByDialogue.set(turn.dialogue_id, [...(turnsByDialogue.get(turn.dialogue_id) ?? []), turn]);
  const dialoguesByArticle = new Map<number, string[]>();
  const dialogueLines: unknown[] = [];
  const retirements = db.prepare('SELECT DISTINCT retired_snapshot FROM growover_turns WHERE dialogue_id = ? AND retired_snapshot IS NOT NULL').pluck();
  for (const [id, kept] of turnsByDialogue) {
    const dialogue = dialogues.get(id) as DialogueRow;
    const page = kept[0]?.now_page as number;
    dialoguesByArticle.set(page, [...(dialoguesByArticle.get(page) ?? []), id]);
    // Turns retired in this snapshot or an earlier one modified the dialogue; later retirements are not this release's.
    const retiredMonths = (retirements.all(id) as string[]).map((name) => items.month(name)).filter((month) => month <= items.month(snapshot));
    dialogueLines.push({
      [id]: {
        article_id: String(page),
        created_month: monthNumber(dialogue.month),
        last_modified_month: monthNumber([dialogue.month, ...retiredMonths].sort().at(-1) as string),
        dialogue_type: dialogue.snapshot === snapshot ? 'NEW' : 'SAME',
        turn: Object.fromEntries(kept.map((t) => [String(t.turn), turnItemId(t.dialogue_id, t.turn)])),
      },
    });
  }
  const turnLines = activeTurns.map((t) => {
    const dialogue = dialogues.get(t.dialogue_id) as DialogueRow;
    const index = EvidenceIndices.parse(JSON.parse(t.indices as string))[0] as number;
    return {
      [turnItemId(t.dialogue_id, t.turn)]: {
        dialogue_id: t.dialogue_id,
        turn_number: String(t.turn),
        user: t.user_text,
        expert: t.expert_text,
        grounded_sentence: text(t.now_page as number, index),
        sentence_type: PUBLISHED_TURN_TYPE[t.now_type as TurnType],
        sentence_index: index,
        created_month: monthNumber(dialogue.month),
        created_type: 'NEW',
      },
    };
  });

  const files = new Map<string, string>();
  files.set('qa.jsonl', jsonLines([...qaByArticle].map(([page, items]) => ({ [String(page)]: items })), QaLine));
  files.set('article_dialogue.jsonl', jsonLines([...dialoguesByArticle].map(([page, ids]) => ({ [String(page)]: ids })), ArticleDialogueLine));
  files.set('dialogue.jsonl', jsonLines(dialogueLines, DialogueLine));
  files.set('turn.jsonl', jsonLines(turnLines, TurnLine));
  files.set('native.jsonl', nativeLines(db, snapshot, qa, turns, dialogues, text, title));
  const months = monthlyCounts(db, snapshot);
  files.set('README.md', datasetCard(snapshot, months, qa, [...dialogues.values()]));
  return { files, months };
}

function nativeLines(
  db: Database,
  snapshot: string,
  qa: QaRow[],
  turns: TurnRow[],
  dialogues: Map<string, DialogueRow>,
  text: (page: number, index: number) => string,
  title: (page: number) => string,
): string {
  const provenance = (row: QaRow | DialogueRow) => ({ prompt: row.prompt, prompt_version: row.prompt_version, provider: row.provider, model: row.model, seed: row.seed });
  const evidence = (page: number | null, indices: string | null) => {
    if (page === null || indices === null) return null;
    const list = EvidenceIndices.parse(JSON.parse(indices));
    return { indices: list, text: list.map((index) => text(page, index)).join(' ') };
  };
  const status = (row: { now_type: TurnType | null; retired_snapshot: string | null; retired_reason: string | null }) =>
    row.now_type !== null ? { status: 'active', type: row.now_type } : { status: 'retired', retired_snapshot: row.retired_snapshot, reason: row.retired_reason };
  const records: unknown[] = qa.map((row) => ({
    kind: 'qa',
    id: row.id,
    snapshot,
    page_id: row.now_page ?? row.page_id,
    title: title(row.now_page ?? row.page_id) || null,
    ...status(row),
    created: { snapshot: row.snapshot, month: row.month, type: row.type },
    question: row.question,
    answer: row.answer,
    old_answer: row.old_answer,
    old_text: row.old_text,
    evidence: evidence(row.now_page, row.indices),
    provenance: provenance(row),
  }));
  const byDialogue = new Map<string, TurnRow[]>();
  for (const turn of turns) byDialogue.set(turn.dialogue_id, [...(byDialogue.get(turn.dialogue_id) ?? []), turn]);
  for (const [id, rows] of byDialogue) {
    const dialogue = dialogues.get(id) as DialogueRow;
    records.push({
      kind: 'dialogue',
      id,
      snapshot,
      page_id: rows.find((t) => t.now_page !== null)?.now_page ?? dialogue.page_id,
      created: { snapshot: dialogue.snapshot, month: dialogue.month, type: dialogue.type, paragraph: dialogue.paragraph },
      turns: rows.map((t) => ({ turn: t.turn, user: t.user_text, expert: t.expert_text, created_type: t.type, ...status(t), evidence: evidence(t.now_page, t.indices) })),
      provenance: provenance(dialogue),
    });
  }
  const rejects = db.prepare('SELECT * FROM growover_rejects WHERE snapshot = ? ORDER BY id').all(snapshot) as Array<DialogueRow & { kind: string; reason: string; reply: string | null; title: string }>;
  for (const reject of rejects) {
    records.push({
      kind: 'reject',
      id: reject.id,
      snapshot,
      page_id: reject.page_id,
      title: reject.title,
      item_kind: reject.kind,
      type: reject.type,
      reason: reject.reason,
      reply: reject.reply === null ? null : (JSON.parse(reject.reply) as unknown),
      provenance: provenance(reject),
    });
  }
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** The counts of every snapshot with items, up to the given one, in date order. */
export function monthlyCounts(db: Database, lastSnapshot: string): MonthCounts[] {
  const last = db.prepare('SELECT COALESCE(as_of, name) FROM snapshots WHERE name = ?').pluck().get(lastSnapshot) as string | undefined;
  const snapshots = db
    .prepare(
      `SELECT s.name FROM snapshots s
       WHERE COALESCE(s.as_of, s.name) <= ? AND (EXISTS (SELECT 1 FROM growover_evidence e WHERE e.snapshot = s.name)
          OR EXISTS (SELECT 1 FROM growover_qa q WHERE q.retired_snapshot = s.name)
          OR EXISTS (SELECT 1 FROM growover_turns t WHERE t.retired_snapshot = s.name))
       ORDER BY COALESCE(s.as_of, s.name), s.name`,
    )
    .pluck()
    .all(last ?? lastSnapshot) as string[];
  const byType = db.prepare('SELECT type, COUNT(*) AS n FROM growover_evidence WHERE snapshot = ? AND kind = ? GROUP BY type');
  const retiredQa = db.prepare('SELECT COUNT(*) FROM growover_qa WHERE retired_snapshot = ?').pluck();
  const retiredTurns = db.prepare('SELECT COUNT(*) FROM growover_turns WHERE retired_snapshot = ?').pluck();
  const counts = (snapshot: string, kind: 'qa' | 'turn', deleted: number) => {
    const result = { unchanged: 0, new: 0, changed: 0, deleted };
    for (const row of byType.all(snapshot, kind) as Array<{ type: TurnType; n: number }>) {
      result[row.type === 'initial' ? 'new' : row.type] += row.n;
    }
    return result;
  };
  return snapshots.map((snapshot) => ({
    snapshot,
    qa: counts(snapshot, 'qa', retiredQa.get(snapshot) as number),
    turns: counts(snapshot, 'turn', retiredTurns.get(snapshot) as number),
  }));
}

function datasetCard(snapshot: string, months: MonthCounts[], qa: QaRow[], dialogues: DialogueRow[]): string {
  const makers = [...new Set([...qa, ...dialogues].map((row) => `${row.provider}:${row.model}`))].sort();
  const prompts = [...new Set([...qa, ...dialogues].map((row) => `${row.prompt}@${row.prompt_version}`))].sort();
  const offline = makers.some((maker) => maker.startsWith('offline:'));
  const row = (m: MonthCounts) =>
    `| ${m.snapshot} | ${m.qa.unchanged} | ${m.qa.new} | ${m.qa.changed} | ${m.qa.deleted} | ${m.turns.unchanged} | ${m.turns.new} | ${m.turns.changed} | ${m.turns.deleted} |`;
  return `# wikidelta monthly release ${snapshot}

GrowOVER-style question answering and dialogue items grounded in the Wikipedia snapshot
${snapshot}: items whose evidence sentences stayed unchanged since the previous snapshot are kept
(with their evidence moved to the new sentence indices), the others are removed, and new items are
made from new and changed sentences.

## Files

| file | content |
|---|---|
| \`qa.jsonl\` | GrowOVER's QA format: per line, article id → \`[{title, type, generated_month, question, answer, grounded_text, start_idx, end_idx}]\`; type SAME (unchanged), NEW, CHANGED |
| \`article_dialogue.jsonl\` | article id → its dialogue ids |
| \`dialogue.jsonl\` | dialogue id → \`{article_id, created_month, last_modified_month, dialogue_type, turn: {number: turn id}}\` (turns active in this snapshot) |
| \`turn.jsonl\` | turn id → \`{dialogue_id, turn_number, user, expert, grounded_sentence, sentence_type, sentence_index, created_month, created_type}\`; sentence_type SAME, NEW, CONTRADICT |
| \`native.jsonl\` | every QA item and dialogue active or retired in this snapshot and every rejected generation: evidence indices and text, status with the snapshot and reason of retirement, old and new answers of CHANGED items, provenance (prompt and version, provider, model, seed) |

Indices are sentence indices of the article in this snapshot, as cut by wikidelta's one sentence
splitter. Months in the GrowOVER files are the snapshot's month, as GrowOVER gives them (the year
is in \`native.jsonl\`).

## Items per month

New counts include the initial items of articles that had none before; deleted counts the items
(and turns) retired in that month.

| snapshot | QA unchanged | QA new | QA changed | QA deleted | turns unchanged | turns new | turns changed | turns deleted |
|---|---|---|---|---|---|---|---|---|
${months.map(row).join('\n')}

## How it was made

- generation: ${makers.join(', ') || 'none'} (prompts: ${prompts.join(', ') || 'none'})
${offline ? '- provider `offline` means the deterministic cloze and dialogue rules of wikidelta, not a language model.\n' : ''}
## Licence

The text of this release is derived from Wikipedia and is available under the Creative Commons
Attribution-ShareAlike licence (CC BY-SA 4.0); the authors are the contributors named in each
article's history.
`;
}

function qaRows(db: Database, snapshot: string): QaRow[] {
  return db
    .prepare(
      `SELECT q.*, e.type AS now_type, e.page_id AS now_page, e.indices FROM growover_qa q
       LEFT JOIN growover_evidence e ON e.item_id = q.id AND e.snapshot = ?
       WHERE e.item_id IS NOT NULL OR q.retired_snapshot = ? ORDER BY q.id`,
    )
    .all(snapshot, snapshot) as QaRow[];
}

function turnRows(db: Database, snapshot: string): TurnRow[] {
  return db
    .prepare(
      `SELECT t.*, e.type AS now_type, e.page_id AS now_page, e.indices FROM growover_turns t
       LEFT JOIN growover_evidence e ON e.item_id = t.dialogue_id || '#' || t.turn AND e.snapshot = ?
       WHERE e.item_id IS NOT NULL OR t.retired_snapshot = ? ORDER BY t.dialogue_id, t.turn`,
    )
    .all(snapshot, snapshot) as TurnRow[];
}

function sentenceLookup(db: Database, snapshot: string): (page: number, index: number) => string {
  const statement = db.prepare('SELECT text FROM snapshot_sentences WHERE snapshot = ? AND page_id = ? AND idx = ?').pluck();
  return (page, index) => (statement.get(snapshot, page, index) as string | undefined) ?? '';
}

function titleLookup(db: Database, snapshot: string): (page: number) => string {
  const statement = db.prepare('SELECT title FROM snapshot_articles WHERE snapshot = ? AND page_id = ?').pluck();
  return (page) => (statement.get(snapshot, page) as string | undefined) ?? '';
}

function monthNumber(month: string): number {
  return Number(month.slice(5, 7));
}

/** Each record checked against its published schema on the way out. */
function jsonLines(records: unknown[], schema: z.ZodType): string {
  return records.map((record) => `${JSON.stringify(schema.parse(record))}\n`).join('');
}

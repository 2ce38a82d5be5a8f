/**
 * The files of a monthly GrowOVER release for one snapshot (docs/ARCHITECTURE.md §8): GrowOVER's published
 * formats (qa.jsonl, article_dialogue.jsonl, dialogue.jsonl, turn.jsonl) with the items active in
 * the snapshot, the same items as typed Parquet tables of one row per item (qa, dialogue, turn),
 * the native JSONL (every item active or retired there and every reject, with provenance) and a
 * dataset card with the monthly counts. Rendering only: the same store gives byte-identical files.
 */
import type { z } from 'zod';
import { UserError } from '../errors.js';
import { turnItemId, type DialogueRecord, type ItemState, type QaRecord, type TurnRecord, type TurnType } from '../model/growover.js';
import type { Provenance } from '../model.js';
import type { GrowoverStore } from '../store/growoverStore.js';
import type { Store } from '../store/store.js';
import { cardFrontMatter, loadingSection } from './datasetCard.js';
import { cardConfigs, jsonLinesFormat, tableFileList, tableFiles, type ReleaseTable } from './formats/index.js';
import { ArticleDialogueLine, DialogueLine, QaLine, TurnLine } from './growoverFormats.js';
import type { TableRecord, TableSpec } from './parquetTable.js';
import type { ReleaseDraft } from './writeRelease.js';
import { requireWholeMonth } from '../runs/monthlyCommand.js';

/** qa.parquet: one row per QA item of qa.jsonl, with the article it belongs to. */
const QA_TABLE: TableSpec = {
  name: 'qa',
  columns: [
    { name: 'article_id', type: 'string', repeats: true },
    { name: 'id', type: 'string' },
    { name: 'title', type: 'string', repeats: true },
    { name: 'type', type: 'string', repeats: true },
    { name: 'generated_month', type: 'string', repeats: true },
    { name: 'question', type: 'string' },
    { name: 'answer', type: 'string' },
    { name: 'old_answer', type: 'string', nullable: true },
    { name: 'grounded_text', type: 'string' },
    { name: 'start_idx', type: 'int32' },
    { name: 'end_idx', type: 'int32' },
  ],
};

/** dialogue.parquet: one row per dialogue of dialogue.jsonl, its active turns' ids in turn order. */
const DIALOGUE_TABLE: TableSpec = {
  name: 'dialogue',
  columns: [
    { name: 'id', type: 'string' },
    { name: 'article_id', type: 'string', repeats: true },
    { name: 'created_month', type: 'int32', repeats: true },
    { name: 'last_modified_month', type: 'int32', repeats: true },
    { name: 'dialogue_type', type: 'string', repeats: true },
    { name: 'turn_ids', type: 'strings' },
  ],
};

/** turn.parquet: one row per turn of turn.jsonl, the turn number as a number. */
const TURN_TABLE: TableSpec = {
  name: 'turn',
  columns: [
    { name: 'id', type: 'string' },
    { name: 'dialogue_id', type: 'string' },
    { name: 'turn_number', type: 'int32', repeats: true },
    { name: 'user', type: 'string' },
    { name: 'expert', type: 'string' },
    { name: 'grounded_sentence', type: 'string' },
    { name: 'sentence_type', type: 'string', repeats: true },
    { name: 'sentence_index', type: 'int32' },
    { name: 'created_month', type: 'int32', repeats: true },
    { name: 'created_type', type: 'string', repeats: true },
  ],
};

export interface MonthCounts {
  snapshot: string;
  qa: Record<'unchanged' | 'new' | 'changed' | 'deleted', number>;
  turns: Record<'unchanged' | 'new' | 'changed' | 'deleted', number>;
}

/** GrowOVER's item type for an item's type in a snapshot (initial items are NEW). */
export const PUBLISHED_TYPE: Record<TurnType, 'SAME' | 'NEW' | 'CHANGED'> = { initial: 'NEW', new: 'NEW', changed: 'CHANGED', unchanged: 'SAME' };
const PUBLISHED_TURN_TYPE: Record<TurnType, 'SAME' | 'NEW' | 'CONTRADICT'> = { initial: 'NEW', new: 'NEW', changed: 'CONTRADICT', unchanged: 'SAME' };

/**
 * The GrowOVER release of a snapshot: its QA items and dialogues with evidence, maintained over the months before it, and the card.
 *
 * @throws UserError for a snapshot the store does not hold, E_PREREQUISITE_MISSING for one whose items are not all made yet
 */
export async function renderGrowoverRelease(store: Store, snapshot: string): Promise<{ draft: ReleaseDraft; months: MonthCounts[] }> {
  const snapshots = store.snapshots;
  const record = snapshots.snapshot(snapshot);
  if (!record) throw new UserError('E_SNAPSHOT_NOT_FOUND', `no snapshot named "${snapshot}"`);
  const items = store.growover;
  // One read for every title and one per article for its sentences, however many items cite them.
  const titles = new Map(snapshots.articles(snapshot).map((article) => [article.pageId, article.title]));
  const sentencesByPage = new Map<number, string[]>();
  const text = (page: number, index: number) => {
    let sentences = sentencesByPage.get(page);
    if (!sentences) sentencesByPage.set(page, (sentences = snapshots.sentences(snapshot, page)));
    return sentences[index] ?? '';
  };
  const title = (page: number) => titles.get(page) ?? '';
  // A month whose monthly run stopped part way holds only some of its items: never released as if whole.
  requireWholeMonth(store, snapshot);
  const qa = items.qaAt(snapshot);
  const dialogues = new Map(items.dialogues().map((d) => [d.id, d]));
  const turns = items.turnsAt(snapshot);
  const active = <T extends { now: ItemState | null }>(rows: T[]) => rows.flatMap((row) => (row.now === null ? [] : [{ ...row, now: row.now }]));

  const qaByArticle = new Map<number, unknown[]>();
  for (const row of active(qa)) {
    const { indices, pageId: page } = row.now;
    qaByArticle.set(page, [
      ...(qaByArticle.get(page) ?? []),
      {
        id: row.id,
        title: title(page),
        type: PUBLISHED_TYPE[row.now.type],
        generated_month: row.month.slice(5, 7),
        question: row.question,
        answer: row.answer,
        ...(PUBLISHED_TYPE[row.now.type] === 'CHANGED' ? { old_answer: row.oldAnswer } : {}),
        grounded_text: indices.map((index) => text(page, index)).join(' '),
        start_idx: indices[0],
        end_idx: indices.at(-1),
      },
    ]);
  }

  const activeTurns = active(turns);
  const turnsByDialogue = new Map<string, typeof activeTurns>();
  for (const turn of activeTurns) turnsByDialogue.set(turn.dialogueId, [...(turnsByDialogue.get(turn.dialogueId) ?? []), turn]);
  const dialoguesByArticle = new Map<number, string[]>();
  const dialogueLines: unknown[] = [];
  for (const [id, kept] of turnsByDialogue) {
    const dialogue = dialogues.get(id) as DialogueRecord;
    const page = kept[0]?.now.pageId as number;
    dialoguesByArticle.set(page, [...(dialoguesByArticle.get(page) ?? []), id]);
    // Turns retired in this snapshot or an earlier one modified the dialogue; later retirements are not this release's.
    const retiredMonths = items.turnRetirements(id).map((name) => items.month(name)).filter((month) => month <= items.month(snapshot));
    dialogueLines.push({
      [id]: {
        article_id: String(page),
        created_month: monthNumber(dialogue.month),
        last_modified_month: monthNumber([dialogue.month, ...retiredMonths].sort().at(-1) as string),
        dialogue_type: dialogue.snapshot === snapshot ? 'NEW' : 'SAME',
        turn: Object.fromEntries(kept.map((t) => [String(t.turn), turnItemId(t.dialogueId, t.turn)])),
      },
    });
  }
  const turnLines = activeTurns.map((t) => {
    const dialogue = dialogues.get(t.dialogueId) as DialogueRecord;
    const index = t.now.indices[0] as number;
    return {
      [turnItemId(t.dialogueId, t.turn)]: {
        dialogue_id: t.dialogueId,
        turn_number: String(t.turn),
        user: t.user,
        expert: t.expert,
        grounded_sentence: text(t.now.pageId, index),
        sentence_type: PUBLISHED_TURN_TYPE[t.now.type],
        sentence_index: index,
        created_month: monthNumber(dialogue.month),
        created_type: 'NEW',
      },
    };
  });

  const files = new Map<string, string | Uint8Array>();
  files.set('qa.jsonl', jsonLines([...qaByArticle].map(([page, items]) => ({ [String(page)]: items })), QaLine));
  files.set('article_dialogue.jsonl', jsonLines([...dialoguesByArticle].map(([page, ids]) => ({ [String(page)]: ids })), ArticleDialogueLine));
  files.set('dialogue.jsonl', jsonLines(dialogueLines, DialogueLine));
  files.set('turn.jsonl', jsonLines(turnLines, TurnLine));
  // The same items one row each: GrowOVER's lines are keyed by id, a shape no table reader types.
  const qaRows = [...qaByArticle].flatMap(([page, items]) => items.map((item) => ({ article_id: String(page), ...(item as TableRecord) })));
  const dialogueRows = dialogueLines.flatMap((line) =>
    Object.entries(line as Record<string, { turn: Record<string, string> } & TableRecord>).map(([id, { turn, ...dialogue }]) => ({ id, ...dialogue, turn_ids: Object.values(turn) })),
  );
  const turnRows = turnLines.flatMap((line) =>
    Object.entries(line as Record<string, { turn_number: string } & TableRecord>).map(([id, turn]) => ({ id, ...turn, turn_number: Number(turn.turn_number) })),
  );
  // Their JSON lines are GrowOVER's, written above.
  const ownShape = [jsonLinesFormat.name];
  const tables: ReleaseTable[] = [
    { spec: QA_TABLE, records: qaRows, ownShape },
    { spec: DIALOGUE_TABLE, records: dialogueRows, ownShape },
    { spec: TURN_TABLE, records: turnRows, ownShape },
  ];
  for (const [name, content] of await tableFiles(tables)) files.set(name, content);
  files.set('native.jsonl', nativeLines(items, snapshot, qa, turns, dialogues, text, title));
  const months = monthlyCounts(store, snapshot);
  files.set('README.md', datasetCard(snapshot, months, qa, [...dialogues.values()], tables));
  return {
    draft: {
      kind: 'growover',
      series: `growover ${record.wiki}`,
      date: items.date(snapshot),
      command: `wikidelta export growover --snapshot ${snapshot}`,
      parameters: { snapshot },
      files,
    },
    months,
  };
}

function nativeLines(
  items: GrowoverStore,
  snapshot: string,
  qa: QaRecord[],
  turns: TurnRecord[],
  dialogues: Map<string, DialogueRecord>,
  text: (page: number, index: number) => string,
  title: (page: number) => string,
): string {
  const provenance = (p: Provenance) => ({ prompt: p.prompt, prompt_version: p.promptVersion, provider: p.provider, model: p.model, seed: p.seed });
  const evidence = (now: ItemState | null) => (now === null ? null : { indices: now.indices, text: now.indices.map((index) => text(now.pageId, index)).join(' ') });
  const status = (row: { now: ItemState | null; retiredSnapshot: string | null; retiredReason: string | null }) =>
    row.now !== null ? { status: 'active', type: row.now.type } : { status: 'retired', retired_snapshot: row.retiredSnapshot, reason: row.retiredReason };
  const records: unknown[] = qa.map((row) => ({
    kind: 'qa',
    id: row.id,
    snapshot,
    page_id: row.now?.pageId ?? row.pageId,
    title: title(row.now?.pageId ?? row.pageId) || null,
    ...status(row),
    created: { snapshot: row.snapshot, month: row.month, type: row.type },
    question: row.question,
    answer: row.answer,
    old_answer: row.oldAnswer,
    old_text: row.oldText,
    evidence: evidence(row.now),
    provenance: provenance(row.provenance),
  }));
  const byDialogue = new Map<string, TurnRecord[]>();
  for (const turn of turns) byDialogue.set(turn.dialogueId, [...(byDialogue.get(turn.dialogueId) ?? []), turn]);
  for (const [id, rows] of byDialogue) {
    const dialogue = dialogues.get(id) as DialogueRecord;
    records.push({
      kind: 'dialogue',
      id,
      snapshot,
      page_id: rows.find((t) => t.now !== null)?.now?.pageId ?? dialogue.pageId,
      created: { snapshot: dialogue.snapshot, month: dialogue.month, type: dialogue.type, paragraph: dialogue.paragraph },
      turns: rows.map((t) => ({ turn: t.turn, user: t.user, expert: t.expert, created_type: t.type, ...status(t), evidence: evidence(t.now) })),
      provenance: provenance(dialogue.provenance),
    });
  }
  for (const reject of items.rejectsIn(snapshot)) {
    records.push({
      kind: 'reject',
      id: reject.id,
      snapshot,
      page_id: reject.pageId,
      title: reject.title,
      item_kind: reject.kind,
      type: reject.type,
      reason: reject.reason,
      reply: reject.reply,
      provenance: provenance(reject.provenance),
    });
  }
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** The counts of every snapshot with items, up to the given one, in date order. */
export function monthlyCounts(store: Store, lastSnapshot: string): MonthCounts[] {
  const items = store.growover;
  const last = store.snapshots.snapshot(lastSnapshot);
  const counts = (snapshot: string, kind: 'qa' | 'turn', deleted: number) => {
    const result = { unchanged: 0, new: 0, changed: 0, deleted };
    for (const row of items.evidenceTypeCounts(snapshot, kind)) {
      result[row.type === 'initial' ? 'new' : row.type] += row.n;
    }
    return result;
  };
  return items.snapshotsWithItems(last?.asOf ?? lastSnapshot).map((snapshot) => {
    const retired = items.retiredCounts(snapshot);
    return { snapshot, qa: counts(snapshot, 'qa', retired.qa), turns: counts(snapshot, 'turn', retired.turns) };
  });
}

function datasetCard(snapshot: string, months: MonthCounts[], qa: QaRecord[], dialogues: DialogueRecord[], tables: readonly ReleaseTable[]): string {
  const provenances = [...qa, ...dialogues].map((row) => row.provenance);
  const makers = [...new Set(provenances.map((p) => `${p.provider}:${p.model}`))].sort();
  const prompts = [...new Set(provenances.map((p) => `${p.prompt}@${p.promptVersion}`))].sort();
  const offline = makers.some((maker) => maker.startsWith('offline:'));
  const row = (m: MonthCounts) =>
    `| ${m.snapshot} | ${m.qa.unchanged} | ${m.qa.new} | ${m.qa.changed} | ${m.qa.deleted} | ${m.turns.unchanged} | ${m.turns.new} | ${m.turns.changed} | ${m.turns.deleted} |`;
  const frontMatter = cardFrontMatter({
    prettyName: `wikidelta monthly release ${snapshot}`,
    language: ['en'],
    taskCategories: ['question-answering', 'text-generation'],
    taskIds: ['open-domain-qa', 'dialogue-modeling'],
    configs: cardConfigs(tables),
  });
  return `${frontMatter}# wikidelta monthly release ${snapshot}

GrowOVER-style question answering and dialogue items grounded in the Wikipedia snapshot
${snapshot}: items whose evidence sentences stayed unchanged since the previous snapshot are kept
(with their evidence moved to the new sentence indices), the others are removed, and new items are
made from new and changed sentences.

## Files

| file | content |
|---|---|
| \`qa.jsonl\` | GrowOVER's QA format: per line, article id → \`[{id, title, type, generated_month, question, answer, old_answer, grounded_text, start_idx, end_idx}]\`; type SAME (unchanged), NEW, CHANGED; \`id\` is the item's stable id (predictions refer to it), \`old_answer\` the answer before the change, on CHANGED items only |
| \`article_dialogue.jsonl\` | article id → its dialogue ids |
| \`dialogue.jsonl\` | dialogue id → \`{article_id, created_month, last_modified_month, dialogue_type, turn: {number: turn id}}\` (turns active in this snapshot) |
| \`turn.jsonl\` | turn id → \`{dialogue_id, turn_number, user, expert, grounded_sentence, sentence_type, sentence_index, created_month, created_type}\`; sentence_type SAME, NEW, CONTRADICT |
| ${tableFileList(tables, 'rendered')} | the same QA items, dialogues and turns as tables of one row each: QA items with their \`article_id\`; dialogues with \`turn_ids\` (their active turns in order) in place of \`turn\`; turns with \`id\` and \`turn_number\` as a number. The card's configs load these |
| \`native.jsonl\` | every QA item and dialogue active or retired in this snapshot and every rejected generation: evidence indices and text, status with the snapshot and reason of retirement, old and new answers of CHANGED items, provenance (prompt and version, provider, model, seed) |

Indices are sentence indices of the article in this snapshot, as cut by wikidelta's one sentence
splitter. Months in the GrowOVER files are the snapshot's month, as GrowOVER gives them (the year
is in \`native.jsonl\`).

${loadingSection('qa', 'qa')}
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

function monthNumber(month: string): number {
  return Number(month.slice(5, 7));
}

/** Each record checked against its published schema on the way out. */
function jsonLines(records: unknown[], schema: z.ZodType): string {
  return records.map((record) => `${JSON.stringify(schema.parse(record))}\n`).join('');
}

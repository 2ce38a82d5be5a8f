/**
 * The monthly GrowOVER pipeline on three snapshots of the real 30-page sample, as a user runs it:
 * initial items at the first, maintenance and generation from change at the second and third,
 * offline and through the real openai client against the local test server, then the release in
 * GrowOVER's published formats read back with their schemas.
 */
import Sqlite from 'better-sqlite3';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { changedClozeQa, clozeQa, consecutiveDialogue } from '../../src/llm/offlineGrowoverTasks.js';
import { ArticleDialogueLine, DialogueLine, QaLine, TurnLine } from '../../src/release/growoverFormats.js';
import { jsonLines, runCliOk, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { startOpenAiServer, type OpenAiServer } from '../../testkit/openaiServer.js';

const SAMPLE = join(sharedData, 'enwiki-history-sample.xml');
/** 16, 23 and 26 articles; the second pair holds 56 changed sentences (IBM patents, IKEA forests, …). */
const [FIRST, SECOND, THIRD] = ['2020-01-01', '2020-07-01', '2021-07-01'];
const LONG = 600_000;
/** The article whose initial questions the scripted server always answers wrongly. */
const BROKEN_TITLE = 'Atlantic Ocean';

let dir: string;
let base: string;

function copyStore(name: string): string {
  const path = join(dir, name);
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(`${base}${suffix}`)) copyFileSync(`${base}${suffix}`, `${path}${suffix}`);
  return path;
}

function query<T>(db: string, sql: string, ...params: unknown[]): T[] {
  const store = new Sqlite(db, { readonly: true });
  try {
    return store.prepare(sql).all(...params) as T[];
  } finally {
    store.close();
  }
}

function sentence(db: string, snapshot: string, pageId: number, idx: number): string {
  return query<{ text: string }>(db, 'SELECT text FROM snapshot_sentences WHERE snapshot = ? AND page_id = ? AND idx = ?', snapshot, pageId, idx)[0]?.text ?? '';
}

async function runThreeMonths(db: string, llm: string, env: Record<string, string> = {}) {
  await runCliOk(['--db', db, 'monthly', '--new', FIRST, '--llm', llm], { env });
  const second = await runCliOk(['--db', db, 'monthly', '--old', FIRST, '--new', SECOND, '--llm', llm], { env });
  // The labeling comes first, with its time (or skipped, labeled before), as the stages that follow it.
  expect(second.stdout, second.stdout).toMatch(/^ {2}label +done +(\d+\.\d s|\(already done, skipped\)) {2}/m);
  expect(second.stdout).toMatch(/^ {2}generate +done +\d+\.\d s {2}/m);
  await runCliOk(['--db', db, 'monthly', '--old', SECOND, '--new', THIRD, '--llm', llm], { env });
}

interface Evidence {
  item_id: string;
  snapshot: string;
  page_id: number;
  type: string;
  indices: string;
}

/** What the tests assert of a run, whichever provider made the items. */
function checkMaintenance(db: string) {
  const types = query<{ snapshot: string; type: string; n: number }>(db, "SELECT snapshot, type, COUNT(*) AS n FROM growover_evidence WHERE kind = 'qa' GROUP BY 1, 2");
  const count = (snapshot: string, type: string) => types.find((t) => t.snapshot === snapshot && t.type === type)?.n ?? 0;
  expect(count(FIRST, 'initial')).toBeGreaterThan(10);
  expect(count(FIRST, 'unchanged') + count(FIRST, 'new') + count(FIRST, 'changed')).toBe(0);
  for (const later of [SECOND, THIRD]) expect(count(later, 'unchanged')).toBeGreaterThan(10);
  expect(count(SECOND, 'new') + count(THIRD, 'new')).toBeGreaterThan(0);

  // An item whose evidence sentence changed is retired, and the changed sentence yields a CHANGED item with both answers.
  const retired = query<{ id: string; retired_reason: string; page_id: number; indices: string }>(
    db,
    `SELECT q.id, q.retired_reason, e.page_id, e.indices FROM growover_qa q JOIN growover_evidence e ON e.item_id = q.id AND e.snapshot = ?
     WHERE q.retired_snapshot = ? AND q.retired_reason LIKE '%changed%'`,
    SECOND,
    THIRD,
  );
  const replaced = retired.flatMap((item) => {
    const [old] = JSON.parse(item.indices) as number[];
    const label = query<{ idx: number }>(
      db,
      "SELECT idx FROM sentence_labels WHERE old_snapshot = ? AND new_snapshot = ? AND new_page_id = ? AND side = 'new' AND label = 'changed' AND EXISTS (SELECT 1 FROM json_each(old_indices) WHERE value = ?)",
      SECOND,
      THIRD,
      item.page_id,
      old,
    )[0];
    if (!label) return [];
    const changed = query<{ id: string; answer: string; old_answer: string; old_text: string; indices: string }>(
      db,
      "SELECT q.id, q.answer, q.old_answer, q.old_text, e.indices FROM growover_qa q JOIN growover_evidence e ON e.item_id = q.id AND e.snapshot = q.snapshot WHERE q.snapshot = ? AND q.type = 'changed' AND q.page_id = ? AND e.indices = ?",
      THIRD,
      item.page_id,
      JSON.stringify([label.idx]),
    )[0];
    return changed ? [{ item, old: old as number, newIndex: label.idx, changed }] : [];
  });
  expect(replaced.length).toBeGreaterThan(0);
  for (const { item, old, newIndex, changed } of replaced) {
    expect(item.retired_reason).toBe(`evidence sentence ${old} changed`);
    expect(changed.old_text).toBe(sentence(db, SECOND, item.page_id, old));
    expect(changed.old_answer).not.toBe(changed.answer);
    expect(sentence(db, SECOND, item.page_id, old).toLowerCase()).toContain(changed.old_answer.toLowerCase());
    expect(sentence(db, THIRD, item.page_id, newIndex).toLowerCase()).toContain(changed.answer.toLowerCase());
  }

  // An untouched item keeps its evidence text at its new index (the sentence moved: text inserted before it).
  const states = query<Evidence>(db, "SELECT * FROM growover_evidence WHERE kind = 'qa' ORDER BY item_id, snapshot");
  const moved = states.flatMap((state) => {
    const first = states.find((s) => s.item_id === state.item_id && s.snapshot === FIRST);
    if (!first || state.snapshot !== THIRD || state.type !== 'unchanged' || first.indices === state.indices) return [];
    return [{ first, third: state }];
  });
  expect(moved.length).toBeGreaterThan(0);
  const exact = moved.filter(({ first, third }) => {
    const before = (JSON.parse(first.indices) as number[]).map((i) => sentence(db, FIRST, first.page_id, i));
    const after = (JSON.parse(third.indices) as number[]).map((i) => sentence(db, THIRD, third.page_id, i));
    return before.join(' ') === after.join(' ');
  });
  expect(exact.length).toBeGreaterThan(0);
  for (const { third } of exact) {
    const qa = query<{ answer: string; status: string }>(db, 'SELECT answer, status FROM growover_qa WHERE id = ?', third.item_id)[0];
    expect(qa?.status).toBe('active');
    const text = (JSON.parse(third.indices) as number[]).map((i) => sentence(db, THIRD, third.page_id, i)).join(' ');
    expect(text.toLowerCase()).toContain((qa?.answer ?? '').toLowerCase());
  }

  // Dialogues lose turns one by one: a dialogue with a retired turn may keep others.
  const turns = query<{ type: string; n: number }>(db, "SELECT type, COUNT(*) AS n FROM growover_evidence WHERE kind = 'turn' AND snapshot = ? GROUP BY type", THIRD);
  expect(turns.find((t) => t.type === 'unchanged')?.n ?? 0).toBeGreaterThan(10);
}

function readLines<T extends z.ZodType>(path: string, schema: T): Array<z.infer<T>> {
  return jsonLines(readFileSync(path, 'utf8')).map((line) => schema.parse(line));
}

beforeAll(async () => {
  dir = tempDir();
  base = join(dir, 'labeled.sqlite');
  for (const date of [FIRST, SECOND, THIRD]) await runCliOk(['--db', base, 'snapshot', '--name', date, '--dump', SAMPLE, '--as-of', date]);
  // Labels once, shared by both providers' runs (monthly labels only what is not labeled yet).
  await runCliOk(['--db', base, 'label', '--old', FIRST, '--new', SECOND]);
  await runCliOk(['--db', base, 'label', '--old', SECOND, '--new', THIRD]);
}, LONG);

describe('monthly GrowOVER items with the offline provider', () => {
  let db: string;

  it('makes initial items at the first snapshot, keeps, retires and generates at the next two', async () => {
    db = copyStore('offline.sqlite');
    await runThreeMonths(db, 'offline');
    const providers = query<{ provider: string }>(db, 'SELECT DISTINCT provider FROM growover_qa UNION SELECT DISTINCT provider FROM growover_dialogues');
    expect(providers).toEqual([{ provider: 'offline' }]);
    checkMaintenance(db);
  }, LONG);

  it('changes nothing when run again', async () => {
    const count = () =>
      query<{ n: number }>(db, 'SELECT (SELECT COUNT(*) FROM growover_qa) + (SELECT COUNT(*) FROM growover_evidence) + (SELECT COUNT(*) FROM growover_turns) + (SELECT COUNT(*) FROM growover_rejects) AS n')[0]?.n;
    const before = count();
    const result = await runCliOk(['--db', db, 'monthly', '--old', SECOND, '--new', THIRD, '--llm', 'offline']);
    expect(result.stdout).toMatch(/^ {2}label +done +\(already done, skipped\)/m);
    expect(count()).toBe(before);
  }, LONG);

  it("exports the third snapshot's release in GrowOVER's formats, with the monthly table", async () => {
    const out = join(dir, 'release');
    await runCliOk(['--db', db, 'export', 'growover', '--snapshot', THIRD, '--out', out]);
    const qa = readLines(join(out, 'qa.jsonl'), QaLine);
    const items = qa.flatMap((line) => Object.values(line).flat());
    expect(new Set(items.map((item) => item.type))).toEqual(new Set(['SAME', 'NEW', 'CHANGED']));
    for (const item of items) expect(item.grounded_text.toLowerCase()).toContain(item.answer.toLowerCase());
    const active = query<{ n: number }>(db, "SELECT COUNT(*) AS n FROM growover_evidence WHERE snapshot = ? AND kind = 'qa'", THIRD)[0]?.n;
    expect(items).toHaveLength(active as number);

    const dialogues = readLines(join(out, 'dialogue.jsonl'), DialogueLine);
    const turns = readLines(join(out, 'turn.jsonl'), TurnLine);
    const articles = readLines(join(out, 'article_dialogue.jsonl'), ArticleDialogueLine);
    const turnIds = new Set(turns.flatMap((line) => Object.keys(line)));
    for (const line of dialogues) for (const dialogue of Object.values(line)) for (const id of Object.values(dialogue.turn)) expect(turnIds.has(id)).toBe(true);
    expect(articles.flatMap((line) => Object.values(line).flat()).sort()).toEqual(dialogues.flatMap((line) => Object.keys(line)).sort());
    expect(new Set(turns.flatMap((line) => Object.values(line).map((turn) => turn.sentence_type)))).toContain('SAME');

    const native = jsonLines(readFileSync(join(out, 'native.jsonl'), 'utf8'));
    const retired = native.filter((record) => record.kind === 'qa' && record.status === 'retired');
    expect(retired.length).toBeGreaterThan(0);
    expect(native.find((record) => record.kind === 'qa')?.provenance).toMatchObject({ provider: 'offline', seed: '1' });

    const card = readFileSync(join(out, 'README.md'), 'utf8');
    for (const snapshot of [FIRST, SECOND, THIRD]) expect(card).toMatch(new RegExp(`^\\| ${snapshot} \\| \\d+ \\|`, 'm'));
    expect(card).toContain('CC BY-SA');
  }, LONG);
});

describe('monthly GrowOVER items through the openai client and a local server', () => {
  let server: OpenAiServer;

  beforeAll(async () => {
    server = await startOpenAiServer({ script: growoverReplies });
  });
  afterAll(async () => server?.stop());

  it('runs the same three months with replies from the server, an invalid one retried then rejected with its reason', async () => {
    const db = copyStore('openai.sqlite');
    await runThreeMonths(db, 'openai', { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key', WIKIDELTA_LLM_MODEL: 'test-model' });
    const makers = query<{ provider: string; model: string; prompt: string }>(db, 'SELECT DISTINCT provider, model, prompt FROM growover_qa ORDER BY prompt');
    expect(makers).toEqual([
      { provider: 'openai', model: 'test-model', prompt: 'growover-qa-changed' },
      { provider: 'openai', model: 'test-model', prompt: 'growover-qa-initial' },
      { provider: 'openai', model: 'test-model', prompt: 'growover-qa-new' },
    ]);
    expect(query(db, 'SELECT DISTINCT prompt FROM growover_dialogues')).toEqual([{ prompt: 'dialogue' }]);
    checkMaintenance(db);

    const rejects = query<{ reason: string; prompt: string }>(db, "SELECT reason, prompt FROM growover_rejects WHERE title = ? AND type = 'initial' AND kind = 'qa'", BROKEN_TITLE);
    expect(rejects.length).toBeGreaterThan(0);
    for (const reject of rejects) {
      expect(reject.prompt).toBe('growover-qa-initial');
      expect(reject.reason).toMatch(/^invalid reply after 3 attempts: reply does not match the schema/);
    }
    // Each was asked three times: once, then twice more with what was wrong.
    const broken = server.requests.filter((r) => isInitialQa(r.body.messages[0]?.content ?? '') && titleOf(r.body.messages[0]?.content ?? '') === BROKEN_TITLE);
    expect(broken.length).toBe(rejects.length * 3);
    expect(broken.some((r) => r.body.messages.length === 3 && r.body.messages[2]?.content.startsWith('That reply cannot be used'))).toBe(true);
  }, LONG);
});

const INITIAL_QA = 'Write one question that can be answered from this paragraph alone';

function isInitialQa(prompt: string): boolean {
  return prompt.includes(INITIAL_QA);
}

function titleOf(prompt: string): string {
  return /encyclopedia article "(.*)"(?:, split| gained| was changed)/.exec(prompt)?.[1] ?? '';
}

/** A stand-in model for the monthly prompts: it reads the numbered sentences and answers in the asked fields. */
function growoverReplies(prompt: string): Record<string, string> | string | undefined {
  const title = titleOf(prompt);
  const sentences = [...prompt.matchAll(/^\[(\d+)\] (.*)$/gm)].map((m) => ({ index: Number(m[1]), text: m[2] as string }));
  if (isInitialQa(prompt) || prompt.includes('gained the following sentences')) {
    if (isInitialQa(prompt) && title === BROKEN_TITLE) return '{"question": "What?"}';
    const qa = clozeQa({ title, sentences, source: 'initial', context: '' });
    if (!qa.ok) return { question: `What does the article ${title} say?`, answer: 'nothing', first_sentence: '0', last_sentence: '0' };
    return { question: qa.value.question, answer: qa.value.answer, first_sentence: String(qa.value.start), last_sentence: String(qa.value.end) };
  }
  if (prompt.includes('was changed between two versions')) {
    const oldSentence = /Old version of the sentence: (.*)/.exec(prompt)?.[1] ?? '';
    const newSentence = /New version of the sentence: (.*)/.exec(prompt)?.[1] ?? '';
    const changed = changedClozeQa({ title, oldSentence, newSentence });
    if (!changed.ok) return { question: `What changed in ${title}?`, old_answer: 'unknown', new_answer: 'unknown' };
    return { question: changed.value.question, old_answer: changed.value.oldAnswer, new_answer: changed.value.newAnswer };
  }
  const turns = Number(/conversation of (\d+) exchanges/.exec(prompt)?.[1] ?? 0);
  if (turns > 0) {
    const dialogue = consecutiveDialogue({ title, sentences, turns });
    if (!dialogue.ok) return undefined;
    return Object.fromEntries(
      dialogue.value.turns.flatMap((turn, i) => [
        [`user_${i + 1}`, turn.user],
        [`expert_${i + 1}`, turn.expert],
        [`sentence_${i + 1}`, String(turn.sentence)],
      ]),
    );
  }
  return undefined;
}

/**
 * What an audit can sample, read from the store (docs/ARCHITECTURE.md §14): sentence labels of two
 * snapshots, a snapshot's GrowOVER items and dialogues, a week's kept questions, or the predictions an
 * evaluation judged (its directory, with the question and timeline from the store). Each candidate
 * carries its key and stratum, and freezes its content only when drawn, so a large store costs one
 * pass over keys, not a copy of everything.
 */
import type { Database } from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { namedInfobox } from '../../src/content/entityRefs.js';
import { closestSentences, paragraphsHolding, paragraphsNumbered, revisionLinks, timelineAround } from '../../src/audit/freeze.js';
import type { AuditItemContent, ClosestSentences } from '../../src/model/audit.js';
import { windowFrom } from '../../src/dates.js';
import { pairedBefore } from '../../src/diff/infoboxDiff.js';
import { UserError } from '../../src/errors.js';
import type { StoredLabel } from '../../src/model/labels.js';
import { cosine, textHash } from '../../src/models/embedder.js';
import { PUBLISHED_TYPE } from '../../src/release/growoverRelease.js';
import { EmbeddingCache } from '../../src/store/embeddingCache.js';
import { EntityStore } from '../../src/store/entityStore.js';
import { GrowoverStore } from '../../src/store/growoverStore.js';
import { QueryStore, QuestionStore } from '../../src/store/questionStore.js';
import { RevisionReads } from '../../src/store/revisionReads.js';
import { SnapshotStore } from '../../src/store/snapshotStore.js';
import { contentWords, wordOverlap } from '../../src/text/tokens.js';
import { judgeRequest } from '../../src/evaluate/judge.js';
import { JUDGE_VERDICTS, type JudgeMode } from '../../src/model/judge.js';
import { answerInstant, answersOverDays, answerSubject } from '../../src/timeline/answers.js';
import { stateAt, type ValueTimeline } from '../../src/timeline/valueTimeline.js';

export interface Candidate {
  key: string;
  stratum: string;
  freeze(): AuditItemContent;
}

/** The new snapshot's sentence labels (deleted old sentences have no new sentence to judge); stratum: the label. */
export function labelCandidates(db: Database, oldName: string, newName: string): Candidate[] {
  const snapshots = new SnapshotStore(db);
  snapshots.requireSnapshot(oldName);
  snapshots.requireSnapshot(newName);
  const growover = new GrowoverStore(db);
  const pairs = new Map(growover.labeledPairs(oldName, newName).map((pair) => [pair.title, pair]));
  const candidates: Candidate[] = [];
  for (const stored of snapshots.labels(oldName, newName)) {
    const pair = pairs.get(stored.title);
    const label = stored.label;
    if (stored.side !== 'new' || label === 'deleted' || pair === undefined) continue;
    candidates.push({
      key: `${pair.newPageId}:${stored.index}`,
      stratum: label,
      freeze: () => {
        const newSentences = growover.sentences(newName, pair.newPageId);
        const oldSentences = pair.oldPageId === null ? [] : growover.sentences(oldName, pair.oldPageId);
        const paragraph = newSentences.find((sentence) => sentence.index === stored.index)?.paragraph ?? 0;
        const oldTexts = oldSentences.map((sentence) => sentence.text);
        return {
          kind: 'label',
          title: stored.title,
          pageId: pair.newPageId,
          oldSnapshot: oldName,
          newSnapshot: newName,
          sentence: stored.text,
          label,
          matchedOld: stored.oldIndices.map((index) => oldSentences.find((sentence) => sentence.index === index)?.text ?? ''),
          oldParagraph:
            stored.oldIndices.length > 0 ? paragraphsHolding(oldSentences, stored.oldIndices) : paragraphsNumbered(oldSentences, new Set([paragraph])),
          newParagraph: paragraphsNumbered(newSentences, new Set([paragraph])),
          similarity: stored.similarity,
          evidence: stored.evidence,
          // A `new` label claims that no old sentence said it: the judge sees the nearest ones and can search the rest.
          ...(label === 'new' && { oldArticle: pair.oldPageId === null ? null : oldTexts, closestOld: pair.oldPageId === null ? undefined : closestOld(db, stored, oldTexts) }),
        };
      },
    });
  }
  if (candidates.length === 0) throw new UserError('E_NOTHING_TO_AUDIT', `no sentence labels for snapshots ${oldName} → ${newName}: run wikidelta label --old ${oldName} --new ${newName} first`);
  return candidates;
}

/**
 * The old sentences closest to a new one by what the labeler computed: the cosine of its
 * embedder's vectors, read from the store's embedding cache, where it compared the sentence with a
 * model; else (it found no old sentence sharing enough words to ask one) the share of content
 * words in common, its own test.
 */
function closestOld(db: Database, stored: StoredLabel, oldTexts: readonly string[]): ClosestSentences {
  const embedder = stored.step === 'nli' || stored.step === 'llm' ? stored.backend.split('+')[0] : undefined;
  if (embedder !== undefined) {
    const hashes = [stored.text, ...oldTexts].map(textHash);
    const vectors = new EmbeddingCache(db).load(embedder, hashes);
    const own = vectors.get(hashes[0] as string);
    const scored = oldTexts.flatMap((text, i) => {
      const vector = vectors.get(hashes[i + 1] as string);
      return own && vector ? [{ text, similarity: cosine(own, vector) }] : [];
    });
    if (scored.length > 0) return { measure: 'cosine', embedder, sentences: closestSentences(scored) };
  }
  const words = contentWords(stored.text);
  return { measure: 'words', embedder: null, sentences: closestSentences(oldTexts.map((text) => ({ text, similarity: wordOverlap(words, contentWords(text)) }))) };
}

/** The snapshot's active QA items (stratum SAME / NEW / CHANGED) and dialogues (stratum dialogue, one item each). */
export function growoverCandidates(db: Database, snapshot: string): Candidate[] {
  const snapshots = new SnapshotStore(db);
  snapshots.requireSnapshot(snapshot);
  const growover = new GrowoverStore(db);
  const sentencesOf = (pageId: number) => growover.sentences(snapshot, pageId);
  const textOf = (pageId: number, indices: readonly number[]) => {
    const sentences = sentencesOf(pageId);
    return indices.map((index) => sentences.find((sentence) => sentence.index === index)?.text ?? '').join(' ');
  };
  const names = snapshots.snapshotNames();
  const candidates: Candidate[] = [];
  for (const qa of growover.qaAt(snapshot)) {
    const now = qa.now;
    if (now === null) continue;
    const itemType = PUBLISHED_TYPE[now.type];
    // A CHANGED item was made from a sentence changed since the snapshot before the one it was made in.
    const oldSnapshot = names[names.indexOf(qa.snapshot) - 1] ?? null;
    candidates.push({
      key: qa.id,
      stratum: itemType,
      freeze: () => ({
        kind: 'qa',
        itemType,
        title: snapshots.articleTitle(snapshot, now.pageId),
        snapshot,
        question: qa.question,
        answer: qa.answer,
        oldAnswer: itemType === 'CHANGED' ? qa.oldAnswer : null,
        evidence: textOf(now.pageId, now.indices),
        article: paragraphsHolding(sentencesOf(now.pageId), now.indices),
        turns: [],
        ...(itemType === 'CHANGED' ? { oldEvidence: qa.oldText, oldSnapshot } : {}),
      }),
    });
  }
  const turnsByDialogue = new Map<string, Array<{ user: string; expert: string; pageId: number; indices: number[] }>>();
  for (const turn of growover.turnsAt(snapshot)) {
    if (turn.now === null) continue;
    turnsByDialogue.set(turn.dialogueId, [...(turnsByDialogue.get(turn.dialogueId) ?? []), { user: turn.user, expert: turn.expert, pageId: turn.now.pageId, indices: turn.now.indices }]);
  }
  for (const [dialogueId, turns] of turnsByDialogue) {
    const first = turns[0];
    if (first === undefined) continue;
    candidates.push({
      key: dialogueId,
      stratum: 'dialogue',
      freeze: () => {
        const indices = turns.flatMap((turn) => turn.indices);
        return {
          kind: 'qa',
          itemType: 'dialogue',
          title: snapshots.articleTitle(snapshot, first.pageId),
          snapshot,
          question: first.user,
          answer: first.expert,
          oldAnswer: null,
          evidence: textOf(first.pageId, indices),
          article: paragraphsHolding(sentencesOf(first.pageId), indices),
          turns: turns.map((turn) => ({ question: turn.user, answer: turn.expert })),
        };
      },
    });
  }
  if (candidates.length === 0) throw new UserError('E_NOTHING_TO_AUDIT', `no GrowOVER items in snapshot ${snapshot}: run wikidelta monthly --new ${snapshot} first`);
  return candidates;
}

/** The week's kept questions; stratum: the domain. `wiki` may be left out when one wiki has questions that week. */
export function weeklyCandidates(db: Database, week: string, wiki?: string): Candidate[] {
  const window = windowFrom(week, 7);
  const wikis = new QueryStore(db).wikisWithQuestions(window);
  const chosen = wiki ?? wikis[0];
  if (chosen === undefined || !wikis.includes(chosen)) {
    const weeks = new QueryStore(db).keptWeeks().map((start) => start.slice(0, 10));
    const known = weeks.length > 0 ? `weeks with questions: ${weeks.join(', ')}` : `run wikidelta weekly --start ${week} first`;
    throw new UserError('E_NOTHING_TO_AUDIT', `no weekly questions${wiki ? ` of wiki ${wiki}` : ''} in the week of ${week}: ${known}`);
  }
  if (wiki === undefined && wikis.length > 1) throw new UserError('E_WIKI_AMBIGUOUS', `several wikis have questions in the week of ${week} (${wikis.join(', ')}): name one with --wiki`);
  const reads = new RevisionReads(db);
  const entities = new EntityStore(db);
  const kept = new QuestionStore(db, chosen).generatedItems(window).filter((item) => item.kept && item.text !== null);
  if (kept.length === 0) throw new UserError('E_NOTHING_TO_AUDIT', `no kept weekly questions in the week of ${week}`);
  return kept.map((item) => ({
    key: item.id,
    stratum: item.domain ?? 'unclassified',
    freeze: () => {
      // The infobox after is the data unit's, named by select; the one before is named the same way.
      const stored = pairedBefore(reads.infoboxes(item.wiki, item.pageId, item.prevRevId), reads.infoboxes(item.wiki, item.pageId, item.revId), item.template);
      const before = stored && namedInfobox(stored.fields, entities);
      const subject = { wiki: item.wiki, pageId: item.pageId, key: item.key, template: item.template };
      return {
        kind: 'weekly',
        title: item.title,
        week: window.start.slice(0, 10),
        domain: item.domain ?? 'unclassified',
        question: item.text ?? '',
        answer: item.gold,
        key: item.key,
        infoboxBefore: before ? before.values : { ...item.infobox, [item.key]: item.old },
        infoboxAfter: item.infobox,
        keyLabels: { ...before?.keyLabels, ...item.keyLabels },
        firstParagraph: item.firstParagraph,
        timeline: timelineAround(item.timestamp, (instant) => {
          const answer = answerSubject(db, subject, instant);
          return answer.status === 'ok' && answer.valid_from !== null ? { value: answer.answer, validFrom: answer.valid_from, validTo: answer.valid_to } : undefined;
        }),
        revisions: revisionLinks(item.url, item.prevRevId, item.revId, item.timestamp),
      };
    },
  }));
}

const EvaluationReport = z
  .object({
    judge: z.object({ judge: z.string(), model: z.string() }).passthrough().optional(),
    evaluation: z.object({ axis: z.enum(['edit', 'world']).optional() }).passthrough().optional(),
  })
  .passthrough();
const JudgedItem = z
  .object({
    id: z.string(),
    date: z.string(),
    status: z.string(),
    gold: z.string().nullable(),
    prediction: z.string().nullable(),
    judge: z.union([z.object({ relaxed: z.enum(JUDGE_VERDICTS), strict: z.enum(JUDGE_VERDICTS), reason: z.string() }), z.object({ failed: z.string() })]).optional(),
  })
  .passthrough();

/**
 * The judged predictions of an evaluation directory (`evaluate weekly --judge … --out DIR`) that have
 * a reply; stratum: the judge's verdict in `mode`. Each is frozen with what the judge read: the
 * question and the answer's values up to the one in effect, from this store.
 */
export function predictionCandidates(db: Database, dir: string, mode: JudgeMode): Candidate[] {
  const report = EvaluationReport.safeParse(readJson(join(dir, 'report.json')));
  if (!report.success) throw new UserError('E_EVALUATION_INVALID', `${join(dir, 'report.json')}: not an evaluation report`);
  const judge = report.data.judge;
  if (judge === undefined) throw new UserError('E_EVALUATION_INVALID', `${dir}: the evaluation has no judge: run wikidelta evaluate weekly --judge openai --out ${dir}`);
  const name = judge.judge === 'rules' ? 'rules' : `${judge.judge}/${judge.model}`;
  const path = join(dir, 'items.jsonl');
  const axis = report.data.evaluation?.axis ?? 'edit';
  // Whole timelines do not depend on the date read with them: one read serves every frozen item.
  let timelines: Map<string, { query: string; timeline: ValueTimeline }> | undefined;
  const timelineOf = (id: string, date: string) => {
    timelines ??= new Map([...answersOverDays(db, [date], { timelines: true, axis })].map((query) => [query.id, { query: query.query, timeline: query.timeline }]));
    return timelines.get(id);
  };
  const candidates: Candidate[] = [];
  readLines(path).forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = JudgedItem.safeParse(parseJsonLine(line, `${path} line ${index + 1}`));
    if (!parsed.success) throw new UserError('E_EVALUATION_INVALID', `${path} line ${index + 1}: not an evaluated item: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`);
    const item = parsed.data;
    if (item.prediction === null || item.judge === undefined || 'failed' in item.judge) return;
    const verdicts = item.judge;
    const prediction = item.prediction;
    candidates.push({
      key: `${item.id} ${item.date}`,
      stratum: verdicts[mode],
      freeze: () => {
        const held = timelineOf(item.id, item.date);
        if (held === undefined) throw new UserError('E_QUERY_NOT_FOUND', `query ${item.id} is not among this store's kept queries: create the audit on the store the evaluation ${dir} was made with`);
        const value = item.status === 'ok' && item.gold !== null && item.gold !== '' ? item.gold : null;
        const request = judgeRequest({ question: held.query, timeline: held.timeline, state: stateAt(held.timeline, answerInstant(item.date)), value, prediction });
        return { kind: 'prediction', question: request.question, date: item.date, prediction, timeline: [...request.timeline], judge: { name, mode, verdict: verdicts[mode], reason: verdicts.reason } };
      },
    });
  });
  if (candidates.length === 0) throw new UserError('E_NOTHING_TO_AUDIT', `${path}: no judged prediction to audit (every item lacks a reply or a verdict)`);
  return candidates;
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError('E_FILE_UNREADABLE', `cannot read ${path}: give the directory an evaluation wrote (evaluate weekly --judge … --out DIR)`);
  }
  return parseJsonLine(text, path);
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n');
  } catch {
    throw new UserError('E_FILE_UNREADABLE', `cannot read ${path}: give the directory an evaluation wrote (evaluate weekly --judge … --out DIR)`);
  }
}

function parseJsonLine(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UserError('E_EVALUATION_INVALID', `${where}: not valid JSON`);
  }
}

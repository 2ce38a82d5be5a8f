/**
 * GrowOVER items (`audit create --of growover`): a snapshot's QA items (stratum SAME, NEW or
 * CHANGED) and dialogues (one item each), each shown with its evidence marked in the article; a
 * CHANGED item with the old evidence beside the new and the words that changed.
 */
import { z } from 'zod';
import { UserError } from '../../errors.js';
import { PUBLISHED_TYPE } from '../../release/growoverRelease.js';
import type { Store } from '../../store/store.js';
import { splitSentences } from '../../text/sentences.js';
import { paragraphsHolding } from '../freeze.js';
import { highlight, wordDiff } from '../highlight.js';
import { html, type Html } from '../html.js';
import type { AuditItemKind, KindCandidate } from './kind.js';
import { monthlyCommandFor, requireWholeMonth } from '../../runs/monthlyCommand.js';

export const QaContentSchema = z.object({
  kind: z.literal('qa'),
  itemType: z.enum(['SAME', 'NEW', 'CHANGED', 'dialogue']),
  title: z.string(),
  snapshot: z.string(),
  question: z.string(),
  answer: z.string(),
  /** CHANGED: the answer before. */
  oldAnswer: z.string().nullable(),
  /** The evidence sentence(s). */
  evidence: z.string(),
  /** The article text (or the paragraphs) in which the evidence is marked. */
  article: z.string(),
  /** A dialogue's turns, else none. */
  turns: z.array(z.object({ question: z.string(), answer: z.string() })),
  /** CHANGED: the old wording the old answer came from, and its snapshot (older items lack them). */
  oldEvidence: z.string().nullable().optional(),
  oldSnapshot: z.string().nullable().optional(),
});
export type QaContent = z.infer<typeof QaContentSchema>;

const QaParams = z.object({ snapshot: z.string() });
type QaParams = z.infer<typeof QaParams>;

export const qaKind: AuditItemKind<QaContent, QaParams> = {
  name: 'qa',
  source: 'growover',
  noun: 'GrowOVER items',
  content: QaContentSchema,
  params: QaParams,
  flags: { snapshot: { flags: '--snapshot <name>', description: '--of growover: the snapshot whose items to audit' } },
  paramsFromFlags: (flags, need) => ({ snapshot: need(flags.snapshot, '--snapshot') }),
  describe: (params) => `the GrowOVER items of snapshot ${params.snapshot}`,
  candidates: (store, params) => growoverCandidates(store, params.snapshot),
  claim: (content) => (content.itemType === 'dialogue' ? 'Are the questions answered correctly from the article?' : 'Is the answer correct and supported by the evidence?'),
  section: qaView,
  // One box for several turns: the annotator names the turn each right answer is for.
  answerPrompt: (content) =>
    content.itemType === 'dialogue' && content.turns.length > 1 ? { label: `Right answer, turn by turn (1–${content.turns.length})`, placeholder: `${content.turns.length}: the right answer` } : null,
  guidelines: {
    heading: 'Item types',
    examples: [
      { term: 'SAME', meaning: 'the question is answered the same way by the old and new article.', example: 'Q "Who designed the bridge?" A "Joseph Strauss", unchanged.' },
      { term: 'NEW', meaning: 'the question is about information that appeared in the new article.', example: 'Q "When was the station electrified?" A "2021".' },
      { term: 'CHANGED', meaning: 'the answer differs from the old answer, shown beside it.', example: 'Q "What is the population?" A "11,200", old answer "9,800".' },
      { term: 'dialogue', meaning: 'each turn must be answered correctly from the article; one wrong turn makes the item wrong, and its right answer is given with the turn\'s number.', example: 'Turn 1 "Who founded it?" "Ada", turn 2 "When?" "1901".' },
    ],
  },
};

/** The snapshot's active QA items (stratum SAME / NEW / CHANGED) and dialogues (stratum dialogue, one item each). */
function growoverCandidates(store: Store, snapshot: string): Array<KindCandidate<QaContent>> {
  const snapshots = store.snapshots;
  snapshots.requireSnapshot(snapshot);
  const growover = store.growover;
  requireWholeMonth(store, snapshot);
  const sentencesOf = (pageId: number) => growover.sentences(snapshot, pageId);
  const textOf = (pageId: number, indices: readonly number[]) => {
    const sentences = sentencesOf(pageId);
    return indices.map((index) => sentences.find((sentence) => sentence.index === index)?.text ?? '').join(' ');
  };
  const names = snapshots.snapshotNames();
  const candidates: Array<KindCandidate<QaContent>> = [];
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
  if (candidates.length === 0) throw new UserError('E_NOTHING_TO_AUDIT', `no GrowOVER items in snapshot ${snapshot}: run ${monthlyCommandFor(store, snapshot)} first`);
  return candidates;
}

function qaView(item: QaContent): Html {
  return html`<section class="item item-qa">
  <h2><span class="title">${item.title}</span> <small>${item.itemType} · snapshot ${item.snapshot}</small></h2>
  ${item.itemType === 'dialogue' ? dialogueTurns(item) : html`<dl class="qa">
    <dt>Question</dt><dd class="question">${item.question}</dd>
    <dt>Answer</dt><dd class="answer">${item.answer}</dd>
    ${item.oldAnswer === null ? '' : html`<dt>Old answer</dt><dd class="old-answer">${item.oldAnswer}</dd>`}
  </dl>`}
  ${item.itemType === 'CHANGED' && item.oldEvidence ? changedEvidence(item, item.oldEvidence) : html`<div class="evidence"><span class="caption">Evidence</span><p>${item.evidence}</p></div>`}
  <div class="article"><span class="caption">Article, evidence marked</span><div class="scroll"><p>${highlight(item.article, splitSentences(item.evidence), 'cited')}</p></div></div>
</section>`;
}

/** A CHANGED item's old wording beside the new, each answer marked, and the words that changed. */
function changedEvidence(item: QaContent, oldEvidence: string): Html {
  return html`<div class="columns evidence-pair">
    <div class="column old-evidence"><span class="caption">Old evidence${item.oldSnapshot ? ` (${item.oldSnapshot})` : ''} · old answer marked</span><p>${highlight(oldEvidence, item.oldAnswer === null ? [] : [item.oldAnswer], 'old')}</p></div>
    <div class="column new-evidence"><span class="caption">New evidence (${item.snapshot}) · answer marked</span><p>${highlight(item.evidence, [item.answer], 'new')}</p></div>
  </div>
  <div class="diff"><span class="caption">Word diff: old evidence → new evidence</span><p>${wordDiff(oldEvidence, item.evidence)}</p></div>`;
}

function dialogueTurns(item: QaContent): Html {
  const turns = item.turns.length > 0 ? item.turns : [{ question: item.question, answer: item.answer }];
  return html`<ol class="turns">${turns.map((turn) => html`<li><span class="question">${turn.question}</span><span class="answer">${turn.answer}</span></li>`)}</ol>`;
}

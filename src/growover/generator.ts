/**
 * Generation of an article's GrowOVER items through the LLM tasks (docs/ARCHITECTURE.md §7.5): for an article new
 * to the dataset, one QA and one dialogue per chosen paragraph; for a changed article, NEW QA from
 * groups of new sentences, CHANGED QA from changed sentences and dialogues from chosen paragraphs
 * that hold new or changed sentences. Every reply is validated; what fails becomes a reject with
 * its reason. Ids are natural keys (snapshot, page, kind, position), so a replay stores nothing twice.
 */
import type { GrowoverTasks, NumberedSentence } from '../llm/growoverTasks.js';
import type { PromptRef } from '../llm/tasks.js';
import type { Embedder } from '../models/embedder.js';
import { derivedRandom } from '../random.js';
import type { ArticleSentence } from '../model/labels.js';
import { changedPairs, newSentenceGroups, type ChangedPair } from './changeTargets.js';
import type { Provenance } from '../model.js';
import type { ArticleRef, DialogueItem, LabeledSentence, QaItem, Reject, TurnType } from '../model/growover.js';
import { mean, onePerCluster } from './kmeans.js';
import { paragraphsOf, qualifies, type Paragraph } from './paragraphs.js';
import { validateChangedQa, validateDialogue, validateQa } from './validation.js';

/** Paragraphs chosen per article and kind of item (GrowOVER's k = 4). */
const CLUSTERS = 4;
const MIN_TURNS = 3;
const MAX_TURNS = 4;

/** What generating an article's items needs: the LLM tasks, the embedder that clusters paragraphs, the seed and the article. */
export interface GenerationContext {
  tasks: GrowoverTasks;
  embedder: Embedder;
  seed: number;
  article: ArticleRef;
  sentences: ArticleSentence[];
}

/** An article's generated items, and the replies rejected with their reasons. */
export interface Generated {
  qa: QaItem[];
  dialogues: DialogueItem[];
  rejects: Reject[];
}

/**
 * Initial generation: the article has no earlier items. One QA and one dialogue per paragraph chosen
 * (one per embedding cluster of the qualifying paragraphs, up to 4).
 *
 * @returns the valid items and the rejects; a reply that fails validation never throws
 * @throws what the LLM tasks throw for a server that failed past the retries (RemoteError)
 * @example const { qa, dialogues, rejects } = await generateInitial({ tasks: new OfflineGrowoverTasks(), embedder, seed: 1, article, sentences });
 */
export async function generateInitial(context: GenerationContext): Promise<Generated> {
  const candidates = paragraphsOf(context.sentences).filter(qualifies);
  const forQa = await chooseParagraphs(context, candidates, 'qa');
  const forDialogue = await chooseParagraphs(context, candidates.filter((p) => p.sentences.length >= MIN_TURNS), 'dialogue');
  const qa = forQa.map((paragraph) =>
    groundedQa(context, `qa/initial/p${paragraph.number}`, 'initial', numbered(paragraph.sentences), ''),
  );
  const dialogues = forDialogue.map((paragraph) => dialogue(context, paragraph, 'initial', paragraph.sentences, () => 'initial'));
  // Awaited together: a server failing past its retries rejects every request under way, and a rejection
  // no one awaits yet ends the process (a queue worker died of it, leaving its job to no one).
  const [items, turns] = await Promise.all([Promise.all(qa), Promise.all(dialogues)]);
  return collect(items, turns);
}

/**
 * Generation from the labels of a changed article; undecided sentences are never used.
 *
 * @param labels - the labels of the new version's sentences (`labelArticle`'s, as stored)
 * @param oldSentences - the old version's sentences, which CHANGED QA quotes
 * @returns NEW and CHANGED QA and dialogues, and the rejects
 * @throws what the LLM tasks throw for a server that failed past the retries (RemoteError)
 */
export async function generateFromChange(context: GenerationContext, labels: LabeledSentence[], oldSentences: readonly string[]): Promise<Generated> {
  const labelOf = new Map(labels.map((sentence) => [sentence.index, sentence.label]));
  const texts = context.sentences.map((sentence) => sentence.text);
  const newQa = newSentenceGroups(labels).map((group) => {
    const around = [(group[0] as number) - 1, (group.at(-1) as number) + 1].filter((i) => labelOf.get(i) !== undefined);
    const sentences = group.map((index) => ({ index, text: texts[index] as string }));
    return groundedQa(context, `qa/new/s${group[0]}`, 'new', sentences, around.map((i) => texts[i]).join(' '));
  });
  const changedQa = changedPairs(labels).map((pair) => changedItem(context, pair, oldSentences));
  // Observed at once, as generateInitial's are: the paragraphs for dialogues are chosen before it is awaited.
  const qa = Promise.all([...newQa, ...changedQa]);
  qa.catch(() => undefined);
  const touched = paragraphsOf(context.sentences).filter(
    (paragraph) => qualifies(paragraph) && paragraph.sentences.some((s) => labelOf.get(s.index) === 'new' || labelOf.get(s.index) === 'changed'),
  );
  const usable = (paragraph: Paragraph) => paragraph.sentences.filter((s) => labelOf.get(s.index) !== 'undecided');
  const forDialogue = await chooseParagraphs(context, touched.filter((p) => usable(p).length >= MIN_TURNS), 'dialogue');
  const dialogues = forDialogue.map((paragraph) =>
    dialogue(context, paragraph, 'new', usable(paragraph), (index) => (labelOf.get(index) ?? 'new') as TurnType),
  );
  const [items, turns] = await Promise.all([qa, Promise.all(dialogues)]);
  return collect(items, turns);
}

/** Up to CLUSTERS paragraphs, one per k-means cluster of their embeddings (mean of their sentences'). */
async function chooseParagraphs(context: GenerationContext, paragraphs: Paragraph[], kind: string): Promise<Paragraph[]> {
  if (paragraphs.length <= CLUSTERS) return paragraphs;
  const vectors = await Promise.all(paragraphs.map(async (p) => mean(await context.embedder.embed(p.sentences.map((s) => s.text)))));
  return onePerCluster(paragraphs, vectors, CLUSTERS, context.seed, `${context.article.snapshot}/${context.article.pageId}/${kind}`);
}

async function groundedQa(
  context: GenerationContext,
  key: string,
  type: 'initial' | 'new',
  sentences: NumberedSentence[],
  surrounding: string,
): Promise<QaItem | Reject> {
  const id = itemId(context, key);
  const result = await context.tasks.generateGroundedQa({ title: context.article.title, sentences, source: type, context: surrounding });
  const provenance = provenanceOf(context, result.prompt);
  if (!result.ok) return { id, kind: 'qa', type, reason: result.reason, reply: null, provenance };
  const checked = validateQa(result.value, { sentences: context.sentences.map((s) => s.text), allowed: new Set(sentences.map((s) => s.index)) });
  if (!checked.ok) return { id, kind: 'qa', type, reason: checked.reason, reply: result.value, provenance };
  const { question, answer, evidence } = checked.value;
  return { id, type, question, answer, oldAnswer: null, oldText: null, evidence, provenance };
}

async function changedItem(context: GenerationContext, pair: ChangedPair, oldSentences: readonly string[]): Promise<QaItem | Reject> {
  const id = itemId(context, `qa/changed/s${pair.newIndex}`);
  const oldText = pair.oldIndices.map((index) => oldSentences[index] ?? '').join(' ');
  const newText = (context.sentences[pair.newIndex] as ArticleSentence).text;
  const result = await context.tasks.generateChangedQa({ title: context.article.title, oldSentence: oldText, newSentence: newText });
  const provenance = provenanceOf(context, result.prompt);
  if (!result.ok) return { id, kind: 'qa', type: 'changed', reason: result.reason, reply: null, provenance };
  const checked = validateChangedQa(result.value, { oldText, newText });
  if (!checked.ok) return { id, kind: 'qa', type: 'changed', reason: checked.reason, reply: result.value, provenance };
  const { question, oldAnswer, newAnswer } = checked.value;
  return { id, type: 'changed', question, answer: newAnswer, oldAnswer, oldText, evidence: [pair.newIndex], provenance };
}

async function dialogue(
  context: GenerationContext,
  paragraph: Paragraph,
  type: 'initial' | 'new',
  sentences: ArticleSentence[],
  turnType: (index: number) => TurnType,
): Promise<DialogueItem | Reject> {
  const id = itemId(context, `dialogue/p${paragraph.number}`);
  // GrowOVER's dialogues have 3 or 4 turns; which one is drawn per dialogue, within what the paragraph can carry.
  const turns = Math.min(sentences.length, MIN_TURNS + Math.floor(derivedRandom(context.seed, `turns:${id}`).next() * (MAX_TURNS - MIN_TURNS + 1)));
  const result = await context.tasks.generateDialogue({
    title: context.article.title,
    sentences: numbered(sentences),
    turns,
  });
  const provenance = provenanceOf(context, result.prompt);
  if (!result.ok) return { id, kind: 'dialogue', type, reason: result.reason, reply: null, provenance };
  const checked = validateDialogue(result.value, { sentences: context.sentences.map((s) => s.text), allowed: new Set(sentences.map((s) => s.index)) });
  if (!checked.ok) return { id, kind: 'dialogue', type, reason: checked.reason, reply: result.value, provenance };
  return {
    id,
    type,
    paragraph: paragraph.number,
    provenance,
    turns: checked.value.turns.map((turn) => ({ user: turn.user, expert: turn.expert, type: turnType(turn.sentence), evidence: turn.sentence })),
  };
}

function collect(qa: Array<QaItem | Reject>, dialogues: Array<DialogueItem | Reject>): Generated {
  const isReject = (item: QaItem | DialogueItem | Reject): item is Reject => 'reason' in item;
  return {
    qa: qa.filter((item): item is QaItem => !isReject(item)),
    dialogues: dialogues.filter((item): item is DialogueItem => !isReject(item)),
    rejects: [...qa, ...dialogues].filter(isReject),
  };
}

function numbered(sentences: readonly ArticleSentence[]): NumberedSentence[] {
  return sentences.map((sentence) => ({ index: sentence.index, text: sentence.text }));
}

function itemId(context: GenerationContext, key: string): string {
  return `${context.article.snapshot}/${context.article.pageId}/${key}`;
}

function provenanceOf(context: GenerationContext, prompt: PromptRef): Provenance {
  return { prompt: prompt.name, promptVersion: prompt.version, provider: context.tasks.provider, model: context.tasks.model, seed: String(context.seed) };
}

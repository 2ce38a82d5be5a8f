/**
 * The offline provider's GrowOVER tasks: deterministic rules, no model. A QA item is a cloze
 * question over one evidence sentence with a number (preferred: dates and counts are what changes)
 * or a name blanked out; a changed QA blanks the number (else the words) that differ between the
 * old and the new wording; a dialogue walks consecutive sentences, the expert quoting each. Plain, but grounded
 * and checkable, and marked provider "offline" wherever it is stored.
 */
import type {
  ChangedQa,
  ChangedQaRequest,
  Dialogue,
  DialogueRequest,
  GroundedQa,
  GroundedQaRequest,
  GrowoverTasks,
  NumberedSentence,
} from './growoverTasks.js';
import type { PromptRef, TaskResult } from './tasks.js';
import type { Usage } from '../model/llmUsage.js';
import type { Result } from '../result.js';
import { UsageMeter } from './usage.js';

const GROWOVER_RULES: PromptRef = { name: 'offline-growover-rules', version: '1' };

const NUMBER = /(?<![\p{L}\p{N}])\p{N}[\p{N},.]*(?<=\p{N})(?![\p{L}\p{N}])/gu;
/** Runs of capitalised words, allowing "of"/"the"/"de" inside ("University of Nevada"). */
const NAME = /\p{Lu}[\p{L}\p{M}'’-]*(?:\s+(?:(?:of|the|de|del|da|von|van|du|la|le)\s+)?\p{Lu}[\p{L}\p{M}'’-]*)*/gu;
/** Longest difference between two wordings still taken as a short answer. */
const MAX_ANSWER_WORDS = 6;
const FOLLOW_UPS = ['What else is there to know?', 'And what happened next?', 'Is there anything more about that?'];

/**
 * GrowOVER's generation without a model: cloze questions over a number or a name, and dialogues of consecutive sentences.
 *
 * @example await generateInitial({ tasks: new OfflineGrowoverTasks(), embedder, seed: 1, article, sentences })
 */
export class OfflineGrowoverTasks implements GrowoverTasks {
  readonly provider = 'offline';
  readonly model = 'rules-v1';
  private readonly usage = new UsageMeter(this.provider, this.model);

  async generateGroundedQa(request: GroundedQaRequest): Promise<TaskResult<GroundedQa>> {
    return { ...clozeQa(request), prompt: GROWOVER_RULES };
  }

  async generateChangedQa(request: ChangedQaRequest): Promise<TaskResult<ChangedQa>> {
    return { ...changedClozeQa(request), prompt: GROWOVER_RULES };
  }

  async generateDialogue(request: DialogueRequest): Promise<TaskResult<Dialogue>> {
    return { ...consecutiveDialogue(request), prompt: GROWOVER_RULES };
  }

  takeUsage(): Usage {
    return this.usage.take();
  }
}

/**
 * A cloze question over the first number (else the first name other than the title) of the sentences,
 * blanked out; the answer is what was blanked.
 *
 * @returns the question, its answer and the sentence it came from, or why there is none
 */
export function clozeQa(request: GroundedQaRequest): Result<GroundedQa> {
  for (const pattern of [NUMBER, NAME]) {
    for (const sentence of request.sentences) {
      const answer = firstEntity(sentence.text, pattern, request.title);
      if (answer) return { ok: true, value: { question: cloze(request.title, sentence.text, [answer]), answer, start: sentence.index, end: sentence.index } };
    }
  }
  return { ok: false, reason: 'no number or name in the sentences to ask about' };
}

/**
 * A cloze question over what changed between the old and new wording: the first number that differs,
 * else the short stretch of words that replaced another.
 *
 * @returns the question with the new and the old answer, or why the wordings give none
 */
export function changedClozeQa(request: ChangedQaRequest): Result<ChangedQa> {
  const answers = changedNumber(request.oldSentence, request.newSentence) ?? changedWords(request.oldSentence, request.newSentence);
  if (!answers.ok) return answers;
  const { oldAnswer, newAnswer } = answers.value;
  return { ok: true, value: { question: cloze(request.title, request.newSentence, [newAnswer, oldAnswer]), oldAnswer, newAnswer } };
}

/** The first number that differs where both wordings have the same count of numbers (the usual update: a figure or a year). */
function changedNumber(oldSentence: string, newSentence: string): Result<{ oldAnswer: string; newAnswer: string }> | null {
  const olds = [...oldSentence.matchAll(NUMBER)].map((match) => match[0]);
  const news = [...newSentence.matchAll(NUMBER)].map((match) => match[0]);
  if (olds.length !== news.length) return null;
  const at = news.findIndex((number, i) => number !== olds[i] && !oldSentence.includes(number));
  return at < 0 ? null : { ok: true, value: { oldAnswer: olds[at] as string, newAnswer: news[at] as string } };
}

/** The stretch of words between the longest common beginning and end of the two wordings. */
function changedWords(oldSentence: string, newSentence: string): Result<{ oldAnswer: string; newAnswer: string }> {
  const oldWords = oldSentence.split(/\s+/);
  const newWords = newSentence.split(/\s+/);
  // Words compare without their trailing punctuation: "c." at the end and "c" before an addition are the same word.
  const same = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && trimPunctuation(a) === trimPunctuation(b);
  let head = 0;
  while (head < oldWords.length && head < newWords.length && same(oldWords[head], newWords[head])) head++;
  let tail = 0;
  while (tail < oldWords.length - head && tail < newWords.length - head && same(oldWords.at(-1 - tail), newWords.at(-1 - tail))) tail++;
  const oldAnswer = trimPunctuation(oldWords.slice(head, oldWords.length - tail).join(' '));
  const newAnswer = trimPunctuation(newWords.slice(head, newWords.length - tail).join(' '));
  if (oldAnswer === '' || newAnswer === '') return { ok: false, reason: 'the new wording only adds or removes words: no answer replaced another' };
  if (newAnswer.split(' ').length > MAX_ANSWER_WORDS || oldAnswer.split(' ').length > MAX_ANSWER_WORDS) {
    return { ok: false, reason: 'the wordings differ in more than a short answer' };
  }
  return { ok: true, value: { oldAnswer, newAnswer } };
}

/**
 * A dialogue of `request.turns` exchanges: a fixed opening and follow-ups, each answered by the next sentence.
 *
 * @returns the turns, or why there are too few sentences
 */
export function consecutiveDialogue(request: DialogueRequest): Result<Dialogue> {
  const used: NumberedSentence[] = request.sentences.slice(0, request.turns);
  if (used.length < request.turns) return { ok: false, reason: `${request.turns} turns asked for, ${used.length} sentences given` };
  return {
    ok: true,
    value: {
      turns: used.map((sentence, turn) => ({
        user: turn === 0 ? `What can you tell me about ${request.title}?` : (FOLLOW_UPS[(turn - 1) % FOLLOW_UPS.length] as string),
        expert: sentence.text,
        sentence: sentence.index,
      })),
    },
  };
}

/** The first match that is worth asking for: not the sentence's capitalised opening, not part of the title the question names. */
function firstEntity(text: string, pattern: RegExp, title: string): string | null {
  for (const match of text.matchAll(pattern)) {
    if (pattern === NAME && match.index === 0) continue;
    if (title.toLowerCase().includes(match[0].toLowerCase())) continue;
    return match[0];
  }
  return null;
}

function cloze(title: string, sentence: string, answers: string[]): string {
  let blanked = sentence;
  for (const answer of answers) blanked = blanked.split(answer).join('___');
  return `In the article "${title}", what fills the blank: "${blanked.replace(/[.!?]+$/, '')}"?`;
}

function trimPunctuation(text: string): string {
  return text.replace(/^[\s"'“‘(,;:]+|[\s"'”’),;:.]+$/gu, '');
}

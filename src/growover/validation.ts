/**
 * Every generated item is checked here before it is stored (docs/ARCHITECTURE.md §7.5): its shape, its evidence
 * indices (inside the article and among the sentences it was allowed to use) and its answer (found
 * in the evidence by `answerContains`, the rule the weekly check stage uses too). A failure is a
 * reason, stored with the reject.
 */
import { z } from 'zod';
import { failed, ok, type Result } from '../result.js';
import { answerContains, normaliseForMatch } from '../text/normalise.js';

const Text = z.string().trim().min(1);
const Index = z.number().int();

const GeneratedQaSchema = z.object({ question: Text.min(5), answer: Text.max(120), start: Index, end: Index });
const GeneratedChangedQaSchema = z.object({ question: Text.min(5), oldAnswer: Text.max(120), newAnswer: Text.max(120) });
const GeneratedTurnSchema = z.object({ user: Text, expert: Text, sentence: Index });
const GeneratedDialogueSchema = z.object({ turns: z.array(GeneratedTurnSchema).min(3).max(4) });

/** A QA reply's shape: the question, its answer, and the evidence sentences `start`..`end`. */
export type GeneratedQa = z.infer<typeof GeneratedQaSchema>;
/** A CHANGED QA reply's shape: one question, its old and its new answer. */
export type GeneratedChangedQa = z.infer<typeof GeneratedChangedQaSchema>;
/** A dialogue reply's shape: 3 or 4 turns, each citing the sentence it rests on. */
export type GeneratedDialogue = z.infer<typeof GeneratedDialogueSchema>;

/** The article's sentences and the indices this item may cite as evidence. */
export interface EvidenceScope {
  sentences: readonly string[];
  allowed: ReadonlySet<number>;
}

/**
 * Checks an LLM's QA reply: its shape, its evidence range inside the sentences it may cite, its
 * answer found in that evidence and not given away by the question.
 *
 * @param reply - the reply as parsed JSON, unchecked
 * @returns the item with its evidence indices, or the reason it is rejected
 * @example validateQa({ question: 'How many people live in Berlin?', answer: '3.8 million', start: 0, end: 0 }, { sentences: ['Berlin has 3.8 million inhabitants.'], allowed: new Set([0]) }).ok === true
 */
export function validateQa(reply: unknown, scope: EvidenceScope): Result<GeneratedQa & { evidence: number[] }> {
  const parsed = shape(GeneratedQaSchema, reply);
  if (!parsed.ok) return parsed;
  const { start, end, answer, question } = parsed.value;
  if (start > end) return failed(`evidence range ${start}..${end} is reversed`);
  const evidence = range(start, end);
  const outside = checkIndices(evidence, scope);
  if (outside) return failed(outside);
  const text = evidence.map((index) => scope.sentences[index] as string).join(' ');
  if (!answerContains(text, answer)) return failed(`answer "${answer}" is not in the evidence sentences ${start}..${end}`);
  if (answerContains(question, answer)) return failed(`the question gives its answer "${answer}" away`);
  return ok({ ...parsed.value, evidence });
}

/**
 * Checks an LLM's CHANGED QA reply: its shape, the old answer in the old sentence and the new one in
 * the new sentence, the two different, and the new one not given away by the question.
 *
 * @param reply - the reply as parsed JSON, unchecked
 * @param texts - the old sentence(s) and the new sentence
 * @returns the item, or the reason it is rejected
 */
export function validateChangedQa(reply: unknown, texts: { oldText: string; newText: string }): Result<GeneratedChangedQa> {
  const parsed = shape(GeneratedChangedQaSchema, reply);
  if (!parsed.ok) return parsed;
  const { oldAnswer, newAnswer, question } = parsed.value;
  if (!answerContains(texts.oldText, oldAnswer)) return failed(`old answer "${oldAnswer}" is not in the old sentence`);
  if (!answerContains(texts.newText, newAnswer)) return failed(`new answer "${newAnswer}" is not in the new sentence`);
  if (normaliseForMatch(oldAnswer) === normaliseForMatch(newAnswer)) return failed(`old and new answers are the same ("${newAnswer}")`);
  if (answerContains(question, newAnswer)) return failed(`the question gives its answer "${newAnswer}" away`);
  return parsed;
}

/**
 * Checks an LLM's dialogue reply: its shape (3 or 4 turns), each turn citing a different sentence it may cite.
 *
 * @param reply - the reply as parsed JSON, unchecked
 * @returns the dialogue, or the reason it is rejected
 */
export function validateDialogue(reply: unknown, scope: EvidenceScope): Result<GeneratedDialogue> {
  const parsed = shape(GeneratedDialogueSchema, reply);
  if (!parsed.ok) return parsed;
  const cited = parsed.value.turns.map((turn) => turn.sentence);
  const outside = checkIndices(cited, scope);
  if (outside) return failed(outside);
  if (new Set(cited).size !== cited.length) return failed(`turns cite the same sentence twice (${cited.join(', ')})`);
  return parsed;
}

function checkIndices(indices: readonly number[], scope: EvidenceScope): string | null {
  const count = scope.sentences.length;
  const outOfArticle = indices.filter((index) => index < 0 || index >= count);
  if (outOfArticle.length > 0) return `evidence sentence ${outOfArticle.join(', ')} is outside the article (sentences 0..${count - 1})`;
  const notGiven = indices.filter((index) => !scope.allowed.has(index));
  if (notGiven.length > 0) return `evidence sentence ${notGiven.join(', ')} is not among the sentences it was made from`;
  return null;
}

function shape<T>(schema: z.ZodType<T>, reply: unknown): Result<T> {
  const result = schema.safeParse(reply);
  if (result.success) return ok(result.data);
  return failed(`format: ${result.error.issues.map((issue) => `${issue.path.join('.') || 'item'}: ${issue.message}`).join('; ')}`);
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

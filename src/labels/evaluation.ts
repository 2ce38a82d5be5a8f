/**
 * The labeled evaluation set of sentence pairs and the measure of the labeler on it (docs/ARCHITECTURE.md §7.3):
 * each pair is labeled as a one-sentence article pair, by the whole labeler (hash, lexical, similarity,
 * NLI, the optional LLM step), and compared with its expected label. The project's own pairs live in
 * `data/eval/sentence-pairs.jsonl`; pairs from the shared versions sample are kept as references
 * (article, version, line, sentence) and read from `../shared/data/versions-sample` at run time, since
 * shared data is not copied into the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../errors.js';
import type { SentenceLabelName } from '../model/labels.js';
import { splitSentences } from '../text/sentences.js';
import { labelArticle, type LabelerModels } from './labeler.js';

const ExpectedLabel = z.enum(['unchanged', 'changed', 'new']);
type ExpectedLabel = z.infer<typeof ExpectedLabel>;

const OwnPair = z.object({ id: z.string(), old: z.string().min(1), new: z.string().min(1), label: ExpectedLabel }).strict();
const SentenceRef = z.object({ version: z.number().int().min(0), line: z.number().int().min(1), sentence: z.number().int().min(0) }).strict();
const VersionsPair = z.object({ id: z.string(), article: z.string().min(1), old: SentenceRef, new: SentenceRef, label: ExpectedLabel }).strict();

/** One evaluation pair: an old and a new sentence and the label a reviewer gave the new one. */
export interface EvalPair {
  id: string;
  old: string;
  new: string;
  label: ExpectedLabel;
}

/** The labels the labeler gives a sentence, as the confusion matrix's columns. */
export const PREDICTED_LABELS: readonly SentenceLabelName[] = ['unchanged', 'changed', 'new', 'undecided'];
/** The labels an evaluation pair expects, as the confusion matrix's rows. */
export const EXPECTED_LABELS: readonly ExpectedLabel[] = ExpectedLabel.options;

/** The project's pairs and the versions-sample references, resolved against `versionsDir`. */
export function loadEvalPairs(evalDir: string, versionsDir: string): EvalPair[] {
  const own = readJsonLines(join(evalDir, 'sentence-pairs.jsonl'), OwnPair);
  const refs = readJsonLines(join(evalDir, 'versions-sample-pairs.jsonl'), VersionsPair);
  if (refs.length > 0 && !existsSync(versionsDir)) throw new InputError('E_FILE_UNREADABLE', `the versions sample is not at ${versionsDir}: the evaluation reads its pairs from there`);
  // Many pairs cite the same version file: each is read and split into lines once.
  const versionLines = new Map<string, string[]>();
  const sentenceAt = (article: string, ref: z.infer<typeof SentenceRef>, id: string): string => {
    const path = join(versionsDir, article, `${ref.version}.txt`);
    let lines = versionLines.get(path);
    if (!lines) versionLines.set(path, (lines = readFileSync(path, 'utf8').split('\n')));
    const line = lines[ref.line - 1];
    const sentence = line === undefined ? undefined : splitSentences(line)[ref.sentence];
    if (sentence === undefined) throw new InputError('E_LABEL_PAIRS_INVALID', `evaluation pair ${id}: ${path} has no sentence ${ref.sentence} on line ${ref.line}`);
    return sentence;
  };
  return [
    ...own,
    ...refs.map((ref) => ({ id: ref.id, old: sentenceAt(ref.article, ref.old, ref.id), new: sentenceAt(ref.article, ref.new, ref.id), label: ref.label })),
  ];
}

function readJsonLines<T>(path: string, schema: z.ZodType<T>): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, n) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new InputError('E_LABEL_PAIRS_INVALID', `${path} line ${n + 1} is not JSON`);
      }
      const result = schema.safeParse(parsed);
      if (!result.success) throw new InputError('E_LABEL_PAIRS_INVALID', `${path} line ${n + 1}: ${result.error.issues[0]?.message ?? 'invalid'}`);
      return result.data;
    });
}

/** One pair's outcome: the expected and the predicted label, and the labeler's evidence. */
export interface EvalOutcome {
  id: string;
  expected: ExpectedLabel;
  predicted: SentenceLabelName;
  evidence: string | null;
  backend: string;
}

/** The labeler's accuracy on the evaluation pairs: overall, per label, and the confusion matrix. */
export interface EvalReport {
  pairs: number;
  correct: number;
  accuracy: number;
  /** Share of each expected label's pairs labeled as expected. */
  perLabel: Record<ExpectedLabel, { pairs: number; correct: number; accuracy: number }>;
  /** confusion[expected][predicted] = pairs. */
  confusion: Record<ExpectedLabel, Record<SentenceLabelName, number>>;
  /** Changed sentences labeled unchanged: the error that keeps a wrong answer alive. */
  changedAsUnchanged: number;
  outcomes: EvalOutcome[];
}

/**
 * Labels each evaluation pair's new sentence against its old one and counts the outcomes against
 * the expected labels: what `npm run eval:labels` prints.
 *
 * @param pairs - the pairs, e.g. from `loadEvalPairs`
 * @param models - the models to evaluate, as `labelArticle` takes them
 * @returns the accuracy overall and per expected label, the confusion matrix, and every outcome
 * @example formatEvalReport(await evaluateLabels(loadEvalPairs('data/eval', '../shared/data/versions-sample'), { embedder, nli }))
 */
export async function evaluateLabels(pairs: readonly EvalPair[], models: LabelerModels): Promise<EvalReport> {
  const outcomes: EvalOutcome[] = [];
  for (const pair of pairs) {
    const labels = await labelArticle([pair.old], [pair.new], models);
    const label = labels.sentences[0];
    if (!label) throw new Error(`evaluation pair ${pair.id}: no label`);
    outcomes.push({ id: pair.id, expected: pair.label, predicted: label.label, evidence: label.evidence, backend: label.backend });
  }
  const confusion = Object.fromEntries(EXPECTED_LABELS.map((e) => [e, Object.fromEntries(PREDICTED_LABELS.map((p) => [p, 0]))])) as EvalReport['confusion'];
  for (const outcome of outcomes) confusion[outcome.expected][outcome.predicted]++;
  const perLabel = Object.fromEntries(
    EXPECTED_LABELS.map((expected) => {
      const count = outcomes.filter((o) => o.expected === expected).length;
      const correct = confusion[expected][expected];
      return [expected, { pairs: count, correct, accuracy: count === 0 ? 0 : correct / count }];
    }),
  ) as EvalReport['perLabel'];
  const correct = outcomes.filter((o) => o.expected === o.predicted).length;
  return { pairs: outcomes.length, correct, accuracy: outcomes.length === 0 ? 0 : correct / outcomes.length, perLabel, confusion, changedAsUnchanged: confusion.changed.unchanged, outcomes };
}

/** Accuracy per label, overall, and the confusion matrix (rows expected, columns predicted), as text. */
export function formatEvalReport(report: EvalReport): string {
  const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
  const lines = [`overall  ${report.correct}/${report.pairs} ${percent(report.accuracy)}; changed labeled unchanged: ${report.changedAsUnchanged}`];
  for (const expected of EXPECTED_LABELS) {
    const { pairs, correct, accuracy } = report.perLabel[expected];
    lines.push(`${expected.padEnd(9)} ${correct}/${pairs} ${percent(accuracy)}`);
  }
  lines.push('', `expected \\ predicted ${PREDICTED_LABELS.map((p) => p.padStart(10)).join('')}`);
  for (const expected of EXPECTED_LABELS) lines.push(`${expected.padEnd(20)} ${PREDICTED_LABELS.map((p) => String(report.confusion[expected][p]).padStart(10)).join('')}`);
  const wrong = report.outcomes.filter((o) => o.expected !== o.predicted);
  if (wrong.length > 0) lines.push('', 'wrong:', ...wrong.map((o) => `  ${o.id} expected ${o.expected}, got ${o.predicted} (${o.backend}${o.evidence ? `; ${o.evidence}` : ''})`));
  return `${lines.join('\n')}\n`;
}

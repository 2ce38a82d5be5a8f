/**
 * A judge's verdicts on predictions (`audit create --of predictions`): the judged replies of an
 * evaluation directory (weekly or GrowOVER), stratum the judge's verdict, each shown with the
 * answer's dated values up to the one in effect and the verdict proposed: what the judge read, and
 * nothing it did not (its reason would lead the annotator). A wrong verdict takes the right one of
 * the judge's verdicts.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { UserError } from '../../errors.js';
import { judgeRequest } from '../../evaluate/judge.js';
import { JUDGE_MODES, JUDGE_VERDICTS, type JudgeMode, type JudgeVerdicts } from '../../model/judge.js';
import type { TimeAxis } from '../../model/timelines.js';
import type { Store } from '../../store/store.js';
import { answerInstant, answersOverDays } from '../../timeline/answers.js';
import { stateAt, type ValueTimeline } from '../../timeline/valueTimeline.js';
import { dateText, html, type Html } from '../html.js';
import type { AuditItemKind, KindCandidate } from './kind.js';

export const PredictionContentSchema = z.object({
  kind: z.literal('prediction'),
  /** The question and the date it was answered for. */
  question: z.string(),
  date: z.string(),
  /** A system's reply. */
  prediction: z.string(),
  /** The answer's values up to the one in effect (last), as the judge read them. */
  timeline: z.array(z.object({ from: z.string(), to: z.string().nullable(), value: z.string().nullable(), seen: z.boolean() })),
  /** The verdict checked (its reason is not shown). */
  judge: z.object({ name: z.string(), mode: z.enum(JUDGE_MODES), verdict: z.enum(JUDGE_VERDICTS), reason: z.string() }),
});
export type PredictionContent = z.infer<typeof PredictionContentSchema>;

const PredictionParams = z.object({ evaluation: z.string(), mode: z.enum(JUDGE_MODES) });
type PredictionParams = z.infer<typeof PredictionParams>;

export const predictionKind: AuditItemKind<PredictionContent, PredictionParams> = {
  name: 'prediction',
  source: 'predictions',
  noun: "a judge's verdicts on predictions",
  content: PredictionContentSchema,
  params: PredictionParams,
  flags: {
    evaluation: { flags: '--evaluation <dir>', description: '--of predictions: the directory of evaluate weekly|growover --judge … --out DIR' },
    mode: { flags: '--mode <mode>', description: "--of predictions: which of the judge's verdicts to check (FreshEval's modes)", choices: JUDGE_MODES, default: 'relaxed' },
  },
  paramsFromFlags: (flags, need) => ({ evaluation: resolve(need(flags.evaluation, '--evaluation')), mode: z.enum(JUDGE_MODES).parse(flags.mode) }),
  describe: (params) => `the judge's ${params.mode} verdicts of the evaluation in ${params.evaluation}`,
  candidates: (store, params) => predictionCandidates(store, params.evaluation, params.mode),
  claim: (content) =>
    `Is "${content.judge.verdict}" the right verdict on this reply (${content.judge.mode}: ${content.judge.mode === 'strict' ? 'every claim of the reply counts' : 'the primary answer only'})?`,
  section: predictionView,
  guidelines: {
    heading: 'Verdicts on a reply',
    examples: [
      { term: 'correct', meaning: 'the reply gives the value in effect when the question was asked (another name or form of it counts).', example: 'Values 5th (until 2025-01-26), 4th (in effect): reply "They are fourth".' },
      { term: 'outdated', meaning: 'the reply gives a value that held earlier in the list, no longer in effect.', example: 'Values 5th, then 4th (in effect): reply "5th".' },
      { term: 'wrong', meaning: 'anything else: a value not in the list, a refusal to answer a question that has an answer, a hedge between several answers in strict mode.', example: 'Values 5th, 4th: reply "2nd".' },
      { term: 'relaxed / strict', meaning: "FreshEval's modes: relaxed judges the primary answer only; strict also every other claim of the reply.", example: 'Reply "4th, after winning the cup" where no cup was won: correct relaxed, wrong strict.' },
    ],
  },
  choices: (content) => ({ labels: JUDGE_VERDICTS, proposed: content.judge.verdict }),
};

/**
 * The question, the reply and the answer's values with their dates, the one in effect when it was
 * asked marked, then the verdict proposed.
 */
function predictionView(item: PredictionContent): Html {
  const last = item.timeline.length - 1;
  const value = (text: string | null) => (text === null || text === '' ? html`<span class="na">(no value)</span>` : html`${text}`);
  return html`<section class="item item-prediction">
  <h2><span class="title">A system's answer</span> <small>asked on ${dateText(item.date)}</small></h2>
  <dl class="qa">
    <dt>Question</dt><dd class="question">${item.question}</dd>
    <dt>Reply</dt><dd class="answer">${item.prediction === '' ? html`<span class="na">(empty)</span>` : item.prediction}</dd>
  </dl>
  <div class="timeline"><span class="caption">The answer's values, oldest first</span>
  <table><thead><tr><th>from</th><th>until</th><th>value</th></tr></thead>
  <tbody>${item.timeline.map((step, index) => html`<tr${index === last ? html` class="changed"` : ''}><td>${step.from === '' ? html`<span class="na">(not known)</span>` : html`${dateText(step.from.slice(0, 10))}${step.seen ? '' : ' or earlier'}`}</td><td>${index === last ? html`<strong>in effect when asked</strong>` : dateText((step.to ?? '').slice(0, 10))}</td><td>${value(step.value)}</td></tr>`)}</tbody></table></div>
  <p class="proposed">Verdict of the judge (${item.judge.mode}): <strong class="label label-${item.judge.verdict}">${item.judge.verdict}</strong></p>
</section>`;
}

const EvaluationReport = z
  .object({
    judge: z.object({ judge: z.string(), model: z.string() }).passthrough().optional(),
    // A weekly evaluation names its dates and time axis, a GrowOVER one its snapshot and the snapshot's day.
    evaluation: z.object({ axis: z.enum(['edit', 'world']).optional(), snapshot: z.string().optional(), date: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();
const Judgment = z.union([z.object({ relaxed: z.enum(JUDGE_VERDICTS), strict: z.enum(JUDGE_VERDICTS), reason: z.string() }), z.object({ failed: z.string() })]);
const JudgedItem = z
  .object({
    id: z.string(),
    date: z.string(),
    status: z.string(),
    gold: z.string().nullable(),
    prediction: z.string().nullable(),
    judge: Judgment.optional(),
  })
  .passthrough();
/** A line of `evaluate growover --out`: it carries the question and the dated values the judge read. */
const JudgedGrowoverItem = z
  .object({
    id: z.string(),
    question: z.string(),
    timeline: PredictionContentSchema.shape.timeline,
    prediction: z.string().nullable(),
    judge: Judgment.optional(),
  })
  .passthrough();

/** A judged reply of an evaluation directory, and what the annotator is shown of it besides the reply. */
interface JudgedLine {
  key: string;
  prediction: string;
  verdicts: JudgeVerdicts;
  shown: () => Pick<PredictionContent, 'question' | 'date' | 'timeline'>;
}

/** Reads one line of `items.jsonl` (`where`: its file and line); null for an item without a reply or a verdict. */
type LineReader = (raw: unknown, where: string) => JudgedLine | null;

/**
 * The judged predictions of an evaluation directory (`evaluate weekly|growover --judge … --out DIR`)
 * that have a reply; stratum: the judge's verdict in `mode`.
 */
function predictionCandidates(store: Store, dir: string, mode: JudgeMode): Array<KindCandidate<PredictionContent>> {
  const report = EvaluationReport.safeParse(readJson(join(dir, 'report.json')));
  if (!report.success) throw new UserError('E_EVALUATION_INVALID', `${join(dir, 'report.json')}: not an evaluation report`);
  const judge = report.data.judge;
  const evaluation = report.data.evaluation;
  if (judge === undefined) {
    // The predictions file is not recorded, nor a weekly evaluation's scope flags: named as placeholders.
    const evaluate = evaluation?.snapshot === undefined ? 'evaluate weekly --predictions FILE …' : `evaluate growover --snapshot ${evaluation.snapshot} --predictions FILE`;
    throw new UserError('E_EVALUATION_INVALID', `${dir}: the evaluation has no judge: run wikidelta ${evaluate} --judge openai --out ${dir}`);
  }
  const name = judge.judge === 'rules' ? 'rules' : `${judge.judge}/${judge.model}`;
  const readLine = evaluation?.snapshot === undefined ? weeklyLines(store, dir, evaluation?.axis ?? 'edit') : growoverLines(evaluation.date ?? '');
  const path = join(dir, 'items.jsonl');
  const candidates: Array<KindCandidate<PredictionContent>> = [];
  readLines(path).forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${path} line ${index + 1}`;
    const judged = readLine(parseJsonLine(line, where), where);
    if (judged === null) return;
    const verdict = judged.verdicts[mode];
    candidates.push({
      key: judged.key,
      stratum: verdict,
      freeze: () => ({ kind: 'prediction', ...judged.shown(), prediction: judged.prediction, judge: { name, mode, verdict, reason: judged.verdicts.reason } }),
    });
  });
  if (candidates.length === 0) throw new UserError('E_NOTHING_TO_AUDIT', `${path}: no judged prediction to audit (every item lacks a reply or a verdict)`);
  return candidates;
}

/** A weekly evaluation's lines, each frozen with what the judge read: the question and the answer's values up to the one in effect, from this store. */
function weeklyLines(store: Store, dir: string, axis: TimeAxis): LineReader {
  // Whole timelines do not depend on the date read with them: one read serves every frozen item.
  let timelines: Map<string, { query: string; timeline: ValueTimeline }> | undefined;
  const timelineOf = (id: string, date: string) => {
    timelines ??= new Map([...answersOverDays(store, [date], { timelines: true, axis })].map((query) => [query.id, { query: query.query, timeline: query.timeline }]));
    return timelines.get(id);
  };
  return (raw, where) => {
    const item = evaluatedItem(JudgedItem, raw, where);
    if (item.prediction === null || item.judge === undefined || 'failed' in item.judge) return null;
    const prediction = item.prediction;
    return {
      key: `${item.id} ${item.date}`,
      prediction,
      verdicts: item.judge,
      shown: () => {
        const held = timelineOf(item.id, item.date);
        if (held === undefined) throw new UserError('E_QUERY_NOT_FOUND', `query ${item.id} is not among this store's kept queries: create the audit on the store the evaluation ${dir} was made with`);
        const value = item.status === 'ok' && item.gold !== null && item.gold !== '' ? item.gold : null;
        const request = judgeRequest({ question: held.query, timeline: held.timeline, state: stateAt(held.timeline, answerInstant(item.date)), value, prediction });
        return { question: request.question, date: item.date, timeline: [...request.timeline] };
      },
    };
  };
}

/** A GrowOVER evaluation's lines, asked on the snapshot's day (`date`): each carries the question and the dated values the judge read. */
function growoverLines(date: string): LineReader {
  return (raw, where) => {
    const item = evaluatedItem(JudgedGrowoverItem, raw, where);
    if (item.prediction === null || item.judge === undefined || 'failed' in item.judge) return null;
    return { key: item.id, prediction: item.prediction, verdicts: item.judge, shown: () => ({ question: item.question, date, timeline: item.timeline }) };
  };
}

function evaluatedItem<T>(schema: z.ZodType<T>, raw: unknown, where: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new UserError('E_EVALUATION_INVALID', `${where}: not an evaluated item: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError('E_FILE_UNREADABLE', `cannot read ${path}: give the directory an evaluation wrote (evaluate weekly|growover --judge … --out DIR)`);
  }
  return parseJsonLine(text, path);
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n');
  } catch {
    throw new UserError('E_FILE_UNREADABLE', `cannot read ${path}: give the directory an evaluation wrote (evaluate weekly|growover --judge … --out DIR)`);
  }
}

function parseJsonLine(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UserError('E_EVALUATION_INVALID', `${where}: not valid JSON`);
  }
}

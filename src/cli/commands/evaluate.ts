/**
 * `evaluate weekly` and `evaluate growover`: a system's predictions scored against the store's gold
 * through the scoring library (src/evaluate), printed as a summary or as JSON, and optionally
 * written with the per-item scores into a directory, swapped in as a whole. What an evaluation
 * expects comes from its flags (a date, a range of dates, a week, `--after`), never from the file;
 * the system's training cutoff from `--cutoff` or the meta file beside the predictions.
 */
import { Option, type Command } from 'commander';
import { addDays, formatDate, parseDate, weekEvaluationDate } from '../../dates.js';
import { UserError } from '../../errors.js';
import {
  evaluateWeekly,
  growoverScores,
  growoverVerdict,
  GROWOVER_VERDICTS,
  growoverJudgeItem,
  judgeRequest,
  cutoffIn,
  metaPathOf,
  placeOf,
  datedSink,
  type PredictionFeed,
  PredictionJudge,
  readPredictionFile,
  reportJson,
  ThreadedPredictionFile,
  scoreGrowover,
  StoreGold,
  VERDICT_RATES,
  WEEKLY_METRICS,
  weeklyJudgeItem,
  type EvaluationScope,
  type GroupScores,
  type GrowoverReport,
  type ItemJudgment,
  type JudgeItem,
  type JudgeReport,
  type Outside,
  type Prediction,
  type WeeklyEvaluation,
  type WeeklyItemScore,
  type WeeklyReport,
} from '../../evaluate/index.js';
import { pricesOf, SessionTasks } from '../../llm/openTasks.js';
import { spendLine } from '../../llm/usage.js';
import { JUDGE_VERDICTS } from '../../model/judge.js';
import { writeFilesAtomically } from '../../release/atomicFiles.js';
import { addOptions, dateOption, integerOption, refuseUsage, timeAxisOption } from '../options.js';
import type { TimeAxis } from '../../model/timelines.js';
import { withSession, type Session } from '../session.js';
import { requireKeptWeek } from '../keptWeek.js';

interface WeeklyFlags {
  predictions: string;
  time: TimeAxis;
  date?: string;
  from?: string;
  to?: string;
  week?: string;
  after?: string;
  cutoff?: string;
  judge?: JudgeChoice;
  out?: string;
  seed?: number;
}

interface GrowoverFlags {
  predictions: string;
  snapshot: string;
  judge?: JudgeChoice;
  out?: string;
  seed?: number;
}

type JudgeChoice = 'openai' | 'offline';

/** What a GrowOVER evaluation reports besides the scores: the snapshot scored and its day, the day its questions are asked. */
interface GrowoverEvaluation {
  evaluation: { snapshot: string; date: string };
}

/** What an evaluation directory holds, so that `--out` can be run again into its own directory. */
const EVALUATION_ENTRY = /^(report\.json|items\.jsonl)$/;

/** The longest range of dates one evaluation scores (a year of days). */
const MAX_DATES = 366;

export function registerEvaluate(program: Command): void {
  const group = program.command('evaluate').description("score a system's predictions against the stored answers");
  addOptions<WeeklyFlags>(
    group
      .command('weekly')
      .description(
        'EM, F1 (SQuAD) and SM (subset match) of predictions, each the best over the answer and its aliases, and a verdict per prediction (current, outdated with its age, future, wrong), ' +
          'in percent with breakdowns and 95% bootstrap intervals by query. Expected: on each date, every kept query whose answer that day is known (or the queries of --week); a missing prediction counts as wrong',
      ),
    {
      predictions: new Option('--predictions <file>', "JSONL {id, prediction, date?}, RealTimeQA's submission lines {question_id, prediction}, or SQuAD's {id: answer} JSON").makeOptionMandatory(),
      date: dateOption('--date <date>', 'the date answered (YYYY-MM-DD); with --week, default the day after the week'),
      from: dateOption('--from <date>', 'with --to: every date of a range, each line naming its date'),
      to: dateOption('--to <date>', 'the last date of the range (included)'),
      week: dateOption('--week <date>', "only the queries of the week starting that day (YYYY-MM-DD)"),
      after: dateOption('--after <date>', 'score only the items whose answer changed on or after DATE (a change the store saw)'),
      cutoff: dateOption('--cutoff <date>', "the system's training cutoff: scores split before and after it (default: \"cutoff\" of PREDICTIONS.meta.json beside the file)"),
      judge: judgeOption(),
      time: timeAxisOption(),
      seed: integerOption('--seed <n>', 'the bootstrap seed (default: the seed setting)'),
      out: new Option('--out <dir>', 'also write report.json and items.jsonl (per-item scores, verdicts and judgments) into this directory'),
    },
  ).action(async (flags: WeeklyFlags, command: Command) => {
    const scope = evaluationScope(flags, command);
    const cutoff = flags.cutoff ?? cutoffBeside(flags.predictions);
    const defaultDate = scope.dates.length === 1 ? (scope.dates[0] ?? null) : null;
    // Read on a second core from now, while the store is opened and the gold read; each prediction is
    // then paired with the gold held as it is handed over.
    const file = new ThreadedPredictionFile(flags.predictions);
    const feed: PredictionFeed = (sink) => file.read(datedSink(defaultDate, sink, 'with --from and --to each line names its date'));
    try {
      await withSession(command, judgedSession(flags), async (session) => {
        if (scope.week !== null) requireKeptWeek(session.store, scope.week);
        const judge = judgeOf(flags.judge, session);
        const items: Array<{ item: WeeklyItemScore; status: string; gold: string | null; prediction: string | null }> = [];
        const report: WeeklyReport & WeeklyEvaluation & { judge?: JudgeReport } = evaluateWeekly(new StoreGold(session.store), feed, scope, {
          seed: session.settings.seed,
          cutoff,
          ...(flags.out || judge
            ? {
                onItem: (item, scored) => {
                  if (flags.out) items.push({ item, status: scored.gold.status, gold: scored.gold.answer, prediction: scored.prediction });
                  judge?.add(weeklyJudgeItem(scored));
                },
              }
            : {}),
        });
        let judgments: ItemJudgment[] = [];
        if (judge) {
          const judged = await judge.run(session.settings.seed);
          report.judge = judged.report;
          judgments = judged.judgments.length === items.length ? judged.judgments : [];
        }
        if (flags.out) {
          const lines = items.map(({ item, status, gold, prediction }, i) => `${JSON.stringify({ ...item, status, gold, prediction, ...(judgments[i] ? { judge: judgments[i] } : {}) })}\n`);
          writeFilesAtomically(flags.out, new Map([['report.json', `${reportJson(report, 2)}\n`], ['items.jsonl', lines.join('')]]), EVALUATION_ENTRY);
        }
        process.stdout.write(session.json ? `${reportJson(report)}\n` : weeklySummary(report));
      });
    } finally {
      void file.close();
    }
  });
  addOptions<GrowoverFlags>(
    group
      .command('growover')
      .description(
        "EM and F1 for ALL, SAME, NEW, CHANGED and CHANGED_DEL (the old answer of CHANGED items), exactly as GrowOVER's scorer, in percent with 95% bootstrap intervals, and a verdict per prediction (current, outdated: the old answer, wrong)",
      ),
    {
      snapshot: new Option('--snapshot <name>', 'the snapshot whose active QA items are the gold').makeOptionMandatory(),
      predictions: new Option('--predictions <file>', "GrowOVER's results JSON {id: {prediction: {text}}}, or JSONL {id, prediction}").makeOptionMandatory(),
      judge: judgeOption(),
      seed: integerOption('--seed <n>', 'the bootstrap seed (default: the seed setting)'),
      out: new Option('--out <dir>', 'also write report.json and items.jsonl (per-item scores, verdicts, the dated values and judgments) into this directory'),
    },
  ).action(async (flags: GrowoverFlags, command: Command) => {
    const predictions = readAll(flags.predictions);
    await withSession(command, judgedSession(flags), async (session) => {
      const predicted = new Map(predictions.map((p) => [p.id, p.prediction]));
      const cases = new StoreGold(session.store).growoverGold(flags.snapshot).map((gold) => {
        const prediction = predicted.get(gold.id) ?? null;
        predicted.delete(gold.id);
        return { gold, prediction };
      });
      const report: GrowoverReport & GrowoverEvaluation & { judge?: JudgeReport } = {
        ...scoreGrowover(cases, { seed: session.settings.seed, outside: [...predicted.keys()] }),
        evaluation: { snapshot: flags.snapshot, date: session.store.growover.date(flags.snapshot) },
      };
      // What the judge reads and --out writes of each item: made only for them.
      const judged = flags.judge || flags.out ? cases.map(({ gold, prediction }) => growoverJudgeItem(gold, prediction)) : [];
      const judge = judgeOf(flags.judge, session);
      let judgments: ItemJudgment[] = [];
      if (judge) {
        for (const item of judged) judge.add(item);
        const outcome = await judge.run(session.settings.seed);
        report.judge = outcome.report;
        judgments = outcome.judgments;
      }
      if (flags.out) {
        // Each item carries what an audit of the judge shows (audit create --of predictions): the question and the dated values the judge read.
        const items = cases.map(({ gold, prediction }, i) => ({
          id: gold.id,
          type: gold.type,
          question: gold.question,
          answer: gold.answer,
          old_answer: gold.oldAnswer,
          timeline: judgeRequest(judged[i] as JudgeItem).timeline,
          prediction,
          ...growoverScores(prediction ?? '', gold.answer),
          verdict: growoverVerdict(gold, prediction).verdict,
          ...(gold.type === 'CHANGED' ? { old_answer_scores: growoverScores(prediction ?? '', gold.oldAnswer ?? '') } : {}),
          ...(judgments[i] ? { judge: judgments[i] } : {}),
        }));
        writeFilesAtomically(
          flags.out,
          new Map([
            ['report.json', `${reportJson(report, 2)}\n`],
            ['items.jsonl', items.map((item) => `${JSON.stringify(item)}\n`).join('')],
          ]),
          EVALUATION_ENTRY,
        );
      }
      process.stdout.write(session.json ? `${reportJson(report)}\n` : growoverSummary(report));
    });
  });
}

function judgeOption(): Option {
  return new Option(
    '--judge <judge>',
    'also judge every prediction correct, outdated or wrong, relaxed and strict as FreshEval: openai (an LLM through OPENAI_BASE_URL, cached in the store) or offline (the rule-based verdict)',
  ).choices(['openai', 'offline']);
}

/** The session of an evaluation: the LLM judge writes its replies into the store's cache, so it takes the lock like every LLM stage. */
function judgedSession(flags: { judge?: JudgeChoice; seed?: number }) {
  const write = flags.judge === 'openai';
  return { write, flags: { ...(flags.seed === undefined ? {} : { seed: flags.seed }), ...(write ? { llm: 'openai' } : {}) } };
}

/** The judge chosen, or null without --judge. */
function judgeOf(choice: JudgeChoice | undefined, session: Session): PredictionJudge | null {
  if (choice === undefined) return null;
  return new PredictionJudge(choice === 'openai' ? new SessionTasks(session.store, session.settings).judge() : null, pricesOf(session.settings));
}

/** What the evaluation expects, from the flags: one date, a range, or a week's queries on a date. */
function evaluationScope(flags: WeeklyFlags, command: Command): EvaluationScope {
  const week = flags.week ?? null;
  const filters = { ...(flags.after === undefined ? {} : { after: flags.after }), axis: flags.time };
  if ((flags.from === undefined) !== (flags.to === undefined)) refuseUsage(command, '--from and --to go together: the first and the last date of the range');
  if (flags.from !== undefined && flags.date !== undefined) refuseUsage(command, 'give either --date or --from/--to, not both');
  if (flags.from !== undefined && flags.to !== undefined) {
    const first = parseDate(flags.from, '--from date');
    const days = Math.round((parseDate(flags.to, '--to date').getTime() - first.getTime()) / 86_400_000);
    if (days < 0) throw new UserError('E_DATE_RANGE_INVALID', `--to ${flags.to} is before --from ${flags.from}`);
    if (days >= MAX_DATES) throw new UserError('E_DATE_RANGE_INVALID', `--from ${flags.from} --to ${flags.to} spans ${days + 1} dates: at most ${MAX_DATES} in one evaluation`);
    return { dates: Array.from({ length: days + 1 }, (_, day) => formatDate(addDays(first, day))), week, ...filters };
  }
  const date = flags.date ?? (week === null ? null : weekEvaluationDate(week));
  if (date === null) refuseUsage(command, 'say what to evaluate: --date D (every kept query answered that day), --week W (its queries, the day after the week), or --from A --to B');
  return { dates: [date], week, ...filters };
}

/** The cutoff of the meta file beside the predictions, when there is one. */
function cutoffBeside(predictions: string): string | null {
  return cutoffIn(metaPathOf(predictions));
}

function readAll(path: string): Prediction[] {
  const predictions: Prediction[] = [];
  const seen = new Set<string>();
  readPredictionFile(path, (prediction, source, line) => {
    if (seen.has(prediction.id)) throw new UserError('E_PREDICTION_DUPLICATE', `${placeOf(source, line)}: id "${prediction.id}" is predicted twice`);
    seen.add(prediction.id);
    predictions.push(prediction);
  });
  return predictions;
}

const percent = (value: number) => value.toFixed(1);
const interval = ([low, high]: [number, number]) => `[${percent(low)}, ${percent(high)}]`;
/** A group's row; an empty group (a frequency class no item has yet) shows no rate rather than a 0.0 that reads as a score. */
const row = (name: string, s: GroupScores) => {
  const cell = (value: number) => (s.n === 0 ? '—' : percent(value)).padStart(5);
  return `  ${name.padEnd(28)} n=${String(s.n).padStart(6)} (${String(s.queries).padStart(5)} queries)  ${WEEKLY_METRICS.map((m) => `${m.name.toUpperCase()} ${cell(s[m.name])}`).join('  ')}  |  ${VERDICT_RATES.map((v) => `${v} ${cell(s[v])}`).join('  ')}\n`;
};

/** At most SAMPLE ids by name, then how many more. */
function listed(label: string, count: number, sample: readonly string[]): string {
  return count === 0 ? '' : `${label} (${count}): ${sample.join(', ')}${count > sample.length ? `, … and ${count - sample.length} more` : ''}\n`;
}

function outsideLine(outside: Outside): string {
  return listed('predictions the evaluation does not expect, not scored (ids the store does not know, other dates, or queries whose answer the store does not know on the date)', outside.n, outside.sample);
}

function counts(record: Record<string, number>): string {
  return Object.entries(record)
    .map(([key, n]) => `${key}: ${n}`)
    .join(', ');
}

function aliasLine(r: WeeklyReport): string {
  if (r.aliases.items === 0) return '  aliases: no answer scored has aliases in the store\n';
  return `  aliases: ${r.aliases.items} answers have aliases; they raised the score of ${r.aliases.changed} (${WEEKLY_METRICS.map((m) => `${m.name.toUpperCase()} ${r.aliases.by_metric[m.name]}`).join(', ')})\n`;
}

function judgeLines(judge: JudgeReport): string[] {
  // A judge that gave no verdict (every call failed) has no rate: a 0.0 would read as a score.
  const mode = (name: 'relaxed' | 'strict') =>
    `  ${name.padEnd(8)} ${JUDGE_VERDICTS.map((v) => `${v} ${judge[name].n === 0 ? '—' : `${percent(judge[name][v])} ${interval(judge[name].ci[v])}`}`).join('  ')}\n`;
  const agreed = judge.agreement_with_rules;
  const agreement =
    agreed === undefined ? '' : `  the same verdict as the rules, over the replies judged: ${agreed === null ? '—' : `relaxed ${percent(agreed.relaxed)}, strict ${percent(agreed.strict)}`}\n`;
  const asked = judge.prompts === undefined ? '' : `; ${judge.prompts} distinct prompts, ${spendLine(judge)}`;
  return [
    `judge ${judge.judge}: ${judge.description} (prompt ${judge.prompt.name} v${judge.prompt.version}); ${judge.n} answers judged, ${judge.failed} without a verdict${asked}\n`,
    mode('relaxed'),
    mode('strict'),
    agreement,
  ];
}

function weeklySummary(r: WeeklyReport & WeeklyEvaluation & { judge?: JudgeReport }): string {
  const dates = r.evaluation.dates.length > 3 ? `${r.evaluation.dates[0]} … ${r.evaluation.dates.at(-1)} (${r.evaluation.dates.length} dates)` : r.evaluation.dates.join(', ');
  const after = r.evaluation.after ? `, only answers changed on or after ${r.evaluation.after} (${r.before_after ?? 0} others left out)` : '';
  const cutoff = r.by_cutoff;
  const lines = [
    `expected: ${r.evaluation.week === null ? 'every kept query' : `the queries of the week of ${r.evaluation.week}`} on ${dates}${after}\n`,
    `${r.n + r.no_answer.n} items expected: ${r.n} with a value (${r.queries} queries; ${r.scored} predicted) and ${r.no_answer.n} with no value; ${r.missing} missing, counted wrong; ${r.unknown} unknown gold excluded\n`,
    // With no item with a value there is no rate: a 0.0 would read as a score.
    `  ${WEEKLY_METRICS.map((m) => `${m.name.toUpperCase()} ${r.n === 0 ? '—' : `${percent(r[m.name])} ${interval(r.ci[m.name])}`}`).join('  ')}  (percent, 95% bootstrap by query)\n`,
    `  verdicts: ${VERDICT_RATES.map((v) => `${v} ${r.n === 0 ? '—' : `${percent(r[v])} ${interval(r.ci[v])}`}`).join('  ')}\n`,
    r.outdated_detail.n === 0 ? '' : `  outdated answers (${r.outdated_detail.n}): by changes ago ${counts(r.outdated_detail.by_changes_ago)}; by days since the value given last held ${counts(r.outdated_detail.by_age_days)}\n`,
    aliasLine(r),
    `  no-answer gold (verdict no_value): ${r.no_answer.correct}/${r.no_answer.n} said there is no answer${r.empty_gold > 0 ? ` (${r.empty_gold} of them an empty string in the store)` : ''}\n`,
    'by domain\n',
    ...Object.entries(r.by_domain).map(([k, v]) => row(k, v)),
    'by update frequency\n',
    ...Object.entries(r.by_frequency).map(([k, v]) => row(k, v)),
    'by days since the answer last changed (unknown: no change seen)\n',
    ...Object.entries(r.by_days_since_change).map(([k, v]) => row(k, v)),
    'by week of queries\n',
    ...Object.entries(r.by_week).map(([k, v]) => row(k, v)),
    ...(cutoff === undefined
      ? []
      : [`by the system's training cutoff ${cutoff.cutoff} (answers set before it, after it, or in effect since a start not seen)\n`, ...Object.entries(cutoff).flatMap(([k, v]) => (typeof v === 'string' ? [] : [row(k, v)]))]),
    ...(r.judge ? judgeLines(r.judge) : []),
    listed('missing', r.missing, r.missing_sample),
    outsideLine(r.outside),
  ];
  return lines.join('');
}

function growoverSummary(r: GrowoverReport & { judge?: JudgeReport }): string {
  const groups = ['ALL', 'SAME', 'NEW', 'CHANGED', 'CHANGED_DEL'] as const;
  // A group without items (no CHANGED item in a first snapshot) has no rate: a 0.0 would read as a score.
  const lines = groups.map((g) => {
    const empty = r[g].n === 0;
    const rate = (value: number) => (empty ? '—' : percent(value)).padStart(5);
    const ci = (measure: 'em' | 'f1') => (empty ? '' : ` ${interval(r[g].ci[measure])}`);
    return (
      `  ${g.padEnd(12)} n=${String(r[g].n).padStart(6)}  EM ${rate(r[g].em)}${ci('em')}  F1 ${rate(r[g].f1)}${ci('f1')}  |  ` +
      `${GROWOVER_VERDICTS.map((v) => `${v} ${rate(r[g][v])}`).join('  ')}\n`
    );
  });
  lines.push('  (percent, 95% bootstrap over the items; CHANGED_DEL: CHANGED items scored against their old answer, lower is better; outdated: an item answered with its old answer, CHANGED this month or earlier)\n');
  if (r.judge) lines.push(...judgeLines(r.judge));
  lines.push(listed('missing (scored as empty)', r.missing, r.missing_sample));
  lines.push(listed('ids not active in the snapshot, not scored', r.outside.n, r.outside.sample));
  return lines.join('');
}

/**
 * `evaluate weekly` and `evaluate growover`: a system's predictions scored against the store's gold
 * through the scoring library (src/evaluate), printed as a summary or as JSON, and optionally
 * written with the per-item scores into a directory, swapped in as a whole. What an evaluation
 * expects comes from its flags (a date, a range of dates, a week), never from the file.
 */
import type { Command } from 'commander';
import { addDays, formatDate, parseDate, weekEvaluationDate } from '../../dates.js';
import { UserError } from '../../errors.js';
import {
  evaluateWeekly,
  growoverScores,
  PredictionIndex,
  readPredictionFile,
  scoreGrowover,
  StoreGold,
  WEEKLY_METRICS,
  type EvaluationScope,
  type GroupScores,
  type GrowoverReport,
  type Outside,
  type Prediction,
  type WeeklyReport,
} from '../../evaluate/index.js';
import { writeFilesAtomically } from '../../release/atomicFiles.js';
import { dateOption, refuseUsage } from '../options.js';
import { withSession } from '../session.js';

interface WeeklyFlags {
  predictions: string;
  date?: string;
  from?: string;
  to?: string;
  week?: string;
  out?: string;
  seed?: string;
}

interface GrowoverFlags {
  predictions: string;
  snapshot: string;
  out?: string;
  seed?: string;
}

/** What an evaluation directory holds, so that `--out` can be run again into its own directory. */
const EVALUATION_ENTRY = /^(report\.json|items\.jsonl)$/;

/** The longest range of dates one evaluation scores (a year of days). */
const MAX_DATES = 366;

export function registerEvaluate(program: Command): void {
  const group = program.command('evaluate').description("score a system's predictions against the stored answers");
  group
    .command('weekly')
    .description(
      'EM, F1 (SQuAD) and SM (subset match) of JSONL predictions {id, prediction[, date]}, in percent with breakdowns and 95% bootstrap intervals by query. ' +
        'Expected: on each date, every kept query of the weeks begun before it (or of --week); a missing prediction counts as wrong',
    )
    .requiredOption('--predictions <file>', 'JSONL, one {id (or question_id), prediction, date?} per line')
    .addOption(dateOption('--date <date>', 'the date answered (YYYY-MM-DD); with --week, default the day after the week'))
    .addOption(dateOption('--from <date>', 'with --to: every date of a range, each line naming its date'))
    .addOption(dateOption('--to <date>', 'the last date of the range (included)'))
    .addOption(dateOption('--week <date>', "only the queries of the week starting that day (YYYY-MM-DD)"))
    .option('--seed <n>', 'the bootstrap seed (default: the seed setting)')
    .option('--out <dir>', 'also write report.json and items.jsonl (per-item scores) into this directory')
    .action(async (flags: WeeklyFlags, command: Command) => {
      const scope = evaluationScope(flags, command);
      const index = new PredictionIndex();
      readPredictionFile(flags.predictions, index.sink(scope.dates.length === 1 ? (scope.dates[0] ?? null) : null, 'with --from and --to each line names its date'));
      await withSession(command, { write: false, flags: flags.seed === undefined ? {} : { seed: flags.seed } }, (session) => {
        const items: string[] = [];
        const report = evaluateWeekly(new StoreGold(session.db), index, scope, {
          seed: session.settings.seed,
          ...(flags.out ? { onItem: (item, { gold, prediction }) => items.push(`${JSON.stringify({ ...item, status: gold.status, gold: gold.answer, prediction })}\n`) } : {}),
        });
        if (flags.out) writeFilesAtomically(flags.out, new Map([['report.json', `${JSON.stringify(report, null, 2)}\n`], ['items.jsonl', items.join('')]]), EVALUATION_ENTRY);
        process.stdout.write(session.json ? `${JSON.stringify(report)}\n` : weeklySummary(report));
      });
    });
  group
    .command('growover')
    .description("EM and F1 for ALL, SAME, NEW, CHANGED and CHANGED_DEL (the old answer of CHANGED items), exactly as GrowOVER's scorer, in percent with 95% bootstrap intervals")
    .requiredOption('--snapshot <name>', 'the snapshot whose active QA items are the gold')
    .requiredOption('--predictions <file>', "GrowOVER's results JSON {id: {prediction: {text}}}, or JSONL {id, prediction}")
    .option('--seed <n>', 'the bootstrap seed (default: the seed setting)')
    .option('--out <dir>', 'also write report.json and items.jsonl (per-item scores) into this directory')
    .action(async (flags: GrowoverFlags, command: Command) => {
      const predictions = readAll(flags.predictions);
      await withSession(command, { write: false, flags: flags.seed === undefined ? {} : { seed: flags.seed } }, (session) => {
        const predicted = new Map(predictions.map((p) => [p.id, p.prediction]));
        const cases = new StoreGold(session.db).growoverGold(flags.snapshot).map((gold) => {
          const prediction = predicted.get(gold.id) ?? null;
          predicted.delete(gold.id);
          return { gold, prediction };
        });
        if (cases.length === 0) throw new UserError(`nothing to score: no QA item is active in snapshot "${flags.snapshot}" (run wikidelta monthly first)`);
        const report = scoreGrowover(cases, { seed: session.settings.seed, outside: [...predicted.keys()] });
        if (flags.out) {
          const items = cases.map(({ gold, prediction }) => ({
            id: gold.id,
            type: gold.type,
            answer: gold.answer,
            old_answer: gold.oldAnswer,
            prediction,
            ...growoverScores(prediction ?? '', gold.answer),
            ...(gold.type === 'CHANGED' ? { old_answer_scores: growoverScores(prediction ?? '', gold.oldAnswer ?? '') } : {}),
          }));
          writeFilesAtomically(
            flags.out,
            new Map([
              ['report.json', `${JSON.stringify(report, null, 2)}\n`],
              ['items.jsonl', items.map((item) => `${JSON.stringify(item)}\n`).join('')],
            ]),
            EVALUATION_ENTRY,
          );
        }
        process.stdout.write(session.json ? `${JSON.stringify(report)}\n` : growoverSummary(report));
      });
    });
}

/** What the evaluation expects, from the flags: one date, a range, or a week's queries on a date. */
function evaluationScope(flags: WeeklyFlags, command: Command): EvaluationScope {
  const week = flags.week ?? null;
  if ((flags.from === undefined) !== (flags.to === undefined)) refuseUsage(command, '--from and --to go together: the first and the last date of the range');
  if (flags.from !== undefined && flags.date !== undefined) refuseUsage(command, 'give either --date or --from/--to, not both');
  if (flags.from !== undefined && flags.to !== undefined) {
    const first = parseDate(flags.from, '--from date');
    const days = Math.round((parseDate(flags.to, '--to date').getTime() - first.getTime()) / 86_400_000);
    if (days < 0) throw new UserError(`--to ${flags.to} is before --from ${flags.from}`);
    if (days >= MAX_DATES) throw new UserError(`--from ${flags.from} --to ${flags.to} spans ${days + 1} dates: at most ${MAX_DATES} in one evaluation`);
    return { dates: Array.from({ length: days + 1 }, (_, day) => formatDate(addDays(first, day))), week };
  }
  const date = flags.date ?? (week === null ? null : weekEvaluationDate(week));
  if (date === null) refuseUsage(command, 'say what to evaluate: --date D (every kept query answered that day), --week W (its queries, the day after the week), or --from A --to B');
  return { dates: [date], week };
}

function readAll(path: string): Prediction[] {
  const predictions: Prediction[] = [];
  const seen = new Set<string>();
  readPredictionFile(path, (prediction, where) => {
    if (seen.has(prediction.id)) throw new UserError(`${where}: id "${prediction.id}" is predicted twice`);
    seen.add(prediction.id);
    predictions.push(prediction);
  });
  if (predictions.length === 0) throw new UserError(`${path} holds no predictions`);
  return predictions;
}

const percent = (value: number) => value.toFixed(1);
const interval = ([low, high]: [number, number]) => `[${percent(low)}, ${percent(high)}]`;
const row = (name: string, s: GroupScores) =>
  `  ${name.padEnd(28)} n=${String(s.n).padStart(6)} (${String(s.queries).padStart(5)} queries)  ${WEEKLY_METRICS.map((m) => `${m.name.toUpperCase()} ${percent(s[m.name]).padStart(5)}`).join('  ')}\n`;

/** At most SAMPLE ids by name, then how many more. */
function listed(label: string, count: number, sample: readonly string[]): string {
  return count === 0 ? '' : `${label} (${count}): ${sample.join(', ')}${count > sample.length ? `, … and ${count - sample.length} more` : ''}\n`;
}

function outsideLine(outside: Outside): string {
  return listed('predictions the evaluation does not expect, not scored (ids the store does not know, or other dates)', outside.n, outside.sample);
}

function weeklySummary(r: WeeklyReport & { evaluation: { dates: string[]; week: string | null } }): string {
  const dates = r.evaluation.dates.length > 3 ? `${r.evaluation.dates[0]} … ${r.evaluation.dates.at(-1)} (${r.evaluation.dates.length} dates)` : r.evaluation.dates.join(', ');
  const lines = [
    `expected: ${r.evaluation.week === null ? 'every kept query' : `the queries of the week of ${r.evaluation.week}`} on ${dates}\n`,
    `${r.n} answers scored over ${r.queries} queries (${r.scored} predicted, ${r.missing} missing counted wrong); ${r.unknown} unknown gold excluded\n`,
    `  ${WEEKLY_METRICS.map((m) => `${m.name.toUpperCase()} ${percent(r[m.name])} ${interval(r.ci[m.name])}`).join('  ')}  (percent, 95% bootstrap by query)\n`,
    `  no-answer gold: ${r.no_answer.correct}/${r.no_answer.n} said there is no answer${r.empty_gold > 0 ? ` (${r.empty_gold} of them an empty string in the store)` : ''}\n`,
    'by domain\n',
    ...Object.entries(r.by_domain).map(([k, v]) => row(k, v)),
    'by update frequency\n',
    ...Object.entries(r.by_frequency).map(([k, v]) => row(k, v)),
    'by days since the answer last changed\n',
    ...Object.entries(r.by_days_since_change).map(([k, v]) => row(k, v)),
    'by week of queries\n',
    ...Object.entries(r.by_week).map(([k, v]) => row(k, v)),
    listed('missing', r.missing, r.missing_sample),
    outsideLine(r.outside),
  ];
  return lines.join('');
}

function growoverSummary(r: GrowoverReport): string {
  const groups = ['ALL', 'SAME', 'NEW', 'CHANGED', 'CHANGED_DEL'] as const;
  const lines = groups.map(
    (g) => `  ${g.padEnd(12)} n=${String(r[g].n).padStart(6)}  EM ${percent(r[g].em).padStart(5)} ${interval(r[g].ci.em)}  F1 ${percent(r[g].f1).padStart(5)} ${interval(r[g].ci.f1)}\n`,
  );
  lines.push('  (percent, 95% bootstrap over the items; CHANGED_DEL: CHANGED items scored against their old answer, lower is better)\n');
  lines.push(listed('missing (scored as empty)', r.missing, r.missing_sample));
  lines.push(listed('ids not active in the snapshot, not scored', r.outside.n, r.outside.sample));
  return lines.join('');
}

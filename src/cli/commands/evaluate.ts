/**
 * `evaluate weekly` and `evaluate growover`: a system's predictions scored against the store's gold
 * through the scoring library (src/evaluate), printed as a summary or as JSON, and optionally
 * written with the per-item scores into a directory, swapped in as a whole.
 */
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { UserError } from '../../errors.js';
import {
  growoverCasesFromStore,
  growoverScores,
  parsePredictions,
  scoreGrowover,
  scoreWeekly,
  weeklyCasesFromStore,
  weeklyItemScore,
  type GroupScores,
  type GrowoverReport,
  type Prediction,
  type WeeklyReport,
} from '../../evaluate/index.js';
import { writeFilesAtomically } from '../../release/atomicFiles.js';
import { dateOption, timeAxisOption } from '../options.js';
import type { TimeAxis } from '../../timeline/answers.js';
import { withSession } from '../session.js';

interface WeeklyFlags {
  predictions: string;
  time: TimeAxis;
  date?: string;
  out?: string;
  seed?: string;
}

interface GrowoverFlags {
  predictions: string;
  snapshot: string;
  out?: string;
}

export function registerEvaluate(program: Command): void {
  const group = program.command('evaluate').description("score a system's predictions against the stored answers");
  group
    .command('weekly')
    .description('EM, F1 (SQuAD) and SM (subset match) of JSONL predictions {id, prediction[, date]} against the answers on a date, with breakdowns and 95% bootstrap intervals')
    .requiredOption('--predictions <file>', 'JSONL, one {id (or question_id), prediction, date?} per line')
    .addOption(dateOption('--date <date>', 'the date the predictions answer for (YYYY-MM-DD); a "date" on a line wins'))
    .addOption(timeAxisOption())
    .option('--seed <n>', 'the bootstrap seed (default: the seed setting)')
    .option('--out <dir>', 'also write report.json and items.jsonl (per-item scores) into this directory')
    .action(async (flags: WeeklyFlags, command: Command) => {
      const predictions = readPredictions(flags.predictions);
      await withSession(command, { write: false, flags: flags.seed === undefined ? {} : { seed: flags.seed } }, (session) => {
        const { cases, unknownIds } = weeklyCasesFromStore(session.db, predictions, flags.date ?? null, flags.time);
        if (cases.length === 0) throw new UserError(`no prediction in ${flags.predictions} names a query the store holds`);
        const report = scoreWeekly(cases, { seed: session.settings.seed, unknownIds });
        if (flags.out) {
          const items = cases.map((c) => ({ ...weeklyItemScore(c), status: c.gold.status, gold: c.gold.answer, prediction: c.prediction }));
          writeFilesAtomically(flags.out, new Map([
            ['report.json', `${JSON.stringify(report, null, 2)}\n`],
            ['items.jsonl', items.map((item) => `${JSON.stringify(item)}\n`).join('')],
          ]));
        }
        process.stdout.write(session.json ? `${JSON.stringify(report)}\n` : weeklySummary(report));
      });
    });
  group
    .command('growover')
    .description("EM and F1 for ALL, SAME, NEW, CHANGED and CHANGED_DEL (the old answer of CHANGED items), exactly as GrowOVER's scorer")
    .requiredOption('--snapshot <name>', 'the snapshot whose active QA items are the gold')
    .requiredOption('--predictions <file>', "GrowOVER's results JSON {id: {prediction: {text}}}, or JSONL {id, prediction}")
    .option('--out <dir>', 'also write report.json and items.jsonl (per-item scores) into this directory')
    .action(async (flags: GrowoverFlags, command: Command) => {
      const predictions = readPredictions(flags.predictions);
      await withSession(command, { write: false }, (session) => {
        const { cases, unknownIds } = growoverCasesFromStore(session.db, flags.snapshot, predictions);
        if (cases.length === 0) throw new UserError(`no active QA items in snapshot "${flags.snapshot}": run wikidelta monthly first`);
        const report = scoreGrowover(cases, unknownIds);
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
          writeFilesAtomically(flags.out, new Map([
            ['report.json', `${JSON.stringify(report, null, 2)}\n`],
            ['items.jsonl', items.map((item) => `${JSON.stringify(item)}\n`).join('')],
          ]));
        }
        process.stdout.write(session.json ? `${JSON.stringify(report)}\n` : growoverSummary(report));
      });
    });
}

function readPredictions(path: string): Prediction[] {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UserError(`cannot read predictions ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const predictions = parsePredictions(content, path);
  if (predictions.length === 0) throw new UserError(`${path} holds no predictions`);
  return predictions;
}

const percent = (value: number) => (100 * value).toFixed(1);
const row = (name: string, s: GroupScores) => `  ${name.padEnd(28)} n=${String(s.n).padStart(6)}  EM ${percent(s.em).padStart(5)}  F1 ${percent(s.f1).padStart(5)}  SM ${percent(s.sm).padStart(5)}\n`;

function weeklySummary(r: WeeklyReport): string {
  const lines = [
    `${r.n} answers scored (${r.scored} predicted, ${r.missing} missing counted wrong); ${r.unknown} unknown gold excluded\n`,
    `  EM ${percent(r.em)} [${r.ci.em.map(percent).join(', ')}]  F1 ${percent(r.f1)} [${r.ci.f1.map(percent).join(', ')}]  SM ${percent(r.sm)} [${r.ci.sm.map(percent).join(', ')}]  (95% bootstrap)\n`,
    `  no-answer gold: ${r.no_answer.correct}/${r.no_answer.n} said there is no answer\n`,
    'by domain\n',
    ...Object.entries(r.by_domain).map(([k, v]) => row(k, v)),
    'by update frequency\n',
    ...Object.entries(r.by_frequency).map(([k, v]) => row(k, v)),
    'by days since the answer last changed\n',
    ...Object.entries(r.by_days_since_change).map(([k, v]) => row(k, v)),
    'by week of queries\n',
    ...Object.entries(r.by_week).map(([k, v]) => row(k, v)),
  ];
  if (r.missing_ids.length > 0) lines.push(`missing: ${r.missing_ids.join(' ')}\n`);
  if (r.unknown_ids.length > 0) lines.push(`ids the store does not know (not scored): ${r.unknown_ids.join(' ')}\n`);
  return lines.join('');
}

function growoverSummary(r: GrowoverReport): string {
  const groups = ['ALL', 'SAME', 'NEW', 'CHANGED', 'CHANGED_DEL'] as const;
  const lines = groups.map((g) => `  ${g.padEnd(12)} n=${String(r[g].n).padStart(6)}  EM ${percent(r[g].em).padStart(5)}  F1 ${percent(r[g].f1).padStart(5)}\n`);
  lines.push('  (CHANGED_DEL: CHANGED items scored against their old answer; lower is better)\n');
  if (r.missing_ids.length > 0) lines.push(`missing (scored as empty): ${r.missing_ids.join(' ')}\n`);
  if (r.unknown_ids.length > 0) lines.push(`ids not active in the snapshot (not scored): ${r.unknown_ids.join(' ')}\n`);
  return lines.join('');
}

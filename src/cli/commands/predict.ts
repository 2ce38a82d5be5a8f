import { Option, type Command } from 'commander';
import { pricesOf, SessionTasks } from '../../llm/openTasks.js';
import { commandSpend, spendLine } from '../../llm/usage.js';
import type { BaselineTasks } from '../../llm/baselineTasks.js';
import { predictionLines, type BaselinePredictions } from '../../evaluate/predictBaseline.js';
import { GROWOVER_SYSTEMS, predictGrowover, type GrowoverSystem } from '../../evaluate/predictGrowover.js';
import { predictWeekly, WEEKLY_SYSTEMS, type WeeklySystem } from '../../evaluate/predictWeekly.js';
import { writeFileAtomically } from '../../release/atomicFiles.js';
import { weekEvaluationDate } from '../../dates.js';
import { addOptions, dateOption, llmOption, refuseUsage, snapshotNameOption, timeAxisOption, type OptionsOf } from '../options.js';
import type { TimeAxis } from '../../model/timelines.js';
import { withSession, type Session } from '../session.js';
import { UserError } from '../../errors.js';
import { requireKeptWeek } from '../keptWeek.js';

/** What both baselines' commands read. */
interface PredictFlags {
  system: string;
  out: string;
  llm?: string;
}

/** The options both commands end with (their systems differ). */
function predictOutputOptions(): OptionsOf<Omit<PredictFlags, 'system'>> {
  return {
    out: new Option('--out <file>', 'the predictions file to write (JSONL)').makeOptionMandatory(),
    llm: llmOption(),
  };
}

interface PredictWeeklyFlags extends PredictFlags {
  system: WeeklySystem;
  date?: string;
  week?: string;
  time: TimeAxis;
}

interface PredictGrowoverFlags extends PredictFlags {
  system: GrowoverSystem;
  snapshot: string;
}

/**
 * `predict weekly|growover`: a baseline's predictions as the JSONL `{id, prediction}` file `evaluate`
 * reads. Model replies are cached in the store, so a run stopped half-way and started again asks
 * only what it had not been answered.
 */
export function registerPredict(program: Command): void {
  const predict = program.command('predict').description("write a baseline system's predictions (JSONL {id, prediction}) for evaluate and the leaderboard");
  addOptions<PredictWeeklyFlags>(
    predict
      .command('weekly')
      .description('answer every kept query whose answer on DATE is known (or the queries of one --week) as of DATE: closed-book ("Today is DATE." and the question) or golden-doc (the article\'s infobox and first paragraph as of DATE; on world time, its latest known revision showing what held on DATE)'),
    {
      system: new Option('--system <name>', 'the baseline').choices([...WEEKLY_SYSTEMS]).makeOptionMandatory(),
      date: dateOption('--date <date>', 'the date the answers are for (YYYY-MM-DD, 00:00 UTC); default with --week: the day after the week'),
      week: dateOption('--week <start>', "only the queries of the week starting that day (YYYY-MM-DD), as evaluate --week scores them"),
      time: timeAxisOption(),
      ...predictOutputOptions(),
    },
  ).action(async (flags: PredictWeeklyFlags, command: Command) => {
    // DailyQA answers a week's queries on the day after the week.
    const date = flags.date ?? (flags.week !== undefined ? weekEvaluationDate(flags.week) : refuseUsage(command, "required option '--date <date>' not specified (or give --week)"));
    const expected = `${flags.week === undefined ? 'no kept query' : `no query of the week of ${flags.week}`} has a known answer on ${date}`;
    await predictInto(command, flags, expected, (session, tasks) => {
      if (flags.week !== undefined) requireKeptWeek(session.store, flags.week);
      return predictWeekly(session.store, tasks, flags.system, date, { ...(flags.week === undefined ? {} : { week: flags.week }), axis: flags.time });
    });
  });
  addOptions<PredictGrowoverFlags>(
    predict
      .command('growover')
      .description("answer every QA item active in SNAPSHOT as of the snapshot's date: closed-book (the date and the question) or evidence (the item's evidence sentences)"),
    {
      system: new Option('--system <name>', 'the baseline').choices([...GROWOVER_SYSTEMS]).makeOptionMandatory(),
      snapshot: snapshotNameOption('--snapshot <name>', 'the snapshot whose items are answered').makeOptionMandatory(),
      ...predictOutputOptions(),
    },
  ).action(async (flags: PredictGrowoverFlags, command: Command) => {
    await predictInto(command, flags, `no QA item is active in snapshot "${flags.snapshot}"`, (session, tasks) => predictGrowover(session.store, tasks, flags.system, flags.snapshot));
  });
}

async function predictInto(command: Command, flags: PredictFlags, nothingExpected: string, predict: (session: Session, tasks: BaselineTasks) => Promise<BaselinePredictions>): Promise<void> {
  // The store is written (the reply cache), so the command takes the lock like every LLM stage.
  await withSession(command, { write: true, flags: { llm: flags.llm } }, async (session) => {
    const tasks = new SessionTasks(session.store, session.settings).baseline();
    const outcome = await predict(session, tasks);
    // An empty file would be refused by evaluate and the leaderboard: say so now, with nothing written.
    if (outcome.predictions.length === 0) throw new UserError('E_NOTHING_TO_SCORE', `nothing to predict: ${nothingExpected}; ${flags.out} not written`);
    writeFileAtomically(flags.out, predictionLines(outcome.predictions));
    // Not a run, so nothing records its usage: the command says what it spent.
    const spend = commandSpend(tasks.takeUsage(), pricesOf(session.settings));
    const summary = {
      out: flags.out,
      system: flags.system,
      provider: tasks.provider,
      model: tasks.model,
      predictions: outcome.predictions.length,
      failed: outcome.failed,
      without_reference: outcome.withoutReference,
      ...spend,
    };
    if (session.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
    else
      process.stdout.write(
        `${summary.predictions} predictions (${flags.system}, ${tasks.provider}/${tasks.model}) written to ${flags.out}: ` +
          `${summary.failed} failed, ${summary.without_reference} without a reference; ${spendLine(spend)}\n`,
      );
  });
}

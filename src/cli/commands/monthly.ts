import { Option, type Command } from 'commander';
import { monthsDue, runMonthly } from '../../../pipelines/monthly.js';
import { lastCompleteMonth } from '../../dates.js';
import { llmRunParam, pricesOf, SessionTasks } from '../../llm/openTasks.js';
import { modelOptions, modelsFrom, withLabelLlm, type ModelFlags } from '../modelOptions.js';
import { addOptions, integerOption, listOption, refuseUsage } from '../options.js';
import { withSession, type GlobalFlags } from '../session.js';
import { QUEUE_OPTION_HELP, queueOptions, queueRunnerFor, requireQueue, type QueueFlags } from '../queueOption.js';

interface MonthlyFlags extends ModelFlags, QueueFlags {
  old?: string;
  new?: string;
  lastMonth?: boolean;
  seed?: number;
  redo?: string[];
}

/** `monthly`: label (when not yet done), maintain and generate GrowOVER items for a new snapshot. */
export function registerMonthly(program: Command): void {
  addOptions<MonthlyFlags>(
    program
      .command('monthly')
      .description('the monthly (GrowOVER) pipeline: label the new snapshot against the old one, keep items whose evidence is unchanged, generate new ones; without --old, initial generation for a first snapshot'),
    {
      old: new Option('--old <name>', 'the previous snapshot (omit for the first one)'),
      new: new Option('--new <name>', 'the new snapshot; or --last-month'),
      lastMonth: new Option('--last-month', 'for cron: the new snapshot is the last complete month\'s (YYYY-MM, made by snapshot --last-month), the old one the latest earlier YYYY-MM snapshot in the store (none: initial generation); month snapshots after the latest month whose items the store holds are run first, in order'),
      redo: listOption('--redo <list>', 'stages to run again although done (maintain, generate); a done stage whose inputs were made again since runs again by itself'),
      seed: integerOption('--seed <n>', 'seed for paragraph clustering and choices (default: setting seed, 1)'),
      ...queueOptions(QUEUE_OPTION_HELP),
      ...modelOptions(),
    },
  ).action(async (flags: MonthlyFlags, command: Command) => {
    if (flags.lastMonth && (flags.old !== undefined || flags.new !== undefined)) refuseUsage(command, '--last-month chooses both snapshots: give it without --old or --new');
    if (!flags.lastMonth && flags.new === undefined) refuseUsage(command, "required option '--new <name>' not specified (or give --last-month)");
    if (flags.new !== undefined && flags.old === flags.new) refuseUsage(command, `--old and --new name the same snapshot "${flags.new}": give the previous snapshot as --old`);
    await requireQueue(flags.queue);
    const models = await modelsFrom(flags);
    await withSession(command, { write: true, flags: { seed: flags.seed, llm: flags.llm } }, async (session) => {
      const months = flags.lastMonth ? monthsDue(session.store, lastCompleteMonth(new Date())) : [{ oldName: flags.old, newName: flags.new as string }];
      const tasks = new SessionTasks(session.store, session.settings);
      const queue = await queueRunnerFor(flags.queue, flags, session.settings);
      for (const { oldName, newName } of months) {
        const outcome = await runMonthly({
          store: session.store,
          reporter: session.reporter,
          llm: llmRunParam(session.settings),
          redo: flags.redo ?? [],
          input: {
            ...(oldName !== undefined ? { oldName } : {}),
            newName,
            tasks: tasks.growover(),
            prices: pricesOf(session.settings),
            ...withLabelLlm(models, tasks),
            ...queue,
            seed: session.settings.seed,
          },
        });
        printMonth(outcome, oldName, newName, command.optsWithGlobals<GlobalFlags>().json === true);
      }
    });
  });
}

/** One month's run as the command prints it: its labeling first (its own run, as `label` makes it), then the monthly stages, each with its time. */
function printMonth(outcome: Awaited<ReturnType<typeof runMonthly>>, old: string | undefined, newName: string, json: boolean): void {
  const { run, labeling } = outcome;
  if (json) {
    process.stdout.write(`${JSON.stringify({ run: run.id, status: run.status, resumed: outcome.resumed, labeling: labeling && { run: labeling.run.id, stages: labeling.run.stages }, stages: run.stages })}\n`);
    return;
  }
  process.stdout.write(`run ${run.id} (${run.status}) monthly ${old ? `${old} → ` : ''}${newName}${outcome.resumed ? ', continued' : ''}\n`);
  const stages = [...(labeling?.run.stages ?? []).map((stage) => ({ stage, skipped: labeling?.skipped ?? [] })), ...run.stages.map((stage) => ({ stage, skipped: outcome.skipped }))];
  for (const { stage, skipped } of stages) {
    const counts = Object.entries(stage.counts).map(([key, value]) => `${key}=${value}`).join(' ');
    const time = skipped.includes(stage.stage) ? '(already done, skipped)' : `${stage.seconds.toFixed(1)} s`;
    process.stdout.write(`  ${stage.stage.padEnd(8)} ${stage.status.padEnd(8)} ${time.padStart(9)}  ${counts}\n`);
  }
}

import { Option, type Command } from 'commander';
import { runWeekly, WEEKLY_STAGES } from '../../../pipelines/weekly.js';
import { formatDate, lastCompleteWeekStart, windowFrom } from '../../dates.js';
import { UserError } from '../../errors.js';
import type { PipelineOutcome } from '../../runs/stageRunner.js';
import { DumpFilesSource } from '../../sources/dumpFiles.js';
import type { RevisionSource } from '../../sources/RevisionSource.js';
import { openSource, type SourceFlags } from '../../sources/openSource.js';
import type { Settings } from '../../settings.js';
import { addOptions, dateOption, integerOption, listOption, llmOption, refuseUsage } from '../options.js';
import { queueOptions, requireQueue, WEEKLY_QUEUE_OPTION_HELP, weeklyQueueRunnerFor, type QueueFlags } from '../queueOption.js';
import { withSession, type GlobalFlags, type Session } from '../session.js';
import { collectingRunWiki, entityNameOptions, runWiki, weeklyRunInput, weeklyRunParams, type EntityNameFlags } from '../weeklyRunInput.js';

interface WeeklyFlags extends Omit<SourceFlags, 'dump'>, EntityNameFlags, QueueFlags {
  /** Every --dump given, in order. */
  dump?: string[];
  start?: string;
  lastWeek?: boolean;
  days: number;
  stages?: string[];
  redo?: string[];
  seed?: number;
  userAgent?: string;
  revertHours?: number;
  keepContent?: boolean;
  llm?: string;
  out?: string;
  threads?: number;
}

export function registerWeekly(program: Command): void {
  addOptions<WeeklyFlags>(
    program
      .command('weekly')
      .description('the weekly (DailyQA) pipeline over [start, start + days): collect, parse, labels, diff, select, timeline, generate, check, classify, export, finalize'),
    {
      start: dateOption('--start <date>', 'first day of the window (YYYY-MM-DD, UTC); or --last-week'),
      lastWeek: new Option('--last-week', 'the last complete Monday-to-Sunday week (UTC) that ended a revert horizon (--revert-hours, 48) before now, for cron: same as --start MONDAY --days 7'),
      days: integerOption('--days <n>', 'window length in days').default(7),
      api: new Option('--api <url>', 'MediaWiki Action API endpoint, e.g. https://en.wikipedia.org/w/api.php'),
      dump: new Option('--dump <path>', 'MediaWiki XML history dump (.xml, .gz, .bz2, .xz, .lzma or .7z, recognised by their bytes, or - for standard input); repeat it for a history split into several files').argParser(
        (path: string, earlier: string[] = []) => [...earlier, path],
      ),
      stages: listOption('--stages <list>', `comma-separated stages to run (default: all of ${WEEKLY_STAGES.join(',')}); a stage whose inputs are not done is refused`),
      redo: listOption('--redo <list>', 'stages to run again although done (then every later stage that reads them); a done stage whose inputs were made again since runs again by itself'),
      seed: integerOption('--seed <n>', 'seed for the key choice (default: setting seed, 1)'),
      userAgent: new Option('--user-agent <text>', 'User-Agent for the API (tool, version, contact)'),
      revertHours: integerOption('--revert-hours <n>', 'changes undone within this many hours are not selected (default 48)'),
      keepContent: new Option('--keep-content', 'keep revision wikitext in the store after parsing'),
      ...entityNameOptions(),
      llm: llmOption(),
      out: new Option('--out <dir>', 'release directory of the export stage (default: releases/weekly-START beside the database)'),
      ...queueOptions(WEEKLY_QUEUE_OPTION_HELP),
      threads: integerOption('--threads <n>', 'without --queue: threads that parse (while collecting) and diff, besides the one that reads and writes (default: one per core)'),
    },
  ).action(async (flags: WeeklyFlags, command: Command) => {
    const start = givenStart(flags, command);
    await requireQueue(flags.queue);
    if (flags.threads !== undefined && flags.queue !== undefined) refuseUsage(command, '--threads is for runs without --queue: the queue\'s workers parse and diff');
    if (flags.threads !== undefined && (flags.threads < 1 || flags.threads > MAX_THREADS)) refuseUsage(command, `--threads must be from 1 to ${MAX_THREADS}`);
    const outcome = await withSession(
      command,
      { write: true, flags: { seed: flags.seed, userAgent: flags.userAgent, revertHours: flags.revertHours, keepContent: flags.keepContent, llm: flags.llm } },
      // The revert horizon that --last-week waits out is a setting: read with the session's.
      (session) => weekly(session, { ...flags, start: start ?? lastCompleteWeekStart(new Date(), session.settings.revertHours) }),
    );
    printOutcome(outcome, command.optsWithGlobals<GlobalFlags>().json ?? false, outcome.doneBefore ? doneWeekNote(outcome, flags) : null);
  });
}

/**
 * The window's first day given by --start, checked; undefined with --last-week, which is the Monday of
 * the last complete week that ended a revert horizon (48 h) before now: run before that, a change
 * reverted on the Monday or Tuesday after would be kept.
 */
function givenStart(flags: WeeklyFlags, command: Command): string | undefined {
  if (!flags.lastWeek) return requirePast(flags.start ?? refuseUsage(command, "required option '--start <date>' not specified (or give --last-week)"), new Date());
  if (flags.start !== undefined || command.getOptionValueSource('days') !== 'default') refuseUsage(command, '--last-week is a whole week: give it without --start or --days');
  return undefined;
}

/**
 * A week that has begun, on a wiki that existed: a window after today or before Wikipedia (15
 * January 2001) holds no revision, and would run to an empty release marked done.
 */
function requirePast(start: string, now: Date): string {
  const today = formatDate(now);
  if (start > today) throw new UserError('E_DATE_RANGE_INVALID', `invalid --start ${start}: the week has not begun (today is ${today}, UTC)`);
  if (start < FIRST_WIKI_DAY) throw new UserError('E_DATE_RANGE_INVALID', `invalid --start ${start}: before ${FIRST_WIKI_DAY}, when Wikipedia began, no wiki has revisions`);
  return start;
}

const FIRST_WIKI_DAY = '2001-01-15';
/** The most batch threads --threads may ask for, as for --embed-threads: each holds a heap of its own (threadHeapMb), so thousands exhaust the machine's memory. */
const MAX_THREADS = 64;

interface WeeklyOutcome extends PipelineOutcome {
  /** The week's run was done before this invocation: what it asked for was done already. */
  doneBefore: boolean;
  /** The release was written again, to --out. */
  exportedAgain: boolean;
}

/**
 * Runs the week's stages. A week whose run is done skips them all, whatever --dump or --api
 * now names (a run is the window and settings, not the source), so the command says so rather
 * than doing nothing in silence; with --out, it writes the release there again (cheap, from the
 * store) since that is what the user asked for.
 */
async function weekly(session: Session, flags: WeeklyFlags & { start: string }): Promise<WeeklyOutcome> {
  const window = windowFrom(flags.start, flags.days);
  const stages = flags.stages ?? [...WEEKLY_STAGES];
  const sourceFlags = { ...flags, dump: flags.dump?.[0] };
  // A source given is read for its wiki even when collect does not run, so the run is the one collect made.
  const given = flags.api !== undefined || (flags.dump?.length ?? 0) > 0 ? openWeeklySource(flags, sourceFlags, session.settings) : null;
  const source = stages.includes('collect') ? (given ?? openWeeklySource(flags, sourceFlags, session.settings)) : null;
  const input = {
    ...weeklyRunInput(session, sourceFlags, source, await (source ? collectingRunWiki(session, sourceFlags, source, window) : runWiki(session, sourceFlags, given, window))),
    window,
    ...(await weeklyQueueRunnerFor(flags.queue)),
    ...(flags.threads !== undefined ? { threads: flags.threads } : {}),
  };
  const params = weeklyRunParams(session, input, flags.days);
  const doneBefore = session.store.runs.findRun('weekly', params)?.status === 'done';
  const redo = flags.redo ?? [];
  const exportedAgain = doneBefore && flags.out !== undefined && stages.includes('export') && !redo.includes('export');
  const outcome = await runWeekly({ store: session.store, input, stages, redo: exportedAgain ? [...redo, 'export'] : redo, reporter: session.reporter, params });
  return { ...outcome, doneBefore: doneBefore && outcome.executed.every((stage) => stage === 'export' || stage === 'finalize'), exportedAgain };
}

/** What a rerun of a done week did and did not do, in one line. */
function doneWeekNote(outcome: WeeklyOutcome, flags: WeeklyFlags): string {
  const window = outcome.run.params.window as { start: string };
  const source = flags.api ? `--api ${flags.api}` : flags.dump?.length ? `--dump ${flags.dump.join(' --dump ')}` : null;
  const parts = [`the week of ${window.start.slice(0, 10)} was done already (run ${outcome.run.id}), so its stages were skipped`];
  if (source) parts.push(`${source} was not read (--redo collect reads it)`);
  if (outcome.exportedAgain) parts.push(`its release was written to ${flags.out}`);
  return parts.join('; ');
}

/** The week's source: the API, one dump, or several dump files read one after the other. */
function openWeeklySource(flags: WeeklyFlags, first: SourceFlags, settings: Settings): RevisionSource {
  const dumps = flags.dump ?? [];
  // openSource also refuses --api given with --dump.
  if (dumps.length <= 1 || flags.api) return openSource(first, settings);
  if (dumps.includes('-')) throw new UserError('E_FLAGS_CONFLICT', 'standard input (--dump -) cannot be one of several dump files');
  return new DumpFilesSource(dumps);
}

function printOutcome(outcome: PipelineOutcome, json: boolean, note: string | null): void {
  const { run } = outcome;
  if (json) {
    process.stdout.write(`${JSON.stringify({ run: run.id, status: run.status, resumed: outcome.resumed, stages: run.stages, ...(note ? { note } : {}) })}\n`);
    return;
  }
  const window = run.params.window as { start: string; end: string };
  process.stdout.write(`run ${run.id} (${run.status}) weekly ${window.start} .. ${window.end}${outcome.resumed ? ', continued' : ''}\n`);
  for (const stage of run.stages) {
    const counts = Object.entries(stage.counts).map(([k, v]) => `${k}=${v}`).join(' ');
    const skipped = outcome.skipped.includes(stage.stage) ? ' (already done, skipped)' : '';
    process.stdout.write(`  ${stage.stage.padEnd(8)} ${stage.status.padEnd(8)} ${counts}${skipped}\n`);
  }
  if (note) process.stdout.write(`${note}\n`);
}

import { Option, type Command } from 'commander';
import { basename, dirname, resolve } from 'node:path';
import { answerChangeStats } from '../../timeline/answerStats.js';
import { withSession } from '../session.js';
import { buildLeaderboard, submissionOf, WEEK_FILE } from '../../evaluate/leaderboard.js';
import { leaderboardFigures } from '../../evaluate/leaderboardPages.js';
import { growoverFigures, renderFigures, weeklyFigures } from '../../plots/datasetFigures.js';
import { writeFilesAtomically } from '../../release/atomicFiles.js';
import { addOptions, dateOption, refuseUsage } from '../options.js';

interface StatsFlags {
  plot?: string;
  predictions?: string;
  date?: string;
}

/** What a figures directory holds: the charts, nothing else (a directory with other files is refused). */
const FIGURE_FILE = /^[^/]+\.svg$/;

export function registerStats(program: Command): void {
  addOptions<StatsFlags>(
    program.command('stats').description('per week of queries: answers changing on each day, and how often each answer changed around its creation (JSON)'),
    {
      plot: new Option('--plot <dir>', "also draw the datasets' figures as SVG files into DIR: answers changed per day (one line per weekly update), queries per domain per week, GrowOVER's labels and items per month"),
      predictions: new Option('--predictions <file>', "with --plot: a system's weekly predictions (JSONL {id, prediction}), drawn as its F1 by days since the answer changed"),
      date: dateOption('--date <date>', 'with --predictions: the date its lines answer for, unless each names one (YYYY-MM-DD)'),
    },
  ).action(async (flags: StatsFlags, command: Command) => {
    if (flags.plot === undefined && (flags.predictions !== undefined || flags.date !== undefined)) refuseUsage(command, '--predictions and --date draw a figure: give them with --plot DIR');
    await withSession(command, { write: false }, async (session) => {
      // Printed once the figures asked for are written: a command that fails prints no result.
      const stats = `${JSON.stringify({ weeks: answerChangeStats(session.store) }, null, session.json ? undefined : 2)}\n`;
      if (flags.plot === undefined) {
        process.stdout.write(stats);
        return;
      }
      const figures = [...weeklyFigures(session.store), ...growoverFigures(session.store)];
      if (flags.predictions !== undefined) {
        const file = flags.predictions;
        // Named as a leaderboard names its submissions: SYSTEM/YYYY-MM-DD.jsonl by its folder, SYSTEM.jsonl by its file.
        const inFolder = `${basename(dirname(resolve(file)))}/${basename(file)}`;
        const system = WEEK_FILE.test(basename(file)) ? submissionOf(inFolder).system : basename(file).replace(/\.jsonl?$/, '');
        const board = buildLeaderboard(session.store, [{ system, name: file, kind: { weekly: null }, path: file }], { seed: session.settings.seed, date: flags.date ?? null });
        figures.push(...leaderboardFigures(board));
      }
      writeFilesAtomically(flags.plot, await renderFigures(figures), FIGURE_FILE);
      session.reporter.event(`${figures.length} figures written to ${flags.plot}`, { figures: figures.map((figure) => `${figure.name}.svg`) });
      process.stdout.write(stats);
    });
  });
}

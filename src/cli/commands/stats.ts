import type { Command } from 'commander';
import { answerChangeStats } from '../../timeline/answerStats.js';
import { withSession } from '../session.js';
import { growoverFigures, renderFigures, weeklyFigures } from '../../plots/datasetFigures.js';
import { writeFilesAtomically } from '../../release/atomicFiles.js';

/** What a figures directory holds: the charts, nothing else (a directory with other files is refused). */
const FIGURE_FILE = /^[^/]+\.svg$/;

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('per week of queries: answers changing on each day, and how often each answer changed around its creation (JSON)')
    .option('--plot <dir>', "also draw the datasets' figures as SVG files into DIR: answers changed per day (one line per weekly update), queries per domain per week, GrowOVER's labels and items per month")
    .action(async (flags: { plot?: string }, command: Command) => {
      await withSession(command, { write: false }, async (session) => {
        process.stdout.write(`${JSON.stringify({ weeks: answerChangeStats(session.db) }, null, session.json ? undefined : 2)}\n`);
        if (flags.plot === undefined) return;
        const figures = [...weeklyFigures(session.db), ...growoverFigures(session.db)];
        writeFilesAtomically(flags.plot, await renderFigures(figures), FIGURE_FILE);
        session.reporter.event(`${figures.length} figures written to ${flags.plot}`, { figures: figures.map((figure) => `${figure.name}.svg`) });
      });
    });
}

import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { writeFileAtomically } from '../../release/atomicFiles.js';
import { dailyQaFileName, dailyQaLines } from '../../timeline/dailyqaExport.js';
import { importDailyQa } from '../../timeline/dailyqaImport.js';
import { dateOption, timeAxisOption } from '../options.js';
import type { TimeAxis } from '../../timeline/answers.js';
import { withSession } from '../session.js';

export function registerDailyQa(groups: { exportGroup: Command; importGroup: Command }): void {
  groups.exportGroup
    .command('dailyqa')
    .description('{id, query, answer} per line for every kept query on DATE (the answer in effect at 00:00 UTC), DailyQA\'s format')
    .addOption(dateOption('--date <date>', 'the date (YYYY-MM-DD)').makeOptionMandatory())
    .option('--out <path>', 'a file, or a directory for qa_YYMMDD.jsonl (default: standard output)')
    .addOption(dateOption('--week <date>', 'only the queries made in the week starting on this date'))
    .addOption(timeAxisOption())
    .action(async (flags: { date: string; out?: string; week?: string; time: TimeAxis }, command: Command) => {
      await withSession(command, { write: false, lock: true }, (session) => {
        const content = dailyQaLines(session.db, flags.date, { ...(flags.week ? { windowStart: `${flags.week}T00:00:00Z` } : {}), axis: flags.time });
        if (!flags.out) {
          process.stdout.write(content);
          return;
        }
        const path = existsSync(flags.out) && statSync(flags.out).isDirectory() ? join(flags.out, dailyQaFileName(flags.date)) : flags.out;
        writeFileAtomically(path, content);
        process.stderr.write(`wrote ${content ? content.split('\n').length - 1 : 0} answers to ${path}\n`);
      });
    });

  groups.importGroup
    .command('dailyqa')
    .description('load published DailyQA per-day files (qa_YYMMDD.jsonl, plain or .gz) as answer intervals')
    .argument('<files...>', 'per-day files; the date comes from each name')
    .action(async (files: string[], _flags: unknown, command: Command) => {
      if (files.length === 0) throw new UserError('give at least one qa_YYMMDD.jsonl file');
      await withSession(command, { write: true }, async (session) => {
        const counts = await importDailyQa(session.db, files);
        if (session.json) process.stdout.write(`${JSON.stringify(counts)}\n`);
        else {
          process.stdout.write(
            `imported ${counts.files} files: ${counts.queries} queries, ${counts.days} daily answers stored as ${counts.intervals} intervals\n`,
          );
        }
      });
    });
}

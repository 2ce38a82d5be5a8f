import { Option, type Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { UserError } from '../../errors.js';
import { writeFileAtomically } from '../../release/atomicFiles.js';
import { dailyQaDay, dailyQaFileName } from '../../timeline/dailyqaExport.js';
import { importDailyQa } from '../../timeline/dailyqaImport.js';
import { unknownAnswersReason } from '../../timeline/unknownAnswers.js';
import { requireKeptWeek } from '../keptWeek.js';
import { renderDailyQaRelease } from '../../release/dailyqaRelease.js';
import { writeRelease } from '../../release/writeRelease.js';
import type { TimeAxis } from '../../model/timelines.js';
import { addOptions, dateOption, refuseUsage, timeAxisOption } from '../options.js';
import { previousChoice, previousOptions, releaseLine, releaseSummary, type PreviousFlags } from '../releaseOptions.js';
import { withSession } from '../session.js';

interface DailyQaExportFlags extends PreviousFlags {
  date?: string;
  from?: string;
  to?: string;
  out?: string;
  week?: string;
  time: TimeAxis;
}

/**
 * Where `export dailyqa --date D --out PATH` writes: into a directory (one that exists, or one named
 * with a trailing slash, made if missing) as qa_YYMMDD.jsonl, else to the file PATH.
 */
export function dailyQaOutputPath(out: string, date: string): string {
  const namesDirectory = out.endsWith('/') || out.endsWith(sep) || (existsSync(out) && statSync(out).isDirectory());
  return namesDirectory ? join(out, dailyQaFileName(date)) : out;
}

/** `export dailyqa --from A --to B`: the range release, written as a whole. */
async function exportRange(command: Command, flags: DailyQaExportFlags & { from: string; to: string }): Promise<void> {
  await withSession(command, { write: false, lock: true }, async (session) => {
    const { draft, counts, unknownReason } = await renderDailyQaRelease(session.store, flags.from, flags.to);
    const dir = flags.out ?? join(dirname(session.dbPath), 'releases', `dailyqa-${flags.from}-${flags.to}`);
    const written = await writeRelease(session.store, dir, draft, previousChoice(flags));
    if (unknownReason !== undefined) process.stderr.write(`${counts.unknown} of the ${counts.answers} answers are unknown (status unknown): ${unknownReason}\n`);
    process.stdout.write(
      session.json
        ? `${JSON.stringify({ dir, counts, ...releaseSummary(written) })}\n`
        : `wrote ${counts.answers} answers (${counts.queries} queries × ${counts.days} days) to ${dir}\n${releaseLine(written)}`,
    );
  });
}

export function registerDailyQa(groups: { exportGroup: Command; importGroup: Command }): void {
  addOptions<DailyQaExportFlags>(
    groups.exportGroup
      .command('dailyqa')
      .description(
        "DailyQA's {id, query, answer} per line for every kept query on --date (the answer in effect at 00:00 UTC); with --from and --to, a release of every kept query's answer on every day of the range as one table (JSON lines and Parquet), with the queries, a dataset card, a manifest and changes, on edit time only",
      ),
    {
      date: dateOption('--date <date>', 'the date (YYYY-MM-DD)'),
      from: dateOption('--from <date>', 'first day of a range release (YYYY-MM-DD)'),
      to: dateOption('--to <date>', 'last day of a range release (YYYY-MM-DD)'),
      out: new Option('--out <path>', 'with --date: a file (gzipped when its name ends .gz), or a directory for qa_YYMMDD.jsonl (default: standard output); with --from/--to: the release directory (default: releases/dailyqa-FROM-TO beside the database)'),
      week: dateOption('--week <date>', 'with --date: only the queries made in the week starting on this date'),
      time: timeAxisOption(),
      ...previousOptions(),
    },
  ).action(async (flags: DailyQaExportFlags, command: Command) => {
    if (flags.from !== undefined || flags.to !== undefined) {
      if (flags.from === undefined || flags.to === undefined) refuseUsage(command, 'give both --from and --to for a range release');
      if (flags.date !== undefined || flags.week !== undefined) refuseUsage(command, '--date and --week are for one day; --from and --to write a release of every day of a range');
      if (flags.time === 'world') refuseUsage(command, 'a range release is on edit time, as DailyQA publishes it: give --date for one day on world time, or export weekly --time world');
      await exportRange(command, { ...flags, from: flags.from, to: flags.to });
      return;
    }
    if (flags.date === undefined) refuseUsage(command, 'give --date for one day, or --from and --to for a release of a range of days');
    if (flags.previous !== undefined) refuseUsage(command, '--previous is for a range release (--from and --to)');
    const date = flags.date;
    await withSession(command, { write: false, lock: true }, (session) => {
      if (flags.week !== undefined) requireKeptWeek(session.store, flags.week);
      const windowStart = flags.week ? { windowStart: `${flags.week}T00:00:00Z` } : {};
      const { lines: content, unknown } = dailyQaDay(session.store, date, { ...windowStart, axis: flags.time });
      if (unknown > 0) {
        const why = unknownAnswersReason(session.store, [date], { ...windowStart, axis: flags.time });
        if (content === '') throw new UserError('E_ANSWERS_UNKNOWN', `the store does not know the answer of any of the ${unknown} kept queries on ${date}: ${why}`);
        process.stderr.write(`left out ${unknown} kept queries whose answer the store does not know on ${date}: ${why}\n`);
      }
      if (!flags.out) {
        process.stdout.write(content);
        return;
      }
      const path = dailyQaOutputPath(flags.out, date);
      // A name ending .gz is gzip, as DailyQA publishes its files and import dailyqa reads them.
      writeFileAtomically(path, path.endsWith('.gz') ? gzipSync(content) : content);
      process.stderr.write(`wrote ${content ? content.split('\n').length - 1 : 0} answers to ${path}\n`);
    });
  });

  groups.importGroup
    .command('dailyqa')
    .description('load published DailyQA per-day files (qa_YYMMDD.jsonl, plain or .gz) as answer intervals')
    .argument('<files...>', 'per-day files; the date comes from each name')
    .action(async (files: string[], _flags: unknown, command: Command) => {
      if (files.length === 0) throw new UserError('E_FLAG_MISSING', 'give at least one qa_YYMMDD.jsonl file');
      await withSession(command, { write: true }, async (session) => {
        const counts = await importDailyQa(session.store, files);
        if (session.json) process.stdout.write(`${JSON.stringify(counts)}\n`);
        else {
          process.stdout.write(
            `imported ${counts.files} files: ${counts.queries} queries, ${counts.days} daily answers stored as ${counts.intervals} intervals\n`,
          );
        }
      });
    });
}

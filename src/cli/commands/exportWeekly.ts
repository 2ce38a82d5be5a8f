import { Option, type Command } from 'commander';
import { windowFrom } from '../../dates.js';
import { UserError } from '../../errors.js';
import { defaultReleaseDir } from '../../release/weeklyRelease.js';
import { writeWeeklyRelease } from '../../../pipelines/weekly/export.js';
import { addOptions, dateOption, integerOption, timeAxisOption } from '../options.js';
import { previousChoice, previousOptions, releaseLine, releaseSummary, type PreviousFlags } from '../releaseOptions.js';
import type { TimeAxis } from '../../model/timelines.js';
import { withSession } from '../session.js';

interface ExportWeeklyFlags extends PreviousFlags {
  start: string;
  days: number;
  wiki?: string;
  out?: string;
  time: TimeAxis;
}

/**
 * `export weekly`: the week's release written again from the store, as the export stage writes it,
 * e.g. once `finalize` has labelled the update frequencies or later syncs extended the answers.
 */
export function registerExportWeekly(exportGroup: Command): void {
  addOptions<ExportWeeklyFlags>(
    exportGroup
      .command('weekly')
      .description("a week's release (queries and answers as JSON lines and Parquet, qa_YYMMDD.jsonl per day, native JSONL, dataset card, manifest, changes) from the store"),
    {
      start: dateOption('--start <date>', 'first day of the window (YYYY-MM-DD, UTC)').makeOptionMandatory(),
      days: integerOption('--days <n>', 'window length in days').default(7),
      wiki: new Option('--wiki <name>', 'the wiki the week was collected from (default: the only one the weekly pipeline ran on in that window)'),
      out: new Option('--out <dir>', 'release directory (default: releases/weekly-START beside the database, weekly-START-world on world time)'),
      time: timeAxisOption(),
      ...previousOptions(),
    },
  ).action(async (flags: ExportWeeklyFlags, command: Command) => {
    await withSession(command, { write: false, lock: true }, async (session) => {
      const window = windowFrom(flags.start, flags.days);
      // A week the pipeline ran is released even when it kept no question, as its export stage did.
      const wikis = session.store.runs.wikisRunFor('weekly', window);
      const wiki = flags.wiki ?? wikis[0];
      if (wiki === undefined || !wikis.includes(wiki)) {
        throw new UserError('E_PREREQUISITE_MISSING', `no weekly run for ${flags.wiki ? `wiki ${flags.wiki} in ` : ''}the window ${window.start} .. ${window.end}: run wikidelta weekly first`);
      }
      if (!flags.wiki && wikis.length > 1) throw new UserError('E_WIKI_AMBIGUOUS', `the weekly pipeline ran on several wikis in this window (${wikis.join(', ')}): name one with --wiki`);
      const dir = flags.out ?? defaultReleaseDir(session.dbPath, window.start, wiki, flags.time);
      const { written, counts } = await writeWeeklyRelease(session.store, { wiki, window, axis: flags.time, dir, previous: previousChoice(flags) });
      const total = written.manifest.files.length + 1;
      process.stdout.write(
        session.json
          ? `${JSON.stringify({ dir, files: [...written.manifest.files.map((file) => file.path), 'MANIFEST.json'], counts, ...releaseSummary(written) })}\n`
          : `wrote ${total} files to ${dir} (${counts.kept} kept queries)\n${releaseLine(written)}`,
      );
    });
  });
}

import { Option, type Command } from 'commander';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { buildLeaderboard, submissionOf, type SubmissionFile } from '../../evaluate/leaderboard.js';
import { reportJson } from '../../evaluate/reportJson.js';
import { cutoffIn } from '../../evaluate/systemMeta.js';
import { leaderboardFiles, leaderboardMarkdown } from '../../evaluate/leaderboardPages.js';
import { growoverFigures, weeklyFigures } from '../../plots/datasetFigures.js';
import { writeFilesAtomically } from '../../release/atomicFiles.js';
import { addOptions, dateOption, integerOption, timeAxisOption } from '../options.js';
import type { TimeAxis } from '../../model/timelines.js';
import { withSession } from '../session.js';

interface LeaderboardFlags {
  submissions: string;
  out?: string;
  date?: string;
  after?: string;
  time: TimeAxis;
  seed?: number;
}

/** What a leaderboard directory holds; a directory with anything else is refused, not overwritten. */
const LEADERBOARD_ENTRY = /^(README\.md|index\.html|leaderboard\.json|[^/]+\.svg)$/;

/** `leaderboard`: every system's predictions in a directory, scored and ranked (RealTimeQA's weekly board). */
export function registerLeaderboard(program: Command): void {
  addOptions<LeaderboardFlags>(
    program
      .command('leaderboard')
      .description(
        'score every submitted system and rank them by F1 with 95% intervals, with its current, outdated and wrong answers: SYSTEM.jsonl, SYSTEM.json (SQuAD\'s {id: answer}), SYSTEM/YYYY-MM-DD.jsonl (a week, answered the day after it) or SYSTEM/growover-SNAPSHOT.jsonl, ' +
          'and SYSTEM.meta.json {"cutoff": "YYYY-MM-DD"} to split a system\'s scores before and after its training cutoff; Markdown on standard output (JSON with --json), or README.md, index.html, leaderboard.json and figures into --out',
      ),
    {
      submissions: new Option('--submissions <dir>', 'the directory of prediction files').makeOptionMandatory(),
      out: new Option('--out <dir>', 'write the leaderboard pages, JSON and figures (SVG) into this directory'),
      date: dateOption('--date <date>', 'a date every weekly system is scored on, and the date of SYSTEM.jsonl lines that name none (YYYY-MM-DD)'),
      after: dateOption('--after <date>', 'score only the answers that changed on or after DATE (a change the store saw)'),
      time: timeAxisOption(),
      seed: integerOption('--seed <n>', 'the bootstrap seed (default: the seed setting)'),
    },
  ).action(async (flags: LeaderboardFlags, command: Command) => {
    const files = readSubmissions(flags.submissions);
    await withSession(command, { write: false, flags: flags.seed === undefined ? {} : { seed: flags.seed } }, async (session) => {
      const board = buildLeaderboard(session.store, files, { seed: session.settings.seed, date: flags.date ?? null, after: flags.after ?? null, axis: flags.time });
      if (flags.out === undefined) {
        process.stdout.write(session.json ? `${reportJson(board)}\n` : leaderboardMarkdown(board, []));
        return;
      }
      const figures = [...(board.weekly.length > 0 ? weeklyFigures(session.store) : []), ...(board.growover.length > 0 ? growoverFigures(session.store) : [])];
      writeFilesAtomically(flags.out, await leaderboardFiles(board, figures), LEADERBOARD_ENTRY);
      const systems = new Set([...board.weekly, ...board.growover.flatMap((snapshot) => snapshot.entries)].map((entry) => entry.system)).size;
      process.stdout.write(session.json ? `${JSON.stringify({ out: flags.out, systems })}\n` : `leaderboard of ${systems} systems written to ${flags.out}\n`);
    });
  });
}

/** The submission files: `*.jsonl` and `*.json` at the top, and every file in a system's folder (hidden entries skipped); each with its system's cutoff from `SYSTEM.meta.json`. */
function readSubmissions(dir: string): SubmissionFile[] {
  const entries = (path: string) => {
    try {
      return readdirSync(path, { withFileTypes: true }).filter((entry) => !entry.name.startsWith('.'));
    } catch {
      throw new UserError('E_FILE_UNREADABLE', `cannot read the submissions directory ${path}`);
    }
  };
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UserError('E_FILE_UNREADABLE', `--submissions ${dir} is not a directory`);
  const names: string[] = [];
  for (const entry of entries(dir).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory()) {
      for (const inner of entries(join(dir, entry.name)).sort((a, b) => a.name.localeCompare(b.name))) names.push(`${entry.name}/${inner.name}`);
    } else if (entry.name.endsWith('.jsonl') || (entry.name.endsWith('.json') && !entry.name.endsWith('.meta.json'))) {
      names.push(entry.name);
    }
  }
  const cutoffs = new Map<string, string | null>();
  const cutoffOf = (system: string): string | null => {
    if (!cutoffs.has(system)) {
      const path = join(dir, `${system}.meta.json`);
      cutoffs.set(system, cutoffIn(path));
    }
    return cutoffs.get(system) ?? null;
  };
  return names.map((name) => {
    const submission = submissionOf(name);
    return { ...submission, name, path: join(dir, name), cutoff: cutoffOf(submission.system) };
  });
}

import { Option, type Command } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { runSnapshot } from '../../../pipelines/monthly/snapshot.js';
import { isoSeconds, lastCompleteMonth, monthEnd, parseDate } from '../../dates.js';
import { UserError } from '../../errors.js';
import { ApiSnapshotSource, dumpSnapshotArticles } from '../../sources/snapshotSources.js';
import { apiUrl, wikiName, type SourceFlags } from '../../sources/openSource.js';
import { DumpRevisionSource } from '../../sources/dumpSource.js';
import type { WikiSite } from '../../sources/RevisionSource.js';
import { wikiClientOptions } from '../../sources/wikiClient.js';
import { addOptions, dateOption, refuseUsage, snapshotNameOption } from '../options.js';
import { withSession, type GlobalFlags } from '../session.js';

interface SnapshotFlags extends SourceFlags {
  name?: string;
  lastMonth?: boolean;
  asOf?: string;
  titles?: string;
  titlesFromLinks?: string[];
  userAgent?: string;
}

/** A title holds no control character (MediaWiki refuses them), nor U+FFFD, what bytes that are not UTF-8 read as: a binary file given as the list. */
const TITLE_NOT_TEXT = /[\u0000-\u001f\u007f\ufffd]/;
const TitleList = z
  .array(z.string().min(1).max(255).refine((title) => !TITLE_NOT_TEXT.test(title), 'a line holds control characters or bytes that are not UTF-8: not a list of titles'))
  .min(1, 'the title list is empty');

export function registerSnapshot(program: Command): void {
  addOptions<SnapshotFlags>(program.command('snapshot').description('materialise a named snapshot: each article as of a date, as paragraphs and sentences'), {
    name: snapshotNameOption('--name <name>', 'name of the snapshot, e.g. 2025-03 (no slashes or line breaks); or --last-month'),
    lastMonth: new Option('--last-month', 'for cron: the last complete month before now, named YYYY-MM and taken as of its end (the first day of the next month, 00:00 UTC); same as --name YYYY-MM --as-of THAT-DAY'),
    dump: new Option('--dump <path>', 'MediaWiki XML dump (.xml, .gz, .bz2, .xz, .lzma or .7z, recognised by their bytes, or - for standard input): each page\'s latest revision at or before --as-of'),
    api: new Option('--api <url>', 'MediaWiki Action API endpoint: the revision in effect at --as-of for each title'),
    asOf: dateOption('--as-of <date>', 'the snapshot instant, DATE 00:00 UTC (with --dump: default the latest revision)'),
    titles: new Option('--titles <file>', 'with --api: a file of article titles, one per line'),
    titlesFromLinks: new Option('--titles-from-links <pages...>', 'with --api: the articles linked from these pages (e.g. "Portal:Current events/2025 January 5")'),
    userAgent: new Option('--user-agent <text>', 'User-Agent for the API (tool, version, contact)'),
  }).action(async (given: SnapshotFlags, command: Command) => {
    const flags = { ...given, ...snapshotMonth(given, command) };
    const outcome = await withSession(command, { write: true, flags: { userAgent: flags.userAgent } }, async (session) => {
      const asOf = flags.asOf === undefined ? null : isoSeconds(parseDate(flags.asOf, '--as-of date'));
      if (Boolean(flags.dump) === Boolean(flags.api)) throw new UserError('E_FLAGS_CONFLICT', 'give either --dump PATH or --api URL (exactly one)');
      if (flags.api) apiUrl(flags.api, '--api');
      if (flags.dump && (flags.titles || flags.titlesFromLinks)) throw new UserError('E_FLAGS_CONFLICT', '--titles and --titles-from-links choose articles with --api: a snapshot from --dump takes every article of the dump');
      const wiki = wikiName({ api: flags.api, dump: flags.dump }, session.settings, await dumpSite(flags.dump));
      if (flags.dump) {
        const path = flags.dump;
        return runSnapshot({
          store: session.store,
          reporter: session.reporter,
          input: { snapshot: { name: flags.name, wiki, source: path === '-' ? 'standard input' : resolve(path), asOf }, articles: () => dumpSnapshotArticles(path, asOf), threadHeapMb: session.settings.threadHeapMb, parseDeadlineSeconds: session.settings.parseDeadlineSeconds },
        });
      }
      if (asOf === null) throw new UserError('E_FLAG_MISSING', '--api needs --as-of DATE');
      if (!flags.titles && !flags.titlesFromLinks) throw new UserError('E_FLAG_MISSING', '--api needs --titles FILE or --titles-from-links PAGE...');
      const source = new ApiSnapshotSource(wikiClientOptions(session.settings, flags.api as string));
      const titles = [...(flags.titles ? readTitles(flags.titles) : []), ...(flags.titlesFromLinks ? await source.titlesLinkedFrom(flags.titlesFromLinks) : [])];
      return runSnapshot({
        store: session.store,
        reporter: session.reporter,
        input: {
          snapshot: { name: flags.name, wiki, source: flags.api as string, asOf },
          articles: (isDone) => source.articlesAsOf(TitleList.parse(titles), asOf, isDone),
          threadHeapMb: session.settings.threadHeapMb,
          parseDeadlineSeconds: session.settings.parseDeadlineSeconds,
        },
      });
    });
    const counts = outcome.run.stages[0]?.counts ?? {};
    if (command.optsWithGlobals<GlobalFlags>().json) process.stdout.write(`${JSON.stringify({ snapshot: flags.name, ...counts })}\n`);
    else {
      const skipped = counts.skipped ? `; ${counts.skipped} skipped, the parser cannot read them` : '';
      process.stdout.write(`snapshot ${flags.name}: ${counts.articles ?? 0} articles (${counts.stored_now ?? 0} stored now, ${counts.sentences_now ?? 0} sentences${skipped})\n`);
      for (const key of Object.keys(counts)) if (key.startsWith('skipped: ')) process.stdout.write(`  ${key}\n`);
    }
  });
}

/** --name and --as-of as given, or with --last-month the last complete month's name and end. */
function snapshotMonth(flags: SnapshotFlags, command: Command): { name: string; asOf?: string } {
  if (!flags.lastMonth) return { name: flags.name ?? refuseUsage(command, "required option '--name <name>' not specified (or give --last-month)") };
  if (flags.name !== undefined || flags.asOf !== undefined) refuseUsage(command, '--last-month names the snapshot and its date: give it without --name or --as-of');
  const month = lastCompleteMonth(new Date());
  return { name: month, asOf: monthEnd(month) };
}

function readTitles(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError('E_FILE_UNREADABLE', `cannot read the title list ${path}`);
  }
  const titles = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const parsed = TitleList.safeParse(titles);
  if (!parsed.success) throw new UserError('E_TITLE_LIST_INVALID', `title list ${path}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/**
 * The wiki a dump file's `<siteinfo>` names, so that snapshots of two wikis in one store are two
 * wikis' months (a month made again clears the later months of its own wiki only). None for standard
 * input, whose head cannot be read twice.
 */
async function dumpSite(dump: string | undefined): Promise<WikiSite | undefined> {
  return dump === undefined || dump === '-' ? undefined : new DumpRevisionSource(dump).site();
}

import { Option, type Command } from 'commander';
import { runSync } from '../../../pipelines/sync.js';
import { parseDate, isoSeconds } from '../../dates.js';
import { openSource, type SourceFlags } from '../../sources/openSource.js';
import { addOptions, dateOption } from '../options.js';
import { withSession, type Session } from '../session.js';
import { entityNameOptions, runWiki, weeklyRunInput, type EntityNameFlags } from '../weeklyRunInput.js';

interface SyncFlags extends SourceFlags, EntityNameFlags {
  until: string;
  userAgent?: string;
}

export function registerSync(program: Command): void {
  addOptions<SyncFlags>(
    program.command('sync').description('extend the timelines of every tracked page (each page behind a kept query, or a data unit whose question is not made yet) up to DATE 00:00 UTC'),
    {
      until: dateOption('--until <date>', 'the date to sync up to (YYYY-MM-DD)').makeOptionMandatory(),
      api: new Option('--api <url>', 'MediaWiki Action API endpoint'),
      dump: new Option('--dump <path>', 'a newer MediaWiki XML history dump (.xml, .gz, .bz2, .xz, .lzma or .7z, recognised by their bytes, or - for standard input)'),
      userAgent: new Option('--user-agent <text>', 'User-Agent for the API (tool, version, contact)'),
      ...entityNameOptions(),
    },
  ).action(async (flags: SyncFlags, command: Command) => {
    await withSession(command, { write: true, flags: { userAgent: flags.userAgent } }, async (session) => {
      const { settings } = session;
      const source = openSource(flags, settings);
      // No source holds the days to come: held to a later date, a page would be taken as unchanged
      // through them, and the edits made meanwhile never fetched.
      const asked = isoSeconds(parseDate(flags.until, '--until date'));
      const now = isoSeconds(new Date());
      const until = asked > now ? now : asked;
      if (asked > now) session.reporter.warn(`--until ${flags.until} is still to come: synced up to now`, { until });
      const shown = until.slice(0, 10) === flags.until ? flags.until : until;
      const input = weeklyRunInput(session, flags, source, await runWiki(session, flags, source));
      const outcome = await runSync({ store: session.store, until, reporter: session.reporter, input });
      if ('upToDate' in outcome) {
        const message = outcome.tracked === 0 ? noTrackedPages(session, input.wiki) : `all ${outcome.tracked} tracked pages are synced up to ${shown}`;
        if (outcome.tracked > 0) warnOlderDumpWeeks(session, input.wiki, until);
        process.stdout.write(session.json ? `${JSON.stringify(outcome)}\n` : `${message}\n`);
        return;
      }
      warnOlderDumpWeeks(session, input.wiki, until);
      const counts = Object.fromEntries(outcome.run.stages.map((stage) => [stage.stage, stage.counts]));
      // A dump made before the date holds the pages up to its newest revision only (pipelines/sync.ts).
      const sourceEnd = outcome.run.params.sourceEnd;
      if (session.json) process.stdout.write(`${JSON.stringify({ run: outcome.run.id, status: outcome.run.status, ...(sourceEnd !== undefined ? { sourceEnd } : {}), stages: counts })}\n`);
      else {
        const collect = counts.collect ?? {};
        const reached = typeof sourceEnd === 'string' ? `${sourceEnd} (the dump holds nothing later; not ${shown})` : shown;
        process.stdout.write(
          `run ${outcome.run.id} sync up to ${reached}: ${collect.pages ?? 0} changed tracked pages fetched (${collect.revisions ?? 0} revisions), ` +
            `${counts.timeline?.intervals ?? 0} intervals rebuilt, ${counts.deletions?.deleted ?? 0} deletions, ${counts.deletions?.restored ? `${counts.deletions.restored} restorations, ` : ''}${counts.advance?.pages ?? 0} pages synced\n`,
        );
      }
    });
  });
}

/**
 * Why a sync found nothing to do: the source is another wiki's than the one the store's queries are
 * of (a wrong --dump or --api, which running the weekly pipeline would not mend), or no week has kept
 * a query yet.
 */
function noTrackedPages(session: Session, wiki: string): string {
  const others = session.store.wikis
    .names()
    .filter((name) => name !== wiki)
    .map((name) => ({ name, tracked: session.store.timelines(name).trackedPages().length }))
    .filter((other) => other.tracked > 0);
  if (others.length === 0) return `no tracked pages of ${wiki}: no weekly run has kept a query of it yet (sync follows the pages behind kept queries)`;
  const tracked = others.map((other) => `${other.tracked} of ${other.name}`).join(', ');
  // The weeks an older wikidelta stored under "dump" are synced from the same dump, under that name.
  const remedy = others.some((other) => other.name === OLDER_DUMP_WIKI) ? OLDER_DUMP_REMEDY : "give that wiki's --dump or --api";
  return `no tracked pages of ${wiki}, the wiki of the source given; the store tracks pages of another wiki (${tracked}): ${remedy}`;
}

/** The name a store made before dumps were named by their <siteinfo> holds its dump weeks under (docs/ARCHITECTURE.md §3). */
const OLDER_DUMP_WIKI = 'dump';
const OLDER_DUMP_REMEDY = 'the pages of dump are those of the weeks an older wikidelta stored under that name: sync them with the wiki setting dump (WIKIDELTA_WIKI=dump)';

/**
 * Says that the store's weeks an older wikidelta stored under \`dump\` keep their tracked pages where
 * they were: a sync under the dump's own wiki name leaves them, and their answers stay unknown past
 * their sync mark while the line said every tracked page was synced.
 */
function warnOlderDumpWeeks(session: Session, wiki: string, until: string): void {
  if (wiki === OLDER_DUMP_WIKI || !session.store.wikis.names().includes(OLDER_DUMP_WIKI)) return;
  const behind = session.store
    .timelines(OLDER_DUMP_WIKI)
    .trackedPages()
    .filter((page) => page.syncedUntil === null || page.syncedUntil < until).length;
  if (behind === 0) return;
  session.reporter.warn(`this sync of ${wiki} leaves the store's ${behind} tracked pages of dump behind ${until}; ${OLDER_DUMP_REMEDY}`, { wiki: OLDER_DUMP_WIKI, tracked: behind });
}

import type { WeeklyInput } from '../../pipelines/weekly.js';
import { llmRunParam, pricesOf, SessionTasks } from '../llm/openTasks.js';
import type { RevisionSource } from '../sources/RevisionSource.js';
import { articleBaseUrl, wikiName, type SourceFlags } from '../sources/openSource.js';
import { searchBackendFor } from './searchBackendFor.js';
import type { Session } from './session.js';

/**
 * The input of a weekly (or sync) run from the session's settings: one place, so the weekly
 * command, sync and the demo cannot drift apart in how they parse, select and generate.
 */
export function weeklyRunInput(
  session: Session,
  flags: SourceFlags & { out?: string },
  source: RevisionSource | null,
  overrides: { wiki?: string; articleBaseUrl?: string } = {},
): Omit<WeeklyInput, 'window'> {
  const { settings } = session;
  const search = searchBackendFor(settings, flags);
  return {
    wiki: overrides.wiki ?? wikiName(flags, settings),
    source,
    seed: settings.seed,
    revertHours: settings.revertHours,
    keepContent: settings.keepContent,
    articleBaseUrl: overrides.articleBaseUrl ?? articleBaseUrl(flags, settings),
    tasks: new SessionTasks(session.db, settings).weekly(),
    prices: pricesOf(settings),
    domainCap: settings.domainCap,
    ...(search ? { search } : {}),
    ...(flags.out ? { releaseDir: flags.out } : {}),
  };
}

/**
 * A weekly run's identity. The source counts only through the wiki it reads: the same window
 * collected from a dump and then parsed without a source is one run.
 */
export function weeklyRunParams(session: Session, input: WeeklyInput, days: number): Record<string, unknown> {
  const { settings } = session;
  return { window: input.window, days, wiki: input.wiki, seed: settings.seed, revertHours: settings.revertHours, llm: llmRunParam(settings) };
}

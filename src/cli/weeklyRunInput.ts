import { Option } from 'commander';
import { existsSync } from 'node:fs';
import type { WeeklyInput } from '../../pipelines/weekly.js';
import { UserError } from '../errors.js';
import { LabelsFile, WbGetEntities, type EntityNameSource } from '../sources/entityNames.js';
import { wikiClientOptions } from '../sources/wikiClient.js';
import { llmRunParam, pricesOf, SessionTasks } from '../llm/openTasks.js';
import type { RevisionSource } from '../sources/RevisionSource.js';
import type { Window } from '../model.js';
import { apiUrl, articleBaseUrl, wikiName, type SourceFlags } from '../sources/openSource.js';
import type { OptionsOf } from './options.js';
import { searchBackendFor } from './searchBackendFor.js';
import type { Session } from './session.js';

/**
 * The input of a weekly (or sync) run from the session's settings: one place, so the weekly
 * command, sync and the demo cannot drift apart in how they parse, select and generate.
 */
export function weeklyRunInput(
  session: Session,
  flags: SourceFlags & EntityNameFlags & { out?: string },
  source: RevisionSource | null,
  wiki: RunWiki,
): Omit<WeeklyInput, 'window'> {
  const { settings } = session;
  const search = searchBackendFor(settings, flags);
  return {
    wiki: wiki.wiki,
    source,
    seed: settings.seed,
    revertHours: settings.revertHours,
    threadHeapMb: settings.threadHeapMb,
    keepContent: settings.keepContent,
    articleBaseUrl: wiki.articleBaseUrl,
    ...(wiki.nameWiki ? { nameWiki: wiki.nameWiki } : {}),
    tasks: new SessionTasks(session.store, settings).weekly(),
    prices: pricesOf(settings),
    domainCap: settings.domainCap,
    entityNames: entityNameSources(session, flags),
    ...(search ? { search } : {}),
    ...(flags.out ? { releaseDir: flags.out } : {}),
  };
}

/** The wiki a run's pages are stored under, and where its articles are. */
export interface RunWiki {
  /** Empty, as is `articleBaseUrl`, until `nameWiki` names it, unless a setting does. */
  wiki: string;
  articleBaseUrl: string;
  /** For a run that begins before its source names its wiki: see `WeeklyInput.nameWiki`. */
  nameWiki?: () => Promise<RunWiki>;
}

/**
 * The wiki of a weekly or sync run (docs/ARCHITECTURE.md §3): the `wiki` and `articleBaseUrl`
 * settings where set, else what the source says (the API's URL; a dump's `<siteinfo>`, read from its
 * head: `frwiki`, `https://fr.wikipedia.org/wiki/`). A run given no source (stages after collect)
 * is on the wiki the store's weekly runs of its window are on, its articles where the store recorded
 * them; with none, on "dump" linked to English Wikipedia, as before a dump's wiki was read.
 */
export async function runWiki(session: Session, flags: SourceFlags, source: RevisionSource | null, window?: Window): Promise<RunWiki> {
  const { settings, store } = session;
  if (source !== null || flags.api !== undefined) {
    const site = (await source?.site?.()) ?? undefined;
    return { wiki: wikiName(flags, settings, site), articleBaseUrl: articleBaseUrl(flags, settings, site) };
  }
  let wiki = settings.wiki;
  if (wiki === undefined && window !== undefined) {
    const wikis = store.runs.wikisRunFor('weekly', window);
    if (wikis.length > 1) throw new UserError('E_WIKI_AMBIGUOUS', `the weekly pipeline ran on several wikis in this window (${wikis.join(', ')}): give its source (--dump or --api) or set wiki`);
    wiki = wikis[0];
  }
  wiki ??= wikiName(flags, settings);
  return { wiki, articleBaseUrl: settings.articleBaseUrl ?? store.wikis.articleBase(wiki) ?? articleBaseUrl(flags, settings) };
}

/**
 * The wiki of a weekly run that collects from `source`, as `runWiki` names it, but of a streamed
 * source (a dump on standard input) not before the run begins: its head may be slow to come down the
 * pipe, and the run must hold the store and show in `status` meanwhile. That run begins under the
 * `wiki` setting, or with no wiki in its parameters, and collect names it from the head before it
 * writes anything (docs/ARCHITECTURE.md §3).
 */
export async function collectingRunWiki(session: Session, flags: SourceFlags, source: RevisionSource, window: Window): Promise<RunWiki> {
  if (!source.streamed) return runWiki(session, flags, source, window);
  // Named by the setting, the run may find collect done: its later stages link as the store recorded.
  const known = session.settings.wiki === undefined ? { wiki: '', articleBaseUrl: '' } : await runWiki(session, flags, null);
  return { ...known, nameWiki: () => runWiki(session, flags, source) };
}

export interface EntityNameFlags {
  /** A Wikidata JSON dump to name entities from (`--labels FILE`). */
  labels?: string;
  /** The Wikibase API whose wbgetentities names the rest (`--labels-api URL`); the --api URL when absent. */
  labelsApi?: string;
}

/** `--labels FILE` and `--labels-api URL`, for the commands whose runs name entities (weekly, sync). */
export function entityNameOptions(): OptionsOf<EntityNameFlags> {
  return {
    labels: new Option('--labels <file>', 'a Wikidata JSON dump (plain or compressed) naming the entities that Wikidata facts refer to'),
    labelsApi: new Option('--labels-api <url>', 'a Wikibase API whose wbgetentities names the entities nothing else names (default: --api)'),
  };
}

/**
 * Where the labels stage names the entities the store lacks (docs/ARCHITECTURE.md §16): the labels
 * file, then wbgetentities of `--labels-api`, or of the source's own API (a run on Wikidata's).
 */
function entityNameSources(session: Session, flags: SourceFlags & EntityNameFlags): EntityNameSource[] {
  const sources: EntityNameSource[] = [];
  if (flags.labels !== undefined) {
    if (flags.labels === '-' || !existsSync(flags.labels)) throw new UserError('E_FILE_UNREADABLE', `labels file ${flags.labels} not found: give a Wikidata JSON dump (plain or compressed)`);
    sources.push(new LabelsFile(flags.labels));
  }
  const api = flags.labelsApi ?? flags.api;
  if (api !== undefined) sources.push(new WbGetEntities(wikiClientOptions(session.settings, apiUrl(api, flags.labelsApi === undefined ? '--api' : '--labels-api').toString())));
  return sources;
}

/**
 * A weekly run's identity. The source counts only through the wiki it reads: the same window
 * collected from a dump and then parsed without a source is one run. A run whose wiki its source
 * is still to name has none (null) until collect names it.
 */
export function weeklyRunParams(session: Session, input: WeeklyInput, days: number): Record<string, unknown> {
  const { settings } = session;
  const wiki = input.wiki === '' ? null : input.wiki;
  return { window: input.window, days, wiki, seed: settings.seed, revertHours: settings.revertHours, llm: llmRunParam(settings) };
}

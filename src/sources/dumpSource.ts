/**
 * Revision source over a MediaWiki XML history dump (`pages-meta-history`): one streaming pass
 * yields, per main-namespace article changed inside a window, its in-window revisions and the
 * last revision before the window, with text kept only for those, in parts of bounded size: a
 * page's whole history (15,000 revisions, 1 GB of text for Anarchism) never sits in memory. Of the
 * Wikibase entity pages it passes over, the same pass reads the last revision's English name.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { isoSeconds, normaliseTimestamp } from '../dates.js';
import { InputError, UserError } from '../errors.js';
import type { DatedEntityName, PageMove, PageRef, Revision, Window } from '../model.js';
import { openDumpInput, STDIN_SOURCE, type DumpInputOptions, type DumpStream } from './dumpInput.js';
import { readDump, readSiteInfo, type DumpPageHeader, type RevisionMeta, type SiteInfo } from './dumpReader.js';
import { entityNameOfText } from './entityNames.js';
import { partIsFull, type CollectOptions, type PageHistoryPart, type RevisionSource, type WikiSite } from './RevisionSource.js';

/**
 * English move summaries, old and new: `moved [[A]] to [[B]]` and `User moved page [[A]] to
 * [[B]]`, optionally `over redirect` / `without leaving a redirect`, then an optional `: reason`.
 */
const MOVE_COMMENT =
  /^(?:(?:\[\[[^\]]*\]\]|[^[\]]+?) )?moved (?:page )?\[\[:?([^\]|]+)(?:\|[^\]]*)?\]\] to \[\[:?([^\]|]+)(?:\|[^\]]*)?\]\](?: over (?:a )?redirect)?(?: without leaving a redirect)?(?:\s*:.*)?$/s;

const HOUR_MS = 3_600_000;

/**
 * The titles of a page move, read from the edit summary MediaWiki writes on the moved page's null
 * revision (a dump has no move log).
 *
 * @returns the old and the new title, or null for a summary that is no move
 * @example parseMoveComment('Ann moved page [[Old]] to [[New]]: typo') // { from: 'Old', to: 'New' }
 */
export function parseMoveComment(comment: string): { from: string; to: string } | null {
  const match = MOVE_COMMENT.exec(comment.trim());
  if (!match?.[1] || !match[2]) return null;
  return { from: match[1].trim(), to: match[2].trim() };
}

/** How the dump is opened (a substitute standard input or bzip2), and the origin to record. */
export interface DumpSourceOptions extends DumpInputOptions {
  /** Overrides the origin recorded in run parameters (a stream has no path to name). */
  origin?: string;
}

/** A database name as MediaWiki writes it (`frwiki`, `zh_min_nanwiki`): it names the store's pages and the releases. */
const DbName = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/);
const MainPageUrl = z.url({ protocol: /^https?$/ });

/**
 * The wiki a dump's `<siteinfo>` names: `<dbname>` as its name, and the article path of `<base>`,
 * its main page's URL (`https://fr.wikipedia.org/wiki/Wikip%C3%A9dia:Accueil_principal` gives
 * `https://fr.wikipedia.org/wiki/`; `…/index.php?title=Main_Page` gives `…/index.php?title=`).
 */
export function wikiSiteOf(site: SiteInfo, name: string): WikiSite {
  if (site.dbname !== null && !DbName.safeParse(site.dbname).success) {
    throw new InputError('E_DUMP_MALFORMED', `${name}: its <siteinfo> names the wiki "${site.dbname.slice(0, 100)}", which is not a database name (letters, digits, _ . -)`);
  }
  if (site.base === null) return { wiki: site.dbname, articleBaseUrl: null };
  if (!MainPageUrl.safeParse(site.base).success) throw new InputError('E_DUMP_MALFORMED', `${name}: its <siteinfo> <base> "${site.base.slice(0, 200)}" is not an http(s) URL`);
  const url = new URL(site.base);
  if (url.searchParams.has('title')) return { wiki: site.dbname, articleBaseUrl: `${url.origin}${url.pathname}?title=` };
  const articles = url.pathname.indexOf('/wiki/');
  const path = articles === -1 ? url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1) : url.pathname.slice(0, articles + '/wiki/'.length);
  return { wiki: site.dbname, articleBaseUrl: `${url.origin}${path}` };
}

/**
 * A revision source over one XML history dump (a file, compressed or not, or standard input), read in
 * one streaming pass per `pagesChangedIn`.
 *
 * @example
 * const source = new DumpRevisionSource('enwiki-pages-meta-history1.xml.bz2');
 * for await (const part of source.pagesChangedIn({ start: '2025-01-13T00:00:00Z', end: '2025-01-20T00:00:00Z' }, { followHours: 48 })) store(part);
 */
export class DumpRevisionSource implements RevisionSource {
  readonly kind = 'dump' as const;
  readonly origin: string;
  readonly streamed: boolean;
  private readonly source: string;
  private readonly inputOptions: DumpInputOptions;
  private readOnce = false;
  private siteRead: Promise<WikiSite> | null = null;
  /** Standard input's head, read for its site, and the rest of it: the pass reads on from there. */
  private stdinHead: { read: Buffer[]; rest: AsyncGenerator<Buffer> } | null = null;
  /** The newest revision the last whole pass read, of any page: see `historyEnd`. */
  private newestRevision: string | null | undefined;

  /**
   * Opens nothing yet: the file is opened by `pagesChangedIn`.
   *
   * @param source - a dump file (plain or compressed, see dumpInput.ts) or `-` for standard input
   */
  constructor(source: string, options: DumpSourceOptions = {}) {
    const { origin, ...inputOptions } = options;
    this.source = source;
    this.inputOptions = inputOptions;
    this.origin = origin ?? (source === STDIN_SOURCE ? 'dump:standard input' : `dump:${resolve(source)}`);
    // A named pipe (or `<(xzcat dump.xz)`) is read once, as standard input is: its head is kept for the pass.
    this.streamed = source === STDIN_SOURCE || statSync(source, { throwIfNoEntry: false })?.isFIFO() === true;
  }

  /** A source over an already open stream (plain or compressed), e.g. in tests. */
  static fromStream(stream: DumpStream, origin = 'dump:stream'): DumpRevisionSource {
    return new DumpRevisionSource(STDIN_SOURCE, { stdin: stream, origin });
  }

  /**
   * The wiki the dump's `<siteinfo>` names, read from its head alone (a file is opened again for the
   * pass; standard input's head is kept for it).
   */
  site(): Promise<WikiSite> {
    return (this.siteRead ??= this.readSite());
  }

  private async readSite(): Promise<WikiSite> {
    const input = openDumpInput(this.source, this.inputOptions);
    const { site, read } = await readSiteInfo(input);
    if (this.streamed) this.stdinHead = { read, rest: input };
    else await input.return(undefined);
    return wikiSiteOf(site, `dump ${this.streamed ? 'on standard input' : this.source}`);
  }

  /**
   * The newest revision of the dump, of any page (every namespace, redirects too), as the last whole
   * `pagesChangedIn` pass read it: the dump holds every revision up to there and vouches for no later
   * instant (`RevisionSource.historyEnd`). Undefined before a whole pass; null for a dump of no revision.
   */
  historyEnd(): string | null | undefined {
    return this.newestRevision;
  }

  /** The dump's bytes: standard input read on after its head when its site was read, else opened now. */
  private input(): AsyncIterable<Buffer> {
    const head = this.stdinHead;
    if (head === null) return openDumpInput(this.source, this.inputOptions);
    this.stdinHead = null;
    return (async function* () {
      yield* head.read;
      yield* { [Symbol.asyncIterator]: () => head.rest };
    })();
  }

  /**
   * The pages changed in `window`, as `RevisionSource.pagesChangedIn` describes; with
   * `onEntityName`, also the English names of the Wikibase entity pages passed over.
   *
   * @throws UserError for a window timestamp that does not parse, a dump file that cannot be opened,
   *   or standard input read a second time; InputError for XML or compressed data that is broken or
   *   truncated, or a decompressor that is not installed (the message names its package)
   */
  async *pagesChangedIn(window: Window, options: CollectOptions = {}): AsyncGenerator<PageHistoryPart> {
    yield* this.pagesOfPass(window, options, new Set());
  }

  /**
   * `pagesChangedIn`, with the pages a pass over several files (DumpFilesSource) has already given:
   * a page id seen again is skipped, so that the first file holding it gives it whole (the store
   * learns a page is done only once its parts are written, later than the reading goes on).
   */
  async *pagesOfPass(window: Window, options: CollectOptions, given: Set<number>): AsyncGenerator<PageHistoryPart> {
    if (this.streamed) {
      // A stream cannot be rewound: a second pass would silently see an empty dump.
      if (this.readOnce) throw new UserError('E_DUMP_STDIN_UNUSABLE', `${this.origin} can be read only once`);
      this.readOnce = true;
    }
    const bounds = { start: normaliseTimestamp(window.start), end: normaliseTimestamp(window.end) };
    const horizon =
      options.followHours === undefined
        ? null
        : {
            from: isoSeconds(new Date(Date.parse(bounds.start) - options.followHours * HOUR_MS)),
            until: isoSeconds(new Date(Date.parse(bounds.end) + options.followHours * HOUR_MS)),
          };
    const isDone = options.isDone ?? (() => false);
    let current: PageCollector | null = null;
    let skippedPageId: number | null = null;
    let found = 0;
    let newest: string | null = null;

    const collectorFor = (page: DumpPageHeader): PageCollector | null => {
      if (current?.page === page) return current;
      if (skippedPageId === page.pageId) return null;
      if (page.namespace !== 0 || (page.redirect && !options.keepRedirects) || given.has(page.pageId) || isDone(page.pageId)) {
        skippedPageId = page.pageId;
        current = null;
        return null;
      }
      skippedPageId = null;
      current = new PageCollector(page, bounds, horizon);
      return current;
    };

    const names = options.onEntityName ? new EntityNameKeeper(bounds, options.onEntityName, options.namesOf ?? (() => true)) : null;
    const wantText = (page: DumpPageHeader, meta: RevisionMeta): boolean | 'later' => {
      const collected = collectorFor(page)?.needsText(meta) ?? false;
      if (collected === true || names === null) return collected;
      return names.needsText(page, meta) || collected;
    };

    for await (const event of readDump(this.input(), { wantText })) {
      const collector = collectorFor(event.page);
      if (event.kind === 'revision') {
        if (newest === null || event.revision.timestamp > newest) newest = event.revision.timestamp;
        names?.add(event.page, event.revision, event.readText);
        if (!collector) continue;
        collector.add(event.revision, event.readText);
        if (collector.partIsFull()) yield collector.takeInWindow();
        continue;
      }
      names?.pageEnd(event.page);
      current = null;
      skippedPageId = null;
      if (!collector?.changed) continue;
      given.add(event.page.pageId);
      found++;
      options.onPagesFound?.(found);
      yield* collector.finish(event.invalidUtf8);
    }
    this.newestRevision = newest;
  }
}

/**
 * What one page contributes to a window, gathered while its revisions stream past: in-window
 * revisions leave in parts as they fill; the latest revision before the window is known only at
 * the page's end (dumps are usually, not always, in order), so it leaves last.
 */
class PageCollector {
  private inWindow: Revision[] = [];
  private inWindowChars = 0;
  /** Whether the page has a revision inside the window, i.e. is part of the window at all. */
  changed = false;
  private latestBefore: Revision | null = null;
  /** Reads the text of `latestBefore`, decoded only once it is known to be the last before the window. */
  private readLatestBefore: (() => string | null) | null = null;
  private readonly moves: PageMove[] = [];
  /** Before the window: those from the horizon's start, and the latest one before that (metadata only). */
  private readonly predecessors: Revision[] = [];
  private beforeHorizon: Revision | null = null;
  private readonly followers: Revision[] = [];
  /** The page's revision ids so far: one read twice would replace the other in the store. */
  private readonly revIds = new Set<number>();

  constructor(
    readonly page: DumpPageHeader,
    private readonly window: Window,
    /** The revert horizon around the window, whose revisions are kept as metadata (revert detection); null: none. */
    private readonly horizon: { from: string; until: string } | null,
  ) {}

  /**
   * Revisions of the collection span [start, end], the end instant included (docs/ARCHITECTURE.md
   * §2: the day after the week is answered from them), and, read later, a pre-window one that is
   * the latest seen so far: of a history, nearly every revision is that when it is read, and only
   * the last one is kept.
   */
  needsText(meta: RevisionMeta): boolean | 'later' {
    if (meta.timestamp > this.window.end) return false;
    if (meta.timestamp >= this.window.start) return true;
    return this.latestBefore === null || isLater(meta, this.latestBefore) ? 'later' : false;
  }

  add(revision: Revision, readText?: () => string | null): void {
    if (this.revIds.has(revision.revId)) {
      throw new InputError('E_DUMP_MALFORMED', `dump has revision ${revision.revId} twice in page "${this.page.title}" (page id ${this.page.pageId})`);
    }
    this.revIds.add(revision.revId);
    if (revision.timestamp > this.window.end) {
      if (this.horizon !== null && revision.timestamp <= this.horizon.until) this.followers.push({ ...revision, text: null });
      return;
    }
    if (this.horizon !== null && revision.timestamp < this.window.start) {
      if (revision.timestamp >= this.horizon.from) this.predecessors.push({ ...revision, text: null });
      else if (this.beforeHorizon === null || isLater(revision, this.beforeHorizon)) this.beforeHorizon = { ...revision, text: null };
    }
    const move = parseMoveComment(revision.comment);
    if (move) this.moves.push({ timestamp: revision.timestamp, ...move });
    if (revision.timestamp >= this.window.start) {
      this.changed = true;
      this.inWindow.push(revision);
      this.inWindowChars += revision.text?.length ?? 0;
    } else if (this.latestBefore === null || isLater(revision, this.latestBefore)) {
      this.latestBefore = revision;
      this.readLatestBefore = readText ?? null;
    }
  }

  partIsFull(): boolean {
    return partIsFull(this.inWindow.length, this.inWindowChars);
  }

  takeInWindow(): PageHistoryPart {
    const part: PageHistoryPart = { kind: 'revisions', page: this.pageRef(), revisions: this.inWindow };
    this.inWindow = [];
    this.inWindowChars = 0;
    return part;
  }

  /** The last revisions (the baseline among them) and the page's end. */
  *finish(invalidUtf8: number): Generator<PageHistoryPart> {
    if (this.latestBefore) this.inWindow.push(this.readLatestBefore ? { ...this.latestBefore, text: this.readLatestBefore() } : this.latestBefore);
    if (this.inWindow.length > 0) yield this.takeInWindow();
    const moves = [...this.moves].sort((a, b) => compareStrings(a.timestamp, b.timestamp));
    const followers = [...this.followers].sort(compareRevisions);
    // The baseline came with its text; the others of the horizon before the window only as metadata.
    const predecessors = [...this.predecessors, ...(this.beforeHorizon ? [this.beforeHorizon] : [])]
      .filter((revision) => revision.revId !== this.latestBefore?.revId)
      .sort(compareRevisions);
    yield {
      kind: 'end',
      page: this.pageRef(),
      moves,
      ...(predecessors.length > 0 ? { predecessors } : {}),
      ...(followers.length > 0 ? { followers } : {}),
      ...(invalidUtf8 > 0 ? { invalidUtf8 } : {}),
    };
  }

  private pageRef(): PageRef {
    const { pageId, title, namespace } = this.page;
    return { pageId, title, namespace };
  }
}

/** The content models of Wikibase entities that have English labels: items and properties. */
const ENTITY_MODELS: ReadonlySet<string> = new Set(['wikibase-item', 'wikibase-property']);

/**
 * The English names of the entity pages a pass does not collect (a main-namespace page with a
 * revision in the window is collected, and named by its own revisions): from each one's last
 * revision, whose text is kept undecoded until the page's end shows it is the last, then decoded
 * alone; a last revision without an English label gives a name without one. A page of another
 * model, or a redirect, costs nothing more than before.
 */
class EntityNameKeeper {
  private page: DumpPageHeader | null = null;
  private inWindow = false;
  private latest: RevisionMeta | null = null;
  private readLatest: (() => string | null) | null = null;

  constructor(
    private readonly window: Window,
    private readonly tell: (name: DatedEntityName) => void,
    private readonly wanted: (pageId: number) => boolean,
  ) {}

  needsText(page: DumpPageHeader, meta: RevisionMeta): 'later' | false {
    this.follow(page);
    if (page.redirect || this.collected() || !ENTITY_MODELS.has(meta.model ?? '') || !this.wanted(page.pageId)) return false;
    return this.latest === null || isLater(meta, this.latest) ? 'later' : false;
  }

  add(page: DumpPageHeader, revision: Revision, readText: (() => string | null) | undefined): void {
    this.follow(page);
    if (revision.timestamp >= this.window.start && revision.timestamp <= this.window.end) this.inWindow = true;
    if (readText === undefined || !ENTITY_MODELS.has(revision.model ?? '')) return;
    if (this.latest === null || isLater(revision, this.latest)) {
      this.latest = revision;
      this.readLatest = readText;
    }
  }

  pageEnd(page: DumpPageHeader): void {
    this.follow(page);
    const text = this.collected() || page.redirect || !this.wanted(page.pageId) ? null : this.readLatest?.();
    const entity = text ? entityNameOfText(text) : null;
    // A last revision without an English label is told too: the label an older one had no longer names the entity.
    if (entity && this.latest) this.tell({ id: entity.id, label: entity.name.label, aliases: entity.name.aliases, asOf: this.latest.timestamp });
    this.page = null;
  }

  private collected(): boolean {
    return this.page?.namespace === 0 && this.inWindow;
  }

  private follow(page: DumpPageHeader): void {
    if (this.page === page) return;
    this.page = page;
    this.inWindow = false;
    this.latest = null;
    this.readLatest = null;
  }
}

function isLater(a: RevisionMeta, b: RevisionMeta): boolean {
  return compareRevisions(a, b) > 0;
}

function compareRevisions(a: RevisionMeta, b: RevisionMeta): number {
  return compareStrings(a.timestamp, b.timestamp) || a.revId - b.revId;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

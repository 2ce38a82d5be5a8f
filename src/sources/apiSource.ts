/**
 * The MediaWiki Action API as a revision source (docs/ARCHITECTURE.md §3.1), through `mwn`.
 *
 * Which pages changed in a window comes from `list=recentchanges` when the wiki still keeps recent
 * changes for the whole window, and otherwise from the revision history of every candidate page:
 * the configured `titles`, or all main-namespace articles (`list=allpages`). The latter is fine for
 * small wikis only; on Wikipedia an old window needs a `titles` list or an XML dump.
 *
 * Requests per page stay low. With recent changes, one listing over the revert horizon around the
 * window describes every in-window edit, every predecessor and every follower, and the first
 * in-window edit's `old_revid` names the baseline (the last revision before the window). Page
 * facts come 50 page ids per `prop=info` request, and content (with the baseline's metadata) 50
 * revision ids per request, only for the revisions yielded. Only pages whose recent changes may
 * miss a revision (moved in the window, or whose edits do not chain) and windows older than recent
 * changes cost one request per page, listing its history backwards from the horizon.
 *
 * Politeness: a descriptive User-Agent, `maxlag=5`, at most 3 requests in flight and an optional
 * per-minute cap, shared by everything one source does; 429 and maxlag answers pause the whole
 * source for their Retry-After; 5xx and network errors back off exponentially with jitter. mwn's
 * own retries are disabled (they ignore Retry-After on 429 and never back off), so each failure is
 * retried exactly once per attempt, here.
 */
import { isoSeconds, normaliseTimestamp } from '../dates.js';
import { UserError } from '../errors.js';
import { DEFAULT_CONTENT_MODEL, type PageMove, type PageRef, type Revision, type Window } from '../model.js';
import type { CollectOptions, PageDeletion, PageHistoryPart, RevisionSource } from './RevisionSource.js';
import {
  AllPagesReply,
  InfoReply,
  LogEventsReply,
  OldestChangeReply,
  RecentChangesReply,
  RevisionsReply,
  type LogEvent,
  type RecentChange,
  type RevisionEntry,
} from './mediawikiReplies.js';
import type { ListedPage, ListingKey, RecentChangesSpool } from '../model/recentChanges.js';
import { MemorySpool } from './recentChangesSpool.js';
import { revisionsById } from './revisionContent.js';
import { IDS_PER_REQUEST, positive, WikiClient, type WikiClientOptions } from './wikiClient.js';

/** The wiki client's options, and how this source finds the pages changed in an old window. */
export interface ApiSourceOptions extends WikiClientOptions {
  /** How far back the wiki keeps recent changes ($wgRCMaxAge); default 30 days, as on Wikimedia wikis. */
  rcMaxAgeDays?: number;
  /** Candidate pages when the window is older than recent changes reach; default all articles. */
  titles?: string[];
}

const DEFAULT_RC_MAX_AGE_DAYS = 30;
/** Revisions whose content is held in memory at once before their pages are yielded. */
const REVISIONS_PER_CONTENT_GROUP = 2 * IDS_PER_REQUEST;
const RC_LIMIT = 200;
const LOG_LIMIT = 500;
const ALLPAGES_LIMIT = 500;
const REVISION_LIST_LIMIT = 50;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * A revision source over a live wiki's Action API: recent changes for a recent window, page
 * histories (of `titles`, or of every article) for an older one; polite as the module says.
 *
 * @example
 * const source = new ApiRevisionSource({ apiUrl: 'https://en.wikipedia.org/w/api.php', userAgent: 'wikidelta/0.1 (you@example.org)', titles: ['Paris'] });
 * for await (const part of source.pagesChangedIn({ start: '2025-01-13T00:00:00Z', end: '2025-01-20T00:00:00Z' })) store(part);
 * const deleted = await source.deletionsIn(window);
 */
export class ApiRevisionSource implements RevisionSource {
  readonly kind = 'api' as const;
  readonly origin: string;
  private readonly api: WikiClient;
  private readonly rcMaxAgeDays: number;
  private readonly titles: string[] | undefined;

  /**
   * Makes the source and its client; no request is sent before the first read.
   *
   * @throws UserError for an option out of range (no User-Agent, more than 3 requests in flight, a
   *   non-positive `rcMaxAgeDays`, timeout or reply cap)
   */
  constructor(options: ApiSourceOptions) {
    this.origin = options.apiUrl;
    this.api = new WikiClient(options);
    this.rcMaxAgeDays = positive(options.rcMaxAgeDays ?? DEFAULT_RC_MAX_AGE_DAYS, 'rcMaxAgeDays');
    this.titles = options.titles;
  }

  /**
   * The pages changed in `window`, as `RevisionSource.pagesChangedIn` describes.
   *
   * @throws UserError for a window that is not two timestamps, start before end, or a negative
   *   `followHours`; RemoteError for a wiki that failed past the retries or sent a malformed reply
   */
  async *pagesChangedIn(window: Window, options: CollectOptions = {}): AsyncIterable<PageHistoryPart> {
    const span = parseWindow(window);
    if (options.followHours !== undefined && !(options.followHours >= 0)) {
      throw new UserError('E_SETTING_INVALID', `invalid followHours ${options.followHours}: expected a number of hours ≥ 0`);
    }
    const movesByPage = await this.movesIn(span);
    const reach = reachOf(span, options.followHours);
    const batches =
      (await this.recentChangesCover(reach))
        ? this.recentlyChangedPages(span, reach, movesByPage, await this.restoredSince(reach), options)
        : this.pageHistories(this.titles ? this.pagesTitled(this.titles, options) : this.allArticles(options), span, reach);
    let found = 0;
    for await (const histories of batches) {
      const changed = histories.filter((history) => history.inWindow.length > 0);
      found += changed.length;
      options.onPagesFound?.(found);
      for (const group of contentGroups(changed)) {
        yield* this.contentParts(group, movesByPage, options.followHours !== undefined);
      }
    }
  }

  /**
   * Whether recent changes are complete from the start of the horizon before the window: everything younger than the
   * wiki's $wgRCMaxAge is kept, and changes are purged oldest first, so the oldest kept change and
   * everything after it are all there too (asked only when the window is older than $wgRCMaxAge).
   */
  private async recentChangesCover(span: Span): Promise<boolean> {
    if (span.start >= Date.now() - this.rcMaxAgeDays * DAY_MS) return true;
    const reply = await this.api.read(
      { action: 'query', list: 'recentchanges', rcdir: 'newer', rclimit: 1, rcprop: 'timestamp' },
      OldestChangeReply,
    );
    const oldest = reply.query?.recentchanges[0]?.timestamp;
    return oldest !== undefined && span.start >= Date.parse(oldest);
  }

  /**
   * Pages edited or created in the window, 50 at a time in page-id order, their revisions read from
   * the spooled recent changes where those are complete for the page; then pages moved in the
   * window, read from their history. The listing is spooled first (a page's edits are all known only
   * once the listing has passed the horizon) and dropped once every page has been yielded.
   */
  private async *recentlyChangedPages(
    span: Span,
    reach: Span,
    movesByPage: Map<number, PageMove[]>,
    restored: ReadonlySet<number>,
    options: CollectOptions,
  ): AsyncIterable<MetadataHistory[]> {
    const isDone = options.isDone ?? (() => false);
    const spool = options.recentChanges ?? new MemorySpool();
    const key = { origin: this.origin, start: isoSeconds(new Date(reach.start)), horizonEnd: isoSeconds(new Date(reach.end)) };
    await this.spoolRecentChanges(key, reach, spool);
    // The spool's split keeps the end instant in the window (docs/ARCHITECTURE.md §2).
    const window = { start: isoSeconds(new Date(span.start)), end: isoSeconds(new Date(span.end)) };
    // Moved and restored pages are read from their history below: recent changes may miss a move's
    // null revision, and MediaWiki drops a page's recent changes when it is deleted, never to put them back.
    const fromHistory = (pageId: number) => movesByPage.has(pageId) || restored.has(pageId);
    let after = 0;
    for (let listed = spool.pages(key, window, after, IDS_PER_REQUEST); listed.length > 0; listed = spool.pages(key, window, after, IDS_PER_REQUEST)) {
      after = listed.at(-1)?.pageId ?? after;
      const wanted = new Map(listed.filter((changes) => !fromHistory(changes.pageId) && !isDone(changes.pageId)).map((changes) => [changes.pageId, changes]));
      if (wanted.size === 0) continue;
      const pages = await this.articlesById([...wanted.keys()], options);
      yield await Promise.all(
        pages.map((page) => {
          const changes = wanted.get(page.pageId) as ListedPage;
          return chained(changes) ? historyFromChanges(page, changes) : this.revisionMetadata(page, span, reach);
        }),
      );
    }
    const moved = [...new Set([...movesByPage.keys(), ...restored])].filter((pageId) => !isDone(pageId));
    for (let at = 0; at < moved.length; at += IDS_PER_REQUEST) {
      const pages = await this.articlesById(moved.slice(at, at + IDS_PER_REQUEST), options);
      yield await Promise.all(pages.map((page) => this.revisionMetadata(page, span, reach)));
    }
    spool.discard(key);
  }

  /**
   * Recent changes from the window's start to the horizon into the spool, a reply at a time with the
   * continuation after it: a listing cut short by a crash goes on from its last stored reply.
   */
  private async spoolRecentChanges(key: ListingKey, span: Span, spool: RecentChangesSpool): Promise<void> {
    const progress = spool.progress(key);
    if (progress.complete) return;
    const replies = this.api.continuedFrom(
      {
        action: 'query',
        list: 'recentchanges',
        rcnamespace: 0,
        rctype: 'edit|new',
        ...listBounds('rc', span),
        rcprop: 'ids|timestamp|sha1|comment|user|flags',
        rclimit: RC_LIMIT,
      },
      RecentChangesReply,
      progress.next,
    );
    for await (const { reply, next } of replies) {
      const edits = (reply.query?.recentchanges ?? []).map((change) => ({ pageId: change.pageid, revision: revisionFromChange(change) }));
      spool.append(key, edits, next);
    }
  }

  private async *pageHistories(pages: AsyncIterable<PageRef[]>, span: Span, reach: Span): AsyncIterable<MetadataHistory[]> {
    for await (const batch of pages) yield await Promise.all(batch.map((page) => this.revisionMetadata(page, span, reach)));
  }

  private async *pagesTitled(titles: string[], options: CollectOptions): AsyncIterable<PageRef[]> {
    // Two spellings of one title resolve to the same page.
    const seen = new Set<number>();
    for (let at = 0; at < titles.length; at += IDS_PER_REQUEST) {
      const reply = await this.api.read(
        { action: 'query', prop: 'info', titles: titles.slice(at, at + IDS_PER_REQUEST).join('|') },
        InfoReply,
      );
      yield articlesIn(reply, options).filter((page) => {
        const fresh = !seen.has(page.pageId);
        seen.add(page.pageId);
        return fresh && !options.isDone?.(page.pageId);
      });
    }
  }

  private async *allArticles(options: CollectOptions): AsyncIterable<PageRef[]> {
    const replies = this.api.continued(
      { action: 'query', list: 'allpages', apnamespace: 0, apfilterredir: options.keepRedirects ? 'all' : 'nonredirects', aplimit: ALLPAGES_LIMIT },
      AllPagesReply,
    );
    for await (const reply of replies) {
      const pages = (reply.query?.allpages ?? [])
        .map((entry) => ({ pageId: entry.pageid, title: entry.title, namespace: entry.ns }))
        .filter((page) => !options.isDone?.(page.pageId));
      // Keep the per-page revision requests of one batch within what fits a content group.
      for (let at = 0; at < pages.length; at += IDS_PER_REQUEST) yield pages.slice(at, at + IDS_PER_REQUEST);
    }
  }

  /** Current title, namespace and redirect state of pages: main-namespace articles only (redirects too when kept). */
  private async articlesById(pageIds: number[], options: CollectOptions): Promise<PageRef[]> {
    const reply = await this.api.read({ action: 'query', prop: 'info', pageids: pageIds.join('|') }, InfoReply);
    const byId = new Map(articlesIn(reply, options).map((page) => [page.pageId, page]));
    return pageIds.flatMap((pageId) => byId.get(pageId) ?? []);
  }

  /**
   * One backwards walk from the end of the revert horizon (or the window) gives the followers, the
   * in-window revisions, the baseline's id and the predecessors, usually in a single request.
   */
  private async revisionMetadata(page: PageRef, span: Span, reach: Span): Promise<MetadataHistory> {
    const history: MetadataHistory = { page, baselineRevId: null, predecessors: [], inWindow: [], followers: [] };
    const replies = this.api.continued(
      {
        action: 'query',
        prop: 'revisions',
        pageids: page.pageId,
        rvprop: 'ids|timestamp|sha1|comment|user|flags',
        rvdir: 'older',
        // The end instant is collected, so a walk without followers starts there.
        rvstart: isoSeconds(new Date(Math.max(reach.end - 1000, span.end))),
        rvlimit: REVISION_LIST_LIMIT,
      },
      RevisionsReply,
    );
    walk: for await (const reply of replies) {
      for (const entry of revisionsIn(reply)) {
        const revision = revisionFrom(entry, null);
        const time = Date.parse(revision.timestamp);
        if (time > span.end) history.followers.push(revision);
        else if (time >= span.start) history.inWindow.push(revision);
        else {
          // The baseline, then before it the horizon's revisions and the latest one before those, as metadata.
          if (history.baselineRevId === null) history.baselineRevId = revision.revId;
          else history.predecessors.push(revision);
          if (time < reach.start) break walk;
        }
      }
    }
    history.followers.reverse();
    history.inWindow.reverse();
    history.predecessors.reverse();
    return history;
  }

  /**
   * A content group's parts: the texts of its pages come in one fetch, except for a lone page too
   * big for one, whose texts come a slice at a time so that they never sit in memory all at once.
   */
  private async *contentParts(group: MetadataHistory[], movesByPage: Map<number, PageMove[]>, withHorizon: boolean): AsyncIterable<PageHistoryPart> {
    const beforeHorizon = withHorizon ? await this.revisionsBeforeHorizon(group) : new Map<number, Revision>();
    const [lone] = group;
    if (group.length === 1 && lone) {
      const ids = revIdsToFetch(lone);
      for (let at = 0; at < ids.length; at += REVISIONS_PER_CONTENT_GROUP) {
        const slice = ids.slice(at, at + REVISIONS_PER_CONTENT_GROUP);
        yield revisionsPart(lone, slice, await this.revisionsWithContent(slice));
      }
      yield endPart(lone, movesByPage, withHorizon, beforeHorizon);
      return;
    }
    const fetched = await this.revisionsWithContent(group.flatMap(revIdsToFetch));
    for (const history of group) {
      yield revisionsPart(history, revIdsToFetch(history), fetched);
      yield endPart(history, movesByPage, withHorizon, beforeHorizon);
    }
  }

  /**
   * The metadata of the revision before each page's listed predecessors, which recent changes name
   * by `old_revid` only (a revert early in the window may restore it), 50 ids a request.
   */
  private async revisionsBeforeHorizon(group: MetadataHistory[]): Promise<Map<number, Revision>> {
    const ids = group.flatMap((history) => {
      const parentId = beforeHorizonIdOf(history);
      const known = parentId === null || parentId === history.baselineRevId || history.predecessors.some((revision) => revision.revId === parentId);
      return known ? [] : [parentId];
    });
    const entries = await revisionsById(this.api, ids, 'ids|timestamp|sha1|comment|user|flags', { content: false });
    return new Map([...entries].map(([revId, entry]) => [revId, revisionFrom(entry, null)]));
  }

  /** The given revisions with their wikitext (null: hidden). */
  private async revisionsWithContent(revIds: number[]): Promise<Map<number, Revision>> {
    const entries = await revisionsById(this.api, revIds, 'ids|timestamp|sha1|comment|user|flags', { content: true });
    const fetched = new Map<number, Revision>();
    for (const [revId, entry] of entries) {
      const main = entry.slots?.main;
      const revision = revisionFrom(entry, main?.texthidden ? null : (main?.content ?? null));
      // The content model chooses the fact extractor; wikitext, the default, is left unsaid.
      fetched.set(revId, main?.contentmodel && main.contentmodel !== DEFAULT_CONTENT_MODEL ? { ...revision, model: main.contentmodel } : revision);
    }
    return fetched;
  }

  /**
   * Moves into or out of the main namespace in the window, by moved page id, oldest first. Moves
   * elsewhere (user pages, talk pages) would only cost page-info requests for pages skipped anyway.
   */
  private async movesIn(span: Span): Promise<Map<number, PageMove[]>> {
    const movesByPage = new Map<number, PageMove[]>();
    for await (const entry of this.logEvents({ letype: 'move' }, span)) {
      // Suppressed entries (actionhidden) name neither the page nor the target.
      const target = entry.params;
      if (!entry.logpage || entry.title === undefined || target?.target_title === undefined) continue;
      if (entry.ns !== 0 && target.target_ns !== 0) continue;
      const moves = movesByPage.get(entry.logpage) ?? [];
      moves.push({ timestamp: normaliseTimestamp(entry.timestamp), from: entry.title, to: target.target_title });
      movesByPage.set(entry.logpage, moves);
    }
    return movesByPage;
  }

  /**
   * Main-namespace pages restored (undeleted) from the start of `span` until now, by page id: their
   * revisions of the span are gone from recent changes, whenever the restoration came.
   */
  private async restoredSince(span: Span): Promise<Set<number>> {
    const restored = new Set<number>();
    // Restorations alone, of articles alone: a window months old would otherwise list every deletion since.
    for await (const entry of this.logEvents({ leaction: 'delete/restore' }, { start: span.start, end: Date.now() }, 0)) {
      if (entry.action === 'restore' && entry.ns === 0 && entry.logpage) restored.add(entry.logpage);
    }
    return restored;
  }

  /**
   * Main-namespace pages deleted in the window, and those restored (undeleted) in it, oldest first
   * (the deletion log): a page deleted and restored is alive again.
   */
  async deletionsIn(window: Window): Promise<PageDeletion[]> {
    const deletions: PageDeletion[] = [];
    for await (const entry of this.logEvents({ letype: 'delete' }, parseWindow(window), 0)) {
      if ((entry.action !== 'delete' && entry.action !== 'restore') || entry.ns !== 0 || entry.title === undefined) continue;
      deletions.push({
        pageId: entry.logpage || null,
        title: entry.title,
        timestamp: normaliseTimestamp(entry.timestamp),
        ...(entry.action === 'restore' ? { restored: true } : {}),
      });
    }
    return deletions;
  }

  /** Log entries of the span, oldest first: of a type (`letype`), or of one action (`leaction`, which overrides a type), in a namespace when given. */
  private async *logEvents(filter: { letype: 'move' | 'delete' } | { leaction: 'delete/restore' }, span: Span, namespace?: number): AsyncGenerator<LogEvent> {
    const replies = this.api.continued(
      {
        action: 'query',
        list: 'logevents',
        ...filter,
        ...(namespace === undefined ? {} : { lenamespace: namespace }),
        ...listBounds('le', span),
        leprop: 'ids|title|type|timestamp|details',
        lelimit: LOG_LIMIT,
      },
      LogEventsReply,
    );
    for await (const reply of replies) yield* reply.query?.logevents ?? [];
  }
}

/* ------------------------------------------------------------------------------------------------
 * Records
 * --------------------------------------------------------------------------------------------- */

interface Span {
  start: number;
  end: number;
}

/**
 * A page's revisions around a window, without content yet. The baseline's metadata comes with its
 * content, so only its id is known here (null for a page created in the window).
 */
interface MetadataHistory {
  page: PageRef;
  baselineRevId: number | null;
  /** Before the baseline within the revert horizon (and, from a history walk, the one before those), oldest first. */
  predecessors: Revision[];
  /**
   * The parent of the oldest revision recent changes listed in the horizon before the window (the
   * baseline when it is the only one): the latest one before the horizon, named by id only.
   */
  beforeHorizonId?: number | null;
  inWindow: Revision[];
  followers: Revision[];
}

/**
 * A list module's bounds over a span, oldest first, both inclusive as the API's are: collection
 * reaches the end instant (docs/ARCHITECTURE.md §2).
 */
function listBounds(prefix: 'rc' | 'le', span: Span): Record<string, string> {
  return {
    [`${prefix}start`]: isoSeconds(new Date(span.start)),
    [`${prefix}end`]: isoSeconds(new Date(span.end)),
    [`${prefix}dir`]: 'newer',
  };
}

/** The revert horizon around the window (the window itself when no horizon is asked for). */
function reachOf(span: Span, followHours: number | undefined): Span {
  const hours = (followHours ?? 0) * HOUR_MS;
  return { start: span.start - hours, end: span.end + hours };
}

function parseWindow(window: Window): Span {
  const start = Date.parse(window.start);
  const end = Date.parse(window.end);
  if (Number.isNaN(start) || Number.isNaN(end) || start >= end) {
    throw new UserError('E_DATE_RANGE_INVALID', `invalid window [${window.start}, ${window.end}): expected two timestamps, start before end`);
  }
  return { start, end };
}

/** Pages in order, cut into groups whose revisions fit one content group (a bigger page goes alone). */
function* contentGroups(histories: MetadataHistory[]): Iterable<MetadataHistory[]> {
  let group: MetadataHistory[] = [];
  let revisions = 0;
  for (const history of histories) {
    const size = revIdsToFetch(history).length;
    if (group.length > 0 && revisions + size > REVISIONS_PER_CONTENT_GROUP) {
      yield group;
      group = [];
      revisions = 0;
    }
    group.push(history);
    revisions += size;
  }
  if (group.length > 0) yield group;
}

function revIdsToFetch(history: MetadataHistory): number[] {
  const inWindow = history.inWindow.map((revision) => revision.revId);
  return history.baselineRevId === null ? inWindow : [history.baselineRevId, ...inWindow];
}

/**
 * Recent changes list a page's revisions completely when each edit's `old_revid` is the edit
 * before it: a revision with no edit row of its own (the null revision of a protection, revisions
 * brought back by an undeletion) breaks the chain. A move's null revision has no edit row either,
 * but may come last, where no chain shows it missing: moved pages are always read from their history.
 */
function chained(changes: ListedPage): boolean {
  const revisions = [...changes.predecessors, ...changes.inWindow, ...changes.followers];
  return revisions.every((revision, index) => index === 0 || revision.parentId === revisions[index - 1]?.revId);
}

function historyFromChanges(page: PageRef, changes: ListedPage): MetadataHistory {
  const baselineRevId = changes.inWindow[0]?.parentId ?? null;
  // The baseline comes with its text; the other predecessors stay metadata.
  const predecessors = changes.predecessors.filter((revision) => revision.revId !== baselineRevId);
  const beforeHorizonId = changes.predecessors[0]?.parentId ?? null;
  return { page, baselineRevId, predecessors, beforeHorizonId, inWindow: changes.inWindow, followers: changes.followers };
}

/** The revisions `ids` names (the baseline and in-window revisions of one page), with their fetched texts. */
function revisionsPart(history: MetadataHistory, ids: number[], fetched: Map<number, Revision>): PageHistoryPart {
  const listed = new Map(history.inWindow.map((revision) => [revision.revId, revision]));
  const revisions = ids.flatMap((revId) => {
    const revision = listed.get(revId);
    // The baseline is not listed: its metadata comes with its content, and it may be gone.
    const content = fetched.get(revId);
    if (!revision) return content ? [content] : [];
    return [{ ...revision, text: content?.text ?? null, ...(content?.model ? { model: content.model } : {}) }];
  });
  return { kind: 'revisions', page: history.page, revisions };
}

function endPart(history: MetadataHistory, movesByPage: Map<number, PageMove[]>, withHorizon: boolean, beforeHorizon: Map<number, Revision>): PageHistoryPart {
  const moves = movesByPage.get(history.page.pageId) ?? [];
  if (!withHorizon) return { kind: 'end', page: history.page, moves };
  const before = beforeHorizon.get(beforeHorizonIdOf(history) ?? -1);
  return { kind: 'end', page: history.page, moves, predecessors: [...(before ? [before] : []), ...history.predecessors], followers: history.followers };
}

/** The revision before the listed horizon (a history walk lists it among the predecessors itself). */
function beforeHorizonIdOf(history: MetadataHistory): number | null {
  return history.beforeHorizonId !== undefined ? history.beforeHorizonId : (history.predecessors[0]?.parentId ?? null);
}

function revisionFrom(entry: RevisionEntry, text: string | null): Revision {
  return {
    revId: entry.revid,
    parentId: entry.parentid ? entry.parentid : null,
    timestamp: normaliseTimestamp(entry.timestamp),
    sha1: entry.sha1hidden ? null : (entry.sha1 ?? null),
    comment: entry.comment ?? '',
    user: entry.user ?? '',
    minor: entry.minor ?? false,
    text,
  };
}

function revisionFromChange(change: RecentChange): Revision {
  return revisionFrom({ ...change, parentid: change.old_revid }, null);
}

function articlesIn(reply: InfoReply, options: CollectOptions): PageRef[] {
  return (reply.query?.pages ?? []).flatMap((page) =>
    page.pageid !== undefined && !page.missing && !page.invalid && (!page.redirect || options.keepRedirects) && page.ns === 0
      ? [{ pageId: page.pageid, title: page.title, namespace: page.ns }]
      : [],
  );
}

function revisionsIn(reply: RevisionsReply): RevisionEntry[] {
  return (reply.query?.pages ?? []).flatMap((page) => page.revisions ?? []);
}

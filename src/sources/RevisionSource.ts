/**
 * The seam every revision source fills (docs/ARCHITECTURE.md §3): what a source yields for a window,
 * in parts of bounded size, so the collect stage reads a wiki's API and a dump alike.
 */
import type { DatedEntityName, PageMove, PageRef, Revision, Window } from '../model.js';
import type { RecentChangesSpool } from '../model/recentChanges.js';

/** What the collect stage asks of a source besides the window; every field is optional. */
export interface CollectOptions {
  /**
   * Pages already stored by an earlier attempt of the same run: a source skips them before
   * fetching any content, so a resumed run repeats no network call.
   */
  isDone?: (pageId: number) => boolean;
  /**
   * The revert horizon: also report, as metadata, the revisions up to this many hours before the
   * window (`predecessors`, with the latest one before those) and after it (`followers`), so that
   * reverts across the window's edges are seen whatever else the store holds (docs/ARCHITECTURE.md §5).
   */
  followHours?: number;
  /** Called with the number of pages the source has found so far, for progress display. */
  onPagesFound?: (count: number) => void;
  /** Where the API source spools its recent-changes listing (default: memory); the collect stage gives the store's. */
  recentChanges?: RecentChangesSpool;
  /**
   * Told the English name of each Wikibase entity page (item or property) the source holds but does not
   * yield (no revision in the window, or outside the main namespace), as its last revision names it:
   * the labels of entities the same dump holds need no other source (docs/ARCHITECTURE.md §16). Only a
   * dump, which holds such pages, calls it; a page whose last revision has no English label is told so (label null).
   */
  onEntityName?: (name: DatedEntityName) => void;
  /** Whether to read the name of this entity page at all (default: every one): a part of a file read on a worker leaves the pages an earlier part named. */
  namesOf?: (pageId: number) => boolean;
  /**
   * Yield pages that are redirects now too (default: skipped, as no question comes from one). Sync
   * asks for them: a tracked article merged into another keeps its values only until the revision
   * that made it a redirect, which the store must hold to end them (docs/ARCHITECTURE.md §5).
   */
  keepRedirects?: boolean;
}

/**
 * A slice of one page's history as a source streams it. A page changed in the window comes as one
 * or more `revisions` parts, then one `end`: together its in-window revisions plus the last
 * revision before the window, in no particular order, each part holding few enough texts to keep
 * in memory whatever the window (a page's whole history can exceed the heap). Parts of different
 * pages never interleave.
 */
export type PageHistoryPart =
  | { kind: 'revisions'; page: PageRef; revisions: Revision[] }
  | {
      kind: 'end';
      page: PageRef;
      /** Title renames of this page seen by the source, oldest first. */
      moves: PageMove[];
      /**
       * Revisions before the window within the revert horizon, and the latest one before those,
       * metadata only (text null; the baseline is not among them, it comes with its text): they tell
       * whether an early change in the window restored an earlier version, and which.
       */
      predecessors?: Revision[];
      /**
       * Revisions after the window within the revert horizon, metadata only (text null): they tell
       * whether a late change in the window was reverted. Sources that cannot see past the window omit it.
       */
      followers?: Revision[];
      /** Invalid UTF-8 sequences the source replaced with U+FFFD in this page, where it can tell (a dump). */
      invalidUtf8?: number;
    };

/** At most this many revision texts, or this many characters of them, travel in one part. */
const PART_REVISIONS = 100;
const PART_TEXT_CHARS = 16 << 20;

/**
 * A producer of page histories for a window. Every implementation (Action API, XML dump) yields the
 * same records for the same edits: main-namespace pages changed inside the window, redirects
 * skipped unless `keepRedirects` asks for them, each with its in-window revisions plus the last revision before the window.
 * `openSource` makes one from the command's `--api`/`--dump` flag; `ApiRevisionSource`,
 * `DumpRevisionSource` and `DumpFilesSource` are the implementations.
 *
 * @example
 * const source = new DumpRevisionSource('enwiki-pages-meta-history1.xml.bz2');
 * for await (const part of source.pagesChangedIn({ start: '2025-01-13T00:00:00Z', end: '2025-01-20T00:00:00Z' }, { followHours: 48 })) {
 *   if (part.kind === 'revisions') keep(part.page, part.revisions); else finish(part.page, part.moves);
 * }
 */
export interface RevisionSource {
  /** Which kind of source: the run parameters record it, and the stages that need a dump check it. */
  readonly kind: 'api' | 'dump';
  /** Human-readable origin, recorded in the run parameters. */
  readonly origin: string;
  /**
   * Streams the history of every main-namespace page changed in `window` as `PageHistoryPart`s: one
   * or more `revisions` parts per page, then its `end` part.
   *
   * @param window - `[start, end)` as ISO timestamps (UTC); revisions at `end` itself are outside
   * @param options - pages to skip, the revert horizon, progress and spool callbacks (`CollectOptions`)
   * @returns the parts, page after page, never two pages interleaved
   * @throws UserError for a timestamp that does not parse (the API source also for a start not before
   *   the end) or a second read of standard input; InputError for a broken dump; RemoteError for a
   *   wiki that failed past the retries
   */
  pagesChangedIn(window: Window, options?: CollectOptions): AsyncIterable<PageHistoryPart>;
  /** What the source says of its wiki, where it says it (a dump's `<siteinfo>`); the API's is its URL. */
  site?(): Promise<WikiSite>;
  /**
   * True for a stream read once (a dump on standard input): what `site` says comes with its first
   * bytes, which a pipe may be slow to give, so a run begins without waiting for them.
   */
  readonly streamed?: boolean;
  /**
   * Main-namespace pages deleted in the window, where the source can tell (a dump cannot, so it
   * leaves this out).
   *
   * @returns the deletions in log order, restorations left out
   */
  deletionsIn?(window: Window): Promise<PageDeletion[]>;
  /**
   * Where the source's history ends, for a source that ends before now: a dump holds the revisions
   * made up to the moment it was made, which its `<siteinfo>` does not give, so its newest revision
   * is the latest instant it vouches for. Known once a `pagesChangedIn` pass has read the whole
   * source (null: it holds no revision); undefined before that, as unknown. A source without it (the
   * API) holds every revision up to now.
   */
  historyEnd?(): string | null | undefined;
}

/** A wiki as its source names it: the name its pages are stored under (`frwiki`) and where its articles are (`https://fr.wikipedia.org/wiki/`); null when unsaid. */
export interface WikiSite {
  wiki: string | null;
  articleBaseUrl: string | null;
}

/** A main-namespace page deletion from the wiki's deletion log. */
export interface PageDeletion {
  /** The deleted page's id, when the log names it. */
  pageId: number | null;
  title: string;
  timestamp: string;
  /** A restoration (undeletion) of the page, not a deletion: it exists again from then on. */
  restored?: boolean;
}

/**
 * Whether a part holding `revisions` revisions with `chars` characters of text has reached its size
 * (100 revisions or 16 Mi characters), so a source yields it and starts the next.
 *
 * @example partIsFull(100, 0) === true; partIsFull(3, 1_000) === false
 */
export function partIsFull(revisions: number, chars: number): boolean {
  return revisions >= PART_REVISIONS || chars >= PART_TEXT_CHARS;
}

import type { DatedEntityName, PageMove, PageRef, Revision, Window } from '../model.js';
import type { RecentChangesSpool } from '../model/recentChanges.js';

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
 * skipped, each with its in-window revisions plus the last revision before the window.
 */
export interface RevisionSource {
  readonly kind: 'api' | 'dump';
  /** Human-readable origin, recorded in the run parameters. */
  readonly origin: string;
  pagesChangedIn(window: Window, options?: CollectOptions): AsyncIterable<PageHistoryPart>;
  /** What the source says of its wiki, where it says it (a dump's `<siteinfo>`); the API's is its URL. */
  site?(): Promise<WikiSite>;
  /** Main-namespace pages deleted in the window, where the source can tell (a dump cannot). */
  deletionsIn?(window: Window): Promise<PageDeletion[]>;
}

/** A wiki as its source names it: the name its pages are stored under (`frwiki`) and where its articles are (`https://fr.wikipedia.org/wiki/`); null when unsaid. */
export interface WikiSite {
  wiki: string | null;
  articleBaseUrl: string | null;
}

export interface PageDeletion {
  /** The deleted page's id, when the log names it. */
  pageId: number | null;
  title: string;
  timestamp: string;
}

/** Whether a part holding `revisions` of `chars` characters of text has reached its size. */
export function partIsFull(revisions: number, chars: number): boolean {
  return revisions >= PART_REVISIONS || chars >= PART_TEXT_CHARS;
}

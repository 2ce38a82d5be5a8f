import type { PageHistory, Window } from '../model.js';

export interface CollectOptions {
  /**
   * Pages already stored by an earlier attempt of the same run: a source skips them before
   * fetching any content, so a resumed run repeats no network call.
   */
  isDone?: (pageId: number) => boolean;
  /** Also report revisions up to this many hours after the window as `followers` (revert detection). */
  followHours?: number;
  /** Called with the number of pages the source has found so far, for progress display. */
  onPagesFound?: (count: number) => void;
}

/**
 * A producer of page histories for a window. Every implementation (Action API, XML dump) yields the
 * same records for the same edits: main-namespace pages changed inside the window, redirects
 * skipped, each with its in-window revisions plus the last revision before the window.
 */
export interface RevisionSource {
  readonly kind: 'api' | 'dump';
  /** Human-readable origin, recorded in the run parameters. */
  readonly origin: string;
  pagesChangedIn(window: Window, options?: CollectOptions): AsyncIterable<PageHistory>;
  /** Main-namespace pages deleted in the window, where the source can tell (a dump cannot). */
  deletionsIn?(window: Window): Promise<PageDeletion[]>;
}

export interface PageDeletion {
  /** The deleted page's id, when the log names it. */
  pageId: number | null;
  title: string;
  timestamp: string;
}

/**
 * A window's recent-changes listing as the API source spools it and the store keeps it
 * (docs/ARCHITECTURE.md §3): the listing's key and progress, its edits, the contract of a spool
 * and the one rule that splits a page's edits around the window. The in-memory spool is in
 * src/sources/recentChangesSpool.ts, the stored one in src/store/recentChangesStore.ts.
 */
import type { Revision, Window } from '../model.js';

/** One listing: a wiki's recent changes over a window and its revert horizon on both sides. */
export interface ListingKey {
  origin: string;
  start: string;
  horizonEnd: string;
}

/** Where a listing stands: the continuation to send next (null: from the beginning), or complete. */
export interface ListingProgress {
  next: Record<string, string> | null;
  complete: boolean;
}

/** A listed edit: the metadata of a revision (text null) and its page. */
export interface ListedEdit {
  pageId: number;
  revision: Revision;
}

/** A page's listed edits, oldest first: those before the window, those in it (its end included), those after it. */
export interface ListedPage {
  pageId: number;
  predecessors: Revision[];
  inWindow: Revision[];
  followers: Revision[];
}

export interface RecentChangesSpool {
  progress(key: ListingKey): ListingProgress;
  /** Keeps one reply's edits and the continuation after them (null: the listing is complete), together. */
  append(key: ListingKey, edits: ListedEdit[], next: Record<string, string> | null): void;
  /** Up to `limit` pages with an edit in the window (its end included), in page-id order after `afterPageId`. */
  pages(key: ListingKey, window: Window, afterPageId: number, limit: number): ListedPage[];
  /** Drops the listing once every page of it has been yielded. */
  discard(key: ListingKey): void;
}

/**
 * A page's edits, sorted oldest first and split at the window's start and end, the end instant
 * collected (docs/ARCHITECTURE.md §2): the one rule of both spools.
 */
export function splitAroundWindow(pageId: number, revisions: Revision[], window: Window): ListedPage {
  const sorted = [...revisions].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.revId - b.revId));
  return {
    pageId,
    predecessors: sorted.filter((revision) => revision.timestamp < window.start),
    inWindow: sorted.filter((revision) => revision.timestamp >= window.start && revision.timestamp <= window.end),
    followers: sorted.filter((revision) => revision.timestamp > window.end),
  };
}

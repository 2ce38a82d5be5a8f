/**
 * Where the API source keeps a window's recent-changes listing while it reads it: rows go out of
 * memory as each reply arrives, with the token that continues the listing after them, so a week of
 * Wikipedia costs no more memory than a reply and a batch of pages, and a crash resumes the listing
 * where it stopped (docs/ARCHITECTURE.md §3). The collect stage passes a spool backed by the store;
 * without one, the source keeps the listing in memory (small wikis, tests of the source alone).
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

/** The in-memory spool: the same contract, for a source used without a store. */
export class MemorySpool implements RecentChangesSpool {
  private readonly listings = new Map<string, { progress: ListingProgress; byPage: Map<number, Revision[]>; sortedIds?: number[] }>();

  private listing(key: ListingKey) {
    const id = JSON.stringify(key);
    let listing = this.listings.get(id);
    if (!listing) {
      listing = { progress: { next: null, complete: false }, byPage: new Map() };
      this.listings.set(id, listing);
    }
    return listing;
  }

  progress(key: ListingKey): ListingProgress {
    return { ...this.listing(key).progress };
  }

  append(key: ListingKey, edits: ListedEdit[], next: Record<string, string> | null): void {
    const listing = this.listing(key);
    for (const { pageId, revision } of edits) {
      const revisions = listing.byPage.get(pageId) ?? [];
      if (!revisions.some((known) => known.revId === revision.revId)) revisions.push(revision);
      listing.byPage.set(pageId, revisions);
    }
    listing.progress = { next, complete: next === null };
    delete listing.sortedIds;
  }

  pages(key: ListingKey, window: Window, afterPageId: number, limit: number): ListedPage[] {
    const listing = this.listing(key);
    // Sorted once per listing state, not per batch: a batch is read for every 50 pages.
    listing.sortedIds ??= [...listing.byPage.keys()].sort((a, b) => a - b);
    const pages: ListedPage[] = [];
    for (let at = firstAbove(listing.sortedIds, afterPageId); at < listing.sortedIds.length && pages.length < limit; at++) {
      const pageId = listing.sortedIds[at] as number;
      const page = splitAroundWindow(pageId, listing.byPage.get(pageId) ?? [], window);
      if (page.inWindow.length > 0) pages.push(page);
    }
    return pages;
  }

  discard(key: ListingKey): void {
    this.listings.delete(JSON.stringify(key));
  }
}

/** The index of the first id above `value` in ascending `ids`. */
function firstAbove(ids: number[], value: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((ids[mid] as number) <= value) low = mid + 1;
    else high = mid;
  }
  return low;
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

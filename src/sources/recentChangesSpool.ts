/**
 * Where the API source keeps a window's recent-changes listing while it reads it: rows go out of
 * memory as each reply arrives, with the token that continues the listing after them, so a week of
 * Wikipedia costs no more memory than a reply and a batch of pages, and a crash resumes the listing
 * where it stopped (docs/ARCHITECTURE.md §3). The collect stage passes a spool backed by the store;
 * without one, the source keeps the listing in memory (small wikis, tests of the source alone). The
 * contract and the split around the window are the store's too, so they live in src/model/recentChanges.ts.
 */
import type { Revision, Window } from '../model.js';
import { splitAroundWindow, type ListedEdit, type ListedPage, type ListingKey, type ListingProgress, type RecentChangesSpool } from '../model/recentChanges.js';

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

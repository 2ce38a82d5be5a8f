import type { PageHistory, Window } from '../../src/model.js';
import type { CollectOptions, RevisionSource } from '../../src/sources/RevisionSource.js';

/**
 * A source's parts put back together as whole page histories, revisions oldest first, in the order
 * the pages ended, each part checked to belong to the page being read: small windows only.
 */
export async function gatherHistories(source: RevisionSource, window: Window, options?: CollectOptions): Promise<PageHistory[]> {
  const histories: PageHistory[] = [];
  let current: PageHistory | null = null;
  for await (const part of source.pagesChangedIn(window, options)) {
    if (current && current.page.pageId !== part.page.pageId) throw new Error(`page ${part.page.pageId} began before page ${current.page.pageId} ended`);
    current ??= { page: part.page, revisions: [], moves: [] };
    if (part.kind === 'revisions') {
      current.revisions.push(...part.revisions);
      continue;
    }
    current.revisions.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.revId - b.revId));
    current.moves = part.moves;
    if (part.predecessors) current.predecessors = part.predecessors;
    if (part.followers) current.followers = part.followers;
    histories.push(current);
    current = null;
  }
  if (current) throw new Error(`page ${current.page.pageId} never ended`);
  return histories;
}

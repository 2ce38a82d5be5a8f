/**
 * Revisions read by id with their main-slot content, for the revision source and the snapshot
 * source alike: 50 ids per request, the requests under the shared client's limits.
 */
import { RevisionsReply, type RevisionEntry } from './mediawikiReplies.js';
import { IDS_PER_REQUEST, type WikiClient } from './wikiClient.js';

/** The revisions by id, each with its main slot; `fields` are the rvprop fields besides content. */
export async function revisionsWithContent(api: WikiClient, revIds: readonly number[], fields: string): Promise<Map<number, RevisionEntry>> {
  const fetched = new Map<number, RevisionEntry>();
  const batches: number[][] = [];
  for (let at = 0; at < revIds.length; at += IDS_PER_REQUEST) batches.push(revIds.slice(at, at + IDS_PER_REQUEST));
  await Promise.all(
    batches.map(async (batch) => {
      const replies = api.continued({ action: 'query', prop: 'revisions', revids: batch.join('|'), rvprop: `${fields}|content`, rvslots: 'main' }, RevisionsReply);
      for await (const reply of replies) {
        // Revisions that did not fit the wiki's result size limit come in a continuation.
        for (const page of reply.query?.pages ?? []) for (const entry of page.revisions ?? []) if (entry.slots?.main) fetched.set(entry.revid, entry);
      }
    }),
  );
  return fetched;
}

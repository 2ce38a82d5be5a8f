/**
 * Revisions read by id, with their main-slot content or as metadata only, for the revision source
 * and the snapshot source alike: 50 ids per request, the requests under the shared client's limits.
 */
import { RevisionsReply, type RevisionEntry } from './mediawikiReplies.js';
import { IDS_PER_REQUEST, type WikiClient } from './wikiClient.js';

/**
 * The revisions by id; `fields` are the rvprop fields besides content. With content, a revision
 * whose main slot did not come (a deleted one) is left out.
 */
export async function revisionsById(
  api: WikiClient,
  revIds: readonly number[],
  fields: string,
  { content }: { content: boolean },
): Promise<Map<number, RevisionEntry>> {
  const fetched = new Map<number, RevisionEntry>();
  const batches: number[][] = [];
  for (let at = 0; at < revIds.length; at += IDS_PER_REQUEST) batches.push(revIds.slice(at, at + IDS_PER_REQUEST));
  await Promise.all(
    batches.map(async (batch) => {
      const params: Record<string, string> = content ? { rvprop: `${fields}|content|contentmodel`, rvslots: 'main' } : { rvprop: fields };
      const replies = api.continued({ action: 'query', prop: 'revisions', revids: batch.join('|'), ...params }, RevisionsReply);
      for await (const reply of replies) {
        // Revisions that did not fit the wiki's result size limit come in a continuation.
        for (const page of reply.query?.pages ?? []) for (const entry of page.revisions ?? []) if (!content || entry.slots?.main) fetched.set(entry.revid, entry);
      }
    }),
  );
  return fetched;
}

/**
 * The weekly diff job (docs/ARCHITECTURE.md §13): a batch of pages carried as their revisions'
 * metadata with the infoboxes the diff reads, and each in-window revision's key changes back, with
 * filter and revert marks. The owner replaces a revision's changes as a whole, so a batch done
 * twice writes the same rows.
 */
import { z } from 'zod';
import { inWindow } from '../dates.js';
import { findReverts } from '../diff/reverts.js';
import { diffInfoboxes } from '../diff/infoboxDiff.js';
import { InfoboxSchema, WindowSchema, type Infobox, type Window } from '../model.js';
import { MarkedKeyChangeSchema, type PageRevisionRow } from '../model/weekly.js';
import { filterReason } from '../select/changeFilters.js';
import { keysUnanswered, type JobKind } from './batchRunner.js';
import { nextTurn } from './nextTurn.js';

const DiffRevision = z.object({
  revId: z.number().int(),
  timestamp: z.string(),
  sha1: z.string().nullable(),
  metadataOnly: z.boolean(),
  /** Only for the revisions the diff reads (see infoboxesNeeded); null for the others, and for one with `sameInfoboxes`. */
  infoboxes: z.array(InfoboxSchema).nullable(),
  /**
   * Its infoboxes are those of the revision with text before it, sent there: most edits leave the
   * infobox alone, and an unchanged infobox is no change (diffInfoboxes of equal lists is empty).
   */
  sameInfoboxes: z.boolean().optional(),
});

const DiffBatchData = z.object({
  window: WindowSchema,
  revertHours: z.number(),
  pages: z.array(z.object({ pageId: z.number().int(), revisions: z.array(DiffRevision) })),
});
export type DiffBatch = z.infer<typeof DiffBatchData>;

const RevisionChanges = z.object({ revId: z.number().int(), prevRevId: z.number().int(), timestamp: z.string(), changes: z.array(MarkedKeyChangeSchema) });

const DiffedBatch = z.object({ pages: z.array(z.object({ pageId: z.number().int(), revisions: z.array(RevisionChanges) })) });
export type DiffedBatch = z.infer<typeof DiffedBatch>;
type PageChanges = DiffedBatch['pages'][number];

/** The revisions whose infoboxes the diff of a page reads: each in-window revision with text and the one with text before it. */
export function infoboxesNeeded(revisions: readonly Pick<PageRevisionRow, 'revId' | 'timestamp' | 'metadataOnly'>[], window: Window): Set<number> {
  const withText = revisions.filter((revision) => !revision.metadataOnly);
  const needed = new Set<number>();
  for (let i = 1; i < withText.length; i++) {
    const current = withText[i]!;
    if (!inWindow(current.timestamp, window)) continue;
    needed.add(withText[i - 1]!.revId);
    needed.add(current.revId);
  }
  return needed;
}

/** A page's key-level changes: every in-window revision with text against the one with text before it. */
export function diffPage(pageId: number, revisions: DiffBatch['pages'][number]['revisions'], window: Window, revertHours: number): PageChanges {
  const revertedBy = findReverts(revisions, revertHours);
  const withText = revisions.filter((revision) => !revision.metadataOnly);
  // Each revision's infoboxes, those marked the same as their predecessor's taken from it.
  const sent: Array<Infobox[] | null> = [];
  withText.forEach((revision, i) => sent.push(revision.sameInfoboxes ? (sent[i - 1] ?? null) : revision.infoboxes));
  const infoboxesOf = (i: number): Infobox[] => {
    const infoboxes = sent[i];
    if (!infoboxes) throw new Error(`page ${pageId}: the infoboxes of revision ${withText[i]?.revId} were not sent with the diff batch`);
    return infoboxes;
  };
  const diffs: PageChanges['revisions'] = [];
  for (let i = 1; i < withText.length; i++) {
    const previous = withText[i - 1]!;
    const current = withText[i]!;
    if (!inWindow(current.timestamp, window)) continue;
    const changes = (current.sameInfoboxes ? [] : diffInfoboxes(infoboxesOf(i - 1), infoboxesOf(i))).map((change) => ({
      ...change,
      filtered: filterReason(change),
      revertedBy: revertedBy.get(current.revId) ?? null,
    }));
    diffs.push({ revId: current.revId, prevRevId: previous.revId, timestamp: current.timestamp, changes });
  }
  return { pageId, revisions: diffs };
}

export const diffPagesJob: JobKind<DiffBatch, DiffedBatch> = {
  name: 'diff-pages',
  data: DiffBatchData,
  output: DiffedBatch,
  async compute(batch) {
    const pages: PageChanges[] = [];
    for (const page of batch.pages) {
      await nextTurn();
      pages.push(diffPage(page.pageId, page.revisions, batch.window, batch.revertHours));
    }
    return { pages };
  },
  unanswered(batch, diffed) {
    const pages = keysUnanswered(
      batch.pages.map((page) => page.pageId),
      diffed.pages.map((page) => page.pageId),
      (pageId) => `page ${pageId}`,
    );
    if (pages) return pages;
    // A page's changes name only its own revisions: they are stored under them.
    const revisionsOf = new Map(batch.pages.map((page) => [page.pageId, new Set(page.revisions.map((revision) => revision.revId))]));
    for (const page of diffed.pages) {
      const own = revisionsOf.get(page.pageId) ?? new Set<number>();
      const foreign = page.revisions.find((revision) => !own.has(revision.revId) || !own.has(revision.prevRevId));
      if (foreign) return `revision ${foreign.revId} after ${foreign.prevRevId} of page ${page.pageId} not in the batch`;
    }
    return null;
  },
};

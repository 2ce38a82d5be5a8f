/**
 * The weekly parse job (docs/ARCHITECTURE.md §13): a batch of revisions carried as their wikitext,
 * and their infoboxes (with the first paragraph of those inside the window) back. The owner writes
 * them by (page, revision), so a batch parsed twice writes the same rows.
 */
import { z } from 'zod';
import { extractFacts, prepareExtractors } from '../content/registry.js';
import { noFacts } from '../content/factExtractor.js';
import { EntityFactsSchema, InfoboxSchema, type EntityFacts, type Infobox } from '../model.js';
import { keysUnanswered, type JobKind } from './batchRunner.js';
import { nextTurn } from './nextTurn.js';

const ParseBatchData = z.object({
  revisions: z.array(
    z.object({
      pageId: z.number().int(),
      revId: z.number().int(),
      text: z.string().nullable(),
      /** The content model, which chooses the fact extractor (docs/ARCHITECTURE.md §16); null: wikitext. */
      model: z.string().nullable().optional(),
      /** Inside the window: its first paragraph is rendered too. */
      firstParagraph: z.boolean(),
    }),
  ),
});
export type ParseBatch = z.infer<typeof ParseBatchData>;

const ParsedBatch = z.object({
  revisions: z.array(
    z.object({
      pageId: z.number().int(),
      revId: z.number().int(),
      infoboxes: z.array(InfoboxSchema),
      firstParagraph: z.string().nullable(),
      leftOut: z.array(z.string()),
      entity: EntityFactsSchema.optional(),
      unreadable: z.string().optional(),
    }),
  ),
});
export type ParsedBatch = z.infer<typeof ParsedBatch>;

/**
 * What the store keeps of a revision's wikitext: its infoboxes, and its first paragraph when asked
 * (null otherwise); a revision without text has none of either. One function for the parse job and
 * the read-dump job (dumpJob.ts), so a page parses the same wherever it was read.
 */
export function parsedText(
  text: string | null,
  firstParagraph: boolean,
  model?: string | null,
): { infoboxes: Infobox[]; firstParagraph: string | null; leftOut: string[]; entity?: EntityFacts; unreadable?: string } {
  const parsed = text === null ? noFacts() : extractFacts(text, model, { firstParagraph });
  return {
    infoboxes: parsed.infoboxes,
    firstParagraph: firstParagraph ? parsed.firstParagraph : null,
    leftOut: parsed.leftOut ?? [],
    ...(parsed.entity ? { entity: parsed.entity } : {}),
    ...(parsed.unreadable === undefined ? {} : { unreadable: parsed.unreadable }),
  };
}

/** A list in an error line: the first few, then how many more. */
function fewOf(ids: readonly number[]): string {
  return ids.length <= 5 ? ids.join(', ') : `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more`;
}

export const parseRevisionsJob: JobKind<ParseBatch, ParsedBatch> = {
  name: 'parse-revisions',
  data: ParseBatchData,
  output: ParsedBatch,
  async compute(batch) {
    await prepareExtractors(batch.revisions.map((revision) => revision.model));
    const revisions: ParsedBatch['revisions'] = [];
    for (const revision of batch.revisions) {
      // A long article parses for a while: the loop's turn keeps a worker's job lock renewed and the owner's progress moving.
      await nextTurn();
      revisions.push({ pageId: revision.pageId, revId: revision.revId, ...parsedText(revision.text, revision.firstParagraph, revision.model) });
    }
    return { revisions };
  },
  unanswered: (batch, parsed) =>
    keysUnanswered(
      batch.revisions.map(({ pageId, revId }) => [pageId, revId] as const),
      parsed.revisions.map(({ pageId, revId }) => [pageId, revId] as const),
      ([pageId, revId]) => `revision ${revId} of page ${pageId}`,
    ),
  describe(batch) {
    const pages = [...new Set(batch.revisions.map((revision) => revision.pageId))];
    return `page${pages.length === 1 ? '' : 's'} ${fewOf(pages)} (revision${batch.revisions.length === 1 ? '' : 's'} ${fewOf(batch.revisions.map((revision) => revision.revId))})`;
  },
};

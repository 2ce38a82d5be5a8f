/**
 * The labeling job (docs/ARCHITECTURE.md §13): a batch of article pairs carried as their sentences,
 * so a worker needs neither the store nor a snapshot of it, and their labels back. The texts travel
 * in the job rather than a shared read-only copy of the store because workers run on other machines.
 */
import { z } from 'zod';
import { labelArticle, labelNewArticle } from '../labels/labeler.js';
import type { ArticleLabels } from '../model/labels.js';
import { UsageSchema } from '../model/llmUsage.js';
import { inBatches, keysUnanswered, type JobKind } from './batchRunner.js';

const LabelPairData = z.object({
  /** The new article's page id: how the owner finds the pair again. */
  pageId: z.number().int(),
  oldSentences: z.array(z.string()).nullable(),
  newSentences: z.array(z.string()),
});

const LabelBatchData = z.object({
  pairs: z.array(LabelPairData),
  thresholds: z
    .object({
      same: z.number(),
      changedMinSimilarity: z.number(),
      newMaxSimilarity: z.number(),
      maxSpan: z.number().int(),
      nliMinSimilarity: z.number(),
      lexicalMinOverlap: z.number(),
    })
    .partial(),
});
export type LabelBatch = z.infer<typeof LabelBatchData>;
export type LabelPair = z.infer<typeof LabelPairData>;

/**
 * Article pairs cut into jobs of `pairsPerJob`, the costliest first, so that no worker (or
 * in-process lane) is left with a long one while the others wait at the end.
 */
export function labelBatches(pairs: readonly LabelPair[], thresholds: LabelBatch['thresholds'], pairsPerJob: number): LabelBatch[] {
  const batches = inBatches(pairs, pairsPerJob).map((batch) => ({ batch: { thresholds, pairs: batch }, cost: batch.reduce((sum, pair) => sum + labelingCost(pair), 0) }));
  return batches.sort((a, b) => b.cost - a.cost).map(({ batch }) => batch);
}

/**
 * What labeling a pair costs, estimated: the sentences found in only one of the two versions, the
 * ones the models are asked about (a sentence kept word for word costs a hash). The sentence count
 * predicted it badly: on the workers benchmark a pair with 20 texts to embed took 1.9 s and one with
 * 137 took 16.6 s, both among the largest by sentences. An article that is new costs nothing.
 */
function labelingCost(pair: LabelPair): number {
  if (pair.oldSentences === null) return 0;
  const olds = new Set(pair.oldSentences);
  const news = new Set(pair.newSentences);
  return pair.newSentences.filter((sentence) => !olds.has(sentence)).length + pair.oldSentences.filter((sentence) => !news.has(sentence)).length;
}

const NliScoresSchema = z.object({ entailment: z.number(), neutral: z.number(), contradiction: z.number() });

/**
 * An article's labels as the labeler returns them: the fields the store needs are checked, the
 * others (the labeler's audit fields) pass through as they are.
 */
const ArticleLabelsSchema = z
  .object({
    sentences: z.array(
      z
        .object({
          newIndex: z.number().int(),
          label: z.enum(['unchanged', 'changed', 'new', 'undecided']),
          oldIndices: z.array(z.number().int()),
          similarity: z.number().nullable(),
          nli: NliScoresSchema.nullable(),
          step: z.string(),
          backend: z.string(),
        })
        .loose(),
    ),
    deleted: z.array(z.number().int()),
    work: z.object({ embedded: z.number().int(), nliPairs: z.number().int() }).loose(),
  })
  .transform((labels) => labels as unknown as ArticleLabels);

/** `usage`: what the batch's judge calls spent, null without a judge. */
const LabelBatchOutput = z.object({ articles: z.array(z.object({ pageId: z.number().int(), labels: ArticleLabelsSchema })), usage: UsageSchema.nullable() });
export type LabeledBatch = z.infer<typeof LabelBatchOutput>;

export const labelArticlesJob: JobKind<LabelBatch, LabeledBatch> = {
  name: 'label-articles',
  data: LabelBatchData,
  output: LabelBatchOutput,
  async compute(batch, env) {
    const models = await env.models();
    // The pairs together, so that their embedder calls meet (src/models/embedder.ts).
    const articles = await Promise.all(
      batch.pairs.map(async (pair) => ({
        pageId: pair.pageId,
        labels: pair.oldSentences ? await labelArticle(pair.oldSentences, pair.newSentences, { ...models, thresholds: batch.thresholds }) : labelNewArticle(pair.newSentences),
      })),
    );
    // Taken at the end: on a judge shared by batches under way at once, each take may hold a little of another's, the sum all of it.
    return { articles, usage: models.judge?.takeUsage() ?? null };
  },
  // Every sentence of every pair labelled: the stage stores an article's labels as the whole of them.
  unanswered: (batch, labeled) =>
    keysUnanswered(
      batch.pairs.map((pair) => [pair.pageId, pair.newSentences.length] as const),
      labeled.articles.map((article) => [article.pageId, article.labels.sentences.length] as const),
      ([pageId, sentences]) => `page ${pageId} (${sentences} sentence${sentences === 1 ? '' : 's'})`,
    ),
};


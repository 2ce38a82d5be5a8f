/**
 * The `label` pipeline (pipeline `monthly-label`, docs/ARCHITECTURE.md §7.3): labels every article
 * pair of two snapshots. Each article is written in its own transaction and skipped when already
 * labeled, so a killed run continues where it stopped and a rerun duplicates nothing.
 */
import type { Store } from '../../src/store/store.js';
import { CachingEmbedder } from '../../src/models/embedder.js';
import { modelRunParams, type Models } from '../../src/models/modelSet.js';
import type { LabelThresholds } from '../../src/labels/labeler.js';
import { inBatches, InProcessRunner, type BatchRunner } from '../../src/queue/batchRunner.js';
import { labelArticlesJob, labelBatches } from '../../src/queue/labelJob.js';
import { StageUsage, withUsage, type Prices } from '../../src/llm/usage.js';
import type { Reporter } from '../../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../../src/runs/stageRunner.js';
import { requireWholeSnapshot } from './snapshot.js';
import { laterRunOnSameTarget } from '../otherRuns.js';

export interface LabelInput extends Models {
  oldName: string;
  newName: string;
  prices?: Prices;
  thresholds?: Partial<LabelThresholds>;
  /** Where the labeling batches run: in this process unless given (the BullMQ queue of `--queue`). */
  batchRunner?: BatchRunner;
}

/** Article pairs per queue job (one: an article takes seconds, a job's overhead milliseconds) and read from the store at a time. */
const LABEL_PAIRS_PER_JOB = 1;
const LABEL_PAIRS_PER_SLICE = 512;
/** Article pairs labeled at once in this process (src/queue/batchRunner.ts), measured by scripts/bench/label.bench.ts. */
export const LABEL_CONCURRENCY = 8;

const labelStage: Stage<LabelInput> = {
  name: 'label',
  async run(input, context) {
    const store = context.store.snapshots;
    // One cache for the whole run, backed by the store's: a sentence seen in any earlier run is not embedded again.
    const embedder = new CachingEmbedder(input.embedder, context.store.embeddings);
    const pairs = store.pairs(input.oldName, input.newName);
    let done = 0;
    const usage = input.judge ? new StageUsage(input.judge) : null;
    const labelAll = async () => {
      const runner = input.batchRunner ?? new InProcessRunner({ models: async () => ({ embedder, nli: input.nli, ...(input.judge ? { judge: input.judge } : {}), ...(input.factReader ? { factReader: input.factReader } : {}) }) }, LABEL_CONCURRENCY);
      // Redone (the pair's labels made by a run with other models): every article again.
      if (context.redone) store.clearLabels(input.oldName, input.newName);
      const todo = pairs.filter((pair) => !store.isLabeled(input.oldName, input.newName, pair.newArticle.pageId));
      done = pairs.length - todo.length;
      // Texts are read a slice at a time, so a month of Wikipedia's articles is never in memory at once.
      for (const slice of inBatches(todo, LABEL_PAIRS_PER_SLICE)) {
        const byPage = new Map(slice.map((pair) => [pair.newArticle.pageId, pair]));
        const texts = slice.map((pair) => ({
          pageId: pair.newArticle.pageId,
          oldSentences: pair.oldArticle ? store.sentences(input.oldName, pair.oldArticle.pageId) : null,
          newSentences: store.sentences(input.newName, pair.newArticle.pageId),
        }));
        // Each article is written in its own transaction as its labels arrive, in whatever order the batches end.
        await runner.run(labelArticlesJob, labelBatches(texts, input.thresholds ?? {}, LABEL_PAIRS_PER_JOB), (labeled) => {
          if (labeled.usage) usage?.add(labeled.usage);
          for (const { pageId, labels } of labeled.articles) {
            const pair = byPage.get(pageId);
            // A batch done twice (a worker lost mid-job) is written once: natural keys, and this check.
            if (!pair || store.isLabeled(input.oldName, input.newName, pageId)) continue;
            store.storeLabels(input.oldName, input.newName, pair, labels);
            context.reporter.progress(++done, pairs.length);
          }
        });
      }
    };
    // What the LLM step spent, here or on the workers, counts in the run's usage (`status`), also when the stage fails.
    if (usage) await withUsage(context, usage, input.prices ?? {}, labelAll);
    else await labelAll();
    const counts = store.labelCounts(input.oldName, input.newName);
    return { articles: pairs.length, new_articles: pairs.filter((pair) => !pair.oldArticle).length, ...counts };
  },
};

/** Labels the pair; refused, before anything is written, when the old snapshot is not taken before the new one or either is not taken whole. */
export async function runLabel(options: { store: Store; reporter: Reporter; input: LabelInput }): Promise<PipelineOutcome> {
  const { input } = options;
  options.store.snapshots.requireEarlier(input.oldName, input.newName);
  requireWholeSnapshot(options.store, input.oldName);
  requireWholeSnapshot(options.store, input.newName);
  const params = { old: input.oldName, new: input.newName, ...modelRunParams(input), thresholds: input.thresholds ?? {} };
  // The pair holds one set of labels: made since by a run with other models, they are made again with this run's.
  const labeled = options.store.snapshots.labeledPairs(input.oldName, input.newName).length > 0;
  const other = labeled ? laterRunOnSameTarget(options.store, 'monthly-label', params, 'label', (run) => run.old === input.oldName && run.new === input.newName) : undefined;
  if (other) options.reporter.warn(`labels of ${input.oldName} → ${input.newName} made by another label run replaced: run ${other.id} (other models) made them, this run labels again`, { run: other.id });
  return runPipeline({
    store: options.store,
    pipeline: 'monthly-label',
    params,
    stages: [labelStage],
    selected: ['label'],
    ...(other ? { redo: ['label'] } : {}),
    input,
    reporter: options.reporter,
  });
}

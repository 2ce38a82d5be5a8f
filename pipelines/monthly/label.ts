/**
 * The `label` pipeline (pipeline `monthly-label`, docs/ARCHITECTURE.md §7.3): labels every article
 * pair of two snapshots. Each article is written in its own transaction and skipped when already
 * labeled, so a killed run continues where it stopped and a rerun duplicates nothing.
 */
import type { Database } from 'better-sqlite3';
import { CachingEmbedder } from '../../src/models/embedder.js';
import { EmbeddingCache } from '../../src/store/embeddingCache.js';
import { modelRunParams, type Models } from '../../src/models/modelSet.js';
import { labelArticle, labelNewArticle, type LabelThresholds } from '../../src/labels/labeler.js';
import { withUsage, type Prices } from '../../src/llm/usage.js';
import { SnapshotStore } from '../../src/store/snapshotStore.js';
import type { Reporter } from '../../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../../src/runs/stageRunner.js';

export interface LabelInput extends Models {
  oldName: string;
  newName: string;
  prices?: Prices;
  thresholds?: Partial<LabelThresholds>;
}

const labelStage: Stage<LabelInput> = {
  name: 'label',
  async run(input, context) {
    const store = new SnapshotStore(context.db);
    // One cache for the whole run, backed by the store's: a sentence seen in any earlier run is not embedded again.
    const embedder = new CachingEmbedder(input.embedder, new EmbeddingCache(context.db));
    const pairs = store.pairs(input.oldName, input.newName);
    let done = 0;
    const labelAll = async () => {
      for (const pair of pairs) {
        done++;
        if (store.isLabeled(input.oldName, input.newName, pair.newArticle.pageId)) continue;
        const newSentences = store.sentences(input.newName, pair.newArticle.pageId);
        const labels = pair.oldArticle
          ? await labelArticle(store.sentences(input.oldName, pair.oldArticle.pageId), newSentences, {
              embedder,
              nli: input.nli,
              ...(input.judge ? { judge: input.judge } : {}),
              ...(input.thresholds ? { thresholds: input.thresholds } : {}),
            })
          : labelNewArticle(newSentences);
        store.storeLabels(input.oldName, input.newName, pair, labels);
        context.reporter.progress(done, pairs.length);
      }
    };
    // What the LLM step spent counts in the run's usage (`status`), also when the stage fails.
    if (input.judge) await withUsage(context, input.judge, input.prices ?? {}, labelAll);
    else await labelAll();
    const counts = store.labelCounts(input.oldName, input.newName);
    return { articles: pairs.length, new_articles: pairs.filter((pair) => !pair.oldArticle).length, ...counts };
  },
};

export function runLabel(options: { db: Database; reporter: Reporter; input: LabelInput }): Promise<PipelineOutcome> {
  const { input } = options;
  return runPipeline({
    db: options.db,
    pipeline: 'monthly-label',
    params: { old: input.oldName, new: input.newName, ...modelRunParams(input), thresholds: input.thresholds ?? {} },
    stages: [labelStage],
    selected: ['label'],
    input,
    reporter: options.reporter,
  });
}

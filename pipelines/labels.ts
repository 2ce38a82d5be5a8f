/**
 * The monthly (GrowOVER) pipeline's first stages as resumable runs: `snapshot` materialises a named
 * set of articles as sentences; `label` (pipeline `monthly-label`) labels every article pair of two
 * snapshots. Each article is written in its own transaction and skipped when already written, so a
 * killed run continues where it stopped and a rerun duplicates nothing.
 */
import type { Database } from 'better-sqlite3';
import { CachingEmbedder, type Embedder } from '../src/models/embedder.js';
import type { NliModel } from '../src/models/nli.js';
import { articleSentences } from '../src/text/articleText.js';
import { labelArticle, labelNewArticle, type ContradictionCheck, type LabelThresholds } from '../src/labels/labeler.js';
import type { SnapshotArticle } from '../src/sources/snapshotSources.js';
import type { SnapshotRecord } from '../src/model/labels.js';
import { SnapshotStore } from '../src/store/snapshotStore.js';
import type { Reporter } from '../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../src/runs/stageRunner.js';

export interface SnapshotInput {
  snapshot: SnapshotRecord;
  /** The articles as of the snapshot's date; `isDone` names pages an earlier attempt stored. */
  articles: (isDone: (pageId: number) => boolean) => AsyncIterable<SnapshotArticle>;
}

const snapshotStage: Stage<SnapshotInput> = {
  name: 'snapshot',
  async run(input, context) {
    const store = new SnapshotStore(context.db);
    store.openSnapshot(input.snapshot);
    const name = input.snapshot.name;
    let articles = 0;
    let sentences = 0;
    for await (const article of input.articles((pageId) => store.hasArticle(name, pageId))) {
      if (store.hasArticle(name, article.pageId)) continue;
      const cut = articleSentences(article.wikitext);
      store.storeArticle(name, article, cut);
      articles++;
      sentences += cut.length;
      context.reporter.progress(articles);
    }
    return { articles: store.articles(name).length, stored_now: articles, sentences_now: sentences };
  },
};

export function runSnapshot(options: { db: Database; reporter: Reporter; input: SnapshotInput }): Promise<PipelineOutcome> {
  const { snapshot } = options.input;
  return runPipeline({
    db: options.db,
    pipeline: 'monthly-snapshot',
    params: { name: snapshot.name, wiki: snapshot.wiki, source: snapshot.source, asOf: snapshot.asOf },
    stages: [snapshotStage],
    selected: ['snapshot'],
    input: options.input,
    reporter: options.reporter,
  });
}

export interface LabelInput {
  oldName: string;
  newName: string;
  embedder: Embedder;
  nli: NliModel;
  contradicts?: ContradictionCheck;
  thresholds?: Partial<LabelThresholds>;
}

const labelStage: Stage<LabelInput> = {
  name: 'label',
  async run(input, context) {
    const store = new SnapshotStore(context.db);
    // One cache for the whole run: a sentence that recurs across articles is embedded once.
    const embedder = new CachingEmbedder(input.embedder);
    const pairs = store.pairs(input.oldName, input.newName);
    let done = 0;
    for (const pair of pairs) {
      done++;
      if (store.isLabeled(input.oldName, input.newName, pair.newArticle.pageId)) continue;
      const newSentences = store.sentences(input.newName, pair.newArticle.pageId);
      const labels = pair.oldArticle
        ? await labelArticle(store.sentences(input.oldName, pair.oldArticle.pageId), newSentences, {
            embedder,
            nli: input.nli,
            ...(input.contradicts ? { contradicts: input.contradicts } : {}),
            ...(input.thresholds ? { thresholds: input.thresholds } : {}),
          })
        : labelNewArticle(newSentences);
      store.storeLabels(input.oldName, input.newName, pair, labels);
      context.reporter.progress(done, pairs.length);
    }
    const counts = store.labelCounts(input.oldName, input.newName);
    return { articles: pairs.length, new_articles: pairs.filter((pair) => !pair.oldArticle).length, ...counts };
  },
};

export function runLabel(options: { db: Database; reporter: Reporter; input: LabelInput }): Promise<PipelineOutcome> {
  const { input } = options;
  return runPipeline({
    db: options.db,
    pipeline: 'monthly-label',
    params: { old: input.oldName, new: input.newName, embedder: input.embedder.id, nli: input.nli.id, thresholds: input.thresholds ?? {} },
    stages: [labelStage],
    selected: ['label'],
    input,
    reporter: options.reporter,
  });
}

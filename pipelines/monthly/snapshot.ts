/**
 * The `snapshot` pipeline (pipeline `monthly-snapshot`, docs/ARCHITECTURE.md §7.1): materialises a
 * named set of articles as sentences. Each article is written in its own transaction and skipped
 * when already written, so a killed run continues where it stopped and a rerun duplicates nothing.
 * An article whose wikitext the parser cannot read (templates nested thousands deep, anything that
 * makes it throw) is left out with its title and the reason in the stage's counts and a warning,
 * never the whole snapshot; it is tried again by a later run.
 */
import type { Store } from '../../src/store/store.js';
import { oneLine } from '../../src/errors.js';
import { articleSentences } from '../../src/text/articleText.js';
import type { SnapshotArticle } from '../../src/sources/snapshotSources.js';
import type { ArticleSentence, SnapshotRecord } from '../../src/model/labels.js';
import type { Reporter } from '../../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../../src/runs/stageRunner.js';

export interface SnapshotInput {
  snapshot: SnapshotRecord;
  /** The articles as of the snapshot's date; `isDone` names pages an earlier attempt stored. */
  articles: (isDone: (pageId: number) => boolean) => AsyncIterable<SnapshotArticle>;
}

/** Skipped articles named in the counts, at most: the total is always there. */
const NAMED_SKIPS = 20;

const snapshotStage: Stage<SnapshotInput> = {
  name: 'snapshot',
  async run(input, context) {
    const store = context.store.snapshots;
    store.openSnapshot(input.snapshot);
    const name = input.snapshot.name;
    let articles = 0;
    let sentences = 0;
    const skipped: Record<string, number> = {};
    let skippedCount = 0;
    for await (const article of input.articles((pageId) => store.hasArticle(name, pageId))) {
      if (store.hasArticle(name, article.pageId)) continue;
      let cut: ArticleSentence[];
      try {
        cut = articleSentences(article.wikitext);
      } catch (error) {
        const reason = oneLine(error);
        context.reporter.warn('article skipped: the parser cannot read it', { title: article.title, page_id: article.pageId, reason });
        if (skippedCount++ < NAMED_SKIPS) skipped[`skipped: ${article.title} (${reason})`] = article.pageId;
        continue;
      }
      store.storeArticle(name, article, cut);
      articles++;
      sentences += cut.length;
      context.reporter.progress(articles);
    }
    return { articles: store.articles(name).length, stored_now: articles, sentences_now: sentences, skipped: skippedCount, ...skipped };
  },
};

export function runSnapshot(options: { store: Store; reporter: Reporter; input: SnapshotInput }): Promise<PipelineOutcome> {
  const { snapshot } = options.input;
  return runPipeline({
    store: options.store,
    pipeline: 'monthly-snapshot',
    params: { name: snapshot.name, wiki: snapshot.wiki, source: snapshot.source, asOf: snapshot.asOf },
    stages: [snapshotStage],
    selected: ['snapshot'],
    input: options.input,
    reporter: options.reporter,
  });
}

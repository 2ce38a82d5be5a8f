/**
 * The `snapshot` pipeline (pipeline `monthly-snapshot`, docs/ARCHITECTURE.md §7.1): materialises a
 * named set of articles as sentences. Each article is written in its own transaction and skipped
 * when already written, so a killed run continues where it stopped and a rerun duplicates nothing.
 * Articles are cut into sentences on the process's batch threads, a few at a time, and written in
 * the order they came. An article whose wikitext the parser cannot read (templates nested thousands
 * deep, a thread's heap used up, anything that makes it throw) is left out with its title and the
 * reason in the stage's counts and a warning, never the whole snapshot; it is tried again by a later
 * run. One whose cut takes longer than the deadline is skipped the same way, its thread stopped.
 */
import type { Store } from '../../src/store/store.js';
import { oneLine, UserError } from '../../src/errors.js';
import { articleSentencesJob } from '../../src/queue/sentenceJob.js';
import { sharedThreadRunner, type ThreadRunner } from '../../src/queue/threadRunner.js';
import type { SnapshotArticle } from '../../src/sources/snapshotSources.js';
import type { ArticleSentence, SnapshotRecord } from '../../src/model/labels.js';
import type { Reporter } from '../../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../../src/runs/stageRunner.js';

export interface SnapshotInput {
  snapshot: SnapshotRecord;
  /** The articles as of the snapshot's date; `isDone` names pages an earlier attempt stored. */
  articles: (isDone: (pageId: number) => boolean) => AsyncIterable<SnapshotArticle>;
  /** Each batch thread's heap (the `threadHeapMb` setting); absent: its default. */
  threadHeapMb?: number;
  /** The longest one article's cut may take (the `parseDeadlineSeconds` setting); absent: no limit. */
  parseDeadlineSeconds?: number;
}

/** Skipped articles named in the counts, at most: the total is always there. */
const NAMED_SKIPS = 20;

/** Articles being cut per thread at once: the next one waits in the thread while the last is written. */
const ARTICLES_PER_THREAD = 2;

type Cut = { sentences: ArticleSentence[] } | { reason: string };

/** An article's sentences from a batch thread, or why it has none: never a rejection, so one page never fails the stage. */
function cutOn(runner: ThreadRunner, article: SnapshotArticle, deadlineSeconds: number | undefined): Promise<Cut> {
  let sentences: ArticleSentence[] = [];
  const options = deadlineSeconds === undefined ? {} : { deadlineMs: deadlineSeconds * 1000 };
  return runner.run(articleSentencesJob, [{ title: article.title, wikitext: article.wikitext }], (output) => (sentences = output), options).then(
    () => ({ sentences }),
    (error: unknown) => ({ reason: oneLine(error) }),
  );
}

const snapshotStage: Stage<SnapshotInput> = {
  name: 'snapshot',
  async run(input, context) {
    const store = context.store.snapshots;
    const name = input.snapshot.name;
    const before = store.openSnapshot(input.snapshot, (existing) => unfinishedRun(context.store, existing) !== undefined);
    if (before !== undefined) {
      context.reporter.warn(`snapshot "${name}" was left unfinished from ${before.source} as of ${before.asOf ?? 'latest'}: taken again from ${input.snapshot.source}`, { snapshot: name });
    }
    const runner = sharedThreadRunner(undefined, input.threadHeapMb);
    let articles = 0;
    let sentences = 0;
    const skipped: Record<string, number> = {};
    let skippedCount = 0;
    let invalidUtf8Pages = 0;
    const underWay: Array<{ article: SnapshotArticle; cut: Promise<Cut> }> = [];
    const writeNext = async (): Promise<void> => {
      const { article, cut } = underWay.shift() as (typeof underWay)[number];
      const result = await cut;
      if ('reason' in result) {
        context.reporter.warn('article skipped: the parser cannot read it', { title: article.title, page_id: article.pageId, reason: result.reason });
        if (skippedCount++ < NAMED_SKIPS) skipped[`skipped: ${article.title} (${result.reason})`] = article.pageId;
        return;
      }
      if (article.invalidUtf8 !== undefined && article.invalidUtf8 > 0) {
        invalidUtf8Pages++;
        context.reporter.warn('invalid UTF-8 in the dump, replaced by U+FFFD', { page: article.title, page_id: article.pageId, sequences: article.invalidUtf8 });
      }
      store.storeArticle(name, article, result.sentences);
      articles++;
      sentences += result.sentences.length;
      context.reporter.progress(articles);
    };
    for await (const article of input.articles((pageId) => store.hasArticle(name, pageId))) {
      if (store.hasArticle(name, article.pageId) || underWay.some((queued) => queued.article.pageId === article.pageId)) continue;
      underWay.push({ article, cut: cutOn(runner, article, input.parseDeadlineSeconds) });
      if (underWay.length >= runner.threadCount * ARTICLES_PER_THREAD) await writeNext();
    }
    while (underWay.length > 0) await writeNext();
    return {
      articles: store.articles(name).length,
      stored_now: articles,
      sentences_now: sentences,
      skipped: skippedCount,
      ...(invalidUtf8Pages > 0 ? { invalid_utf8_pages: invalidUtf8Pages } : {}),
      ...skipped,
    };
  },
};

/** The parameters of the snapshot run that makes this snapshot: the run `runSnapshot` opens. */
function snapshotRunParams(snapshot: SnapshotRecord): Record<string, unknown> {
  return { name: snapshot.name, wiki: snapshot.wiki, source: snapshot.source, asOf: snapshot.asOf };
}

/** The snapshot's own run when it did not run to its end; a snapshot with no run of its own (an older store's) counts as whole. */
function unfinishedRun(store: Store, snapshot: SnapshotRecord): { id: number } | undefined {
  const run = store.runs.findRun('monthly-snapshot', snapshotRunParams(snapshot));
  return run !== undefined && run.status !== 'done' ? run : undefined;
}

/**
 * The snapshot, refused unless its snapshot run ran to its end: one stopped part way holds only some
 * of its articles, and labels or items made from it would treat the others as deleted.
 *
 * @throws UserError E_SNAPSHOT_NOT_FOUND for no such snapshot, E_PREREQUISITE_MISSING for one not taken whole yet
 */
export function requireWholeSnapshot(store: Store, name: string): SnapshotRecord {
  const snapshot = store.snapshots.requireSnapshot(name);
  const run = unfinishedRun(store, snapshot);
  if (run !== undefined) {
    throw new UserError(
      'E_PREREQUISITE_MISSING',
      `snapshot "${name}" is incomplete: its snapshot run ${run.id} did not finish; run wikidelta snapshot --name ${name} again first (the same source and --as-of continue it; another copy of a broken dump takes it again)`,
    );
  }
  return snapshot;
}

export function runSnapshot(options: { store: Store; reporter: Reporter; input: SnapshotInput }): Promise<PipelineOutcome> {
  const { snapshot } = options.input;
  return runPipeline({
    store: options.store,
    pipeline: 'monthly-snapshot',
    params: snapshotRunParams(snapshot),
    stages: [snapshotStage],
    selected: ['snapshot'],
    input: options.input,
    reporter: options.reporter,
  });
}

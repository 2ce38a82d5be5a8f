import { StageUsage, withUsage } from '../../src/llm/usage.js';
import { CachingEmbedder, textHash } from '../../src/models/embedder.js';
import { inBatches, InProcessRunner } from '../../src/queue/batchRunner.js';
import { encodeVector, generateArticleJob, type GenerateArticle } from '../../src/queue/generateJob.js';
import type { ArticleRef } from '../../src/model/growover.js';
import { articlesToDo } from './articlesToDo.js';
import type { MonthlyStage } from './input.js';

/** Articles read from the store and handed out at a time: their sentences and vectors (2 KB a sentence) are in memory together. */
const GENERATE_SLICE = 64;

/**
 * generate (docs/ARCHITECTURE.md §7.5): new items for every article of the new snapshot, initial
 * ones for an article without earlier items, the others from its new and changed sentences. An
 * article is one job (docs/ARCHITECTURE.md §13), here or on the queue's workers, carrying the
 * sentence vectors labeling stored; this process writes each article's items with its done marker,
 * once, and counts what the jobs' LLM calls spent in the run's usage.
 */
export const generateStage: MonthlyStage = {
  name: 'generate',
  after: ['maintain'],
  unfinished: (input, store) => store.snapshots.articles(input.newName).some((article) => !store.growover.isDone(input.newName, article.pageId, 'generate')),
  async run(input, context) {
    const store = context.store.growover;
    const snapshots = context.store.snapshots;
    const vectors = context.store.embeddings;
    const month = store.month(input.newName);
    const embedder = new CachingEmbedder(input.embedder, vectors);
    const runner = input.batchRunner ?? new InProcessRunner({ models: async () => ({ embedder, nli: input.nli }), growoverTasks: () => input.tasks });
    const pairs = new Map(input.oldName ? store.labeledPairs(input.oldName, input.newName).map((pair) => [pair.newPageId, pair]) : []);
    const articles = snapshots.articles(input.newName);
    // What this process has written so far, for `status` while the stage runs.
    const counts = { articles: articles.length, initial_articles: 0, changed_articles: 0, qa: 0, dialogues: 0, turns: 0, rejects: 0 };
    const usage = new StageUsage(input.tasks);
    const todo = articlesToDo(context, 'generate', input.newName, articles);
    let done = articles.length - todo.length;
    /** The article's page in the old snapshot when it had items there: it gets items from change, else initial ones. Read once per article: the counts read it again. */
    const earlier = new Map<number, number | null>();
    const earlierPage = (pageId: number): number | null => {
      if (!earlier.has(pageId)) {
        const oldPageId = pairs.get(pageId)?.oldPageId ?? null;
        earlier.set(pageId, input.oldName !== undefined && oldPageId !== null && store.evidenceIn(input.oldName, oldPageId).length > 0 ? oldPageId : null);
      }
      return earlier.get(pageId) ?? null;
    };

    const jobOf = (article: (typeof articles)[number]): GenerateArticle => {
      const ref: ArticleRef = { snapshot: input.newName, month, pageId: article.pageId, title: article.title };
      const sentences = store.sentences(input.newName, article.pageId);
      const hashes = sentences.map((sentence) => textHash(sentence.text));
      const known = vectors.load(input.embedder.id, hashes);
      const oldPageId = earlierPage(article.pageId);
      const change =
        input.oldName !== undefined && oldPageId !== null
          ? { labels: store.labels(input.oldName, input.newName, article.pageId), oldSentences: snapshots.sentences(input.oldName, oldPageId) }
          : null;
      return { seed: input.seed, article: ref, sentences, vectors: Object.fromEntries([...known].map(([hash, vector]) => [hash, encodeVector(vector)])), change };
    };

    await withUsage(context, usage, input.prices ?? {}, async () => {
      for (const slice of inBatches(todo, GENERATE_SLICE)) {
        const jobs = slice.map(jobOf);
        const refs = new Map(jobs.map((job) => [job.article.pageId, job]));
        await runner.run(generateArticleJob, jobs, ({ pageId, generated, usage: jobUsage }) => {
          usage.add(jobUsage);
          const job = refs.get(pageId);
          // A job done twice (a worker lost mid-job) is written once: the done marker, and natural keys besides.
          if (!job || store.isDone(input.newName, pageId, 'generate')) return;
          store.saveGenerated(job.article, generated);
          if (job.change === null) counts.initial_articles++;
          else counts.changed_articles++;
          counts.qa += generated.qa.length;
          counts.dialogues += generated.dialogues.length;
          counts.turns += generated.dialogues.reduce((sum, dialogue) => sum + dialogue.turns.length, 0);
          counts.rejects += generated.rejects.length;
          context.saveProgress({ counts });
          context.reporter.progress(++done, articles.length);
        });
      }
    });
    // Counted from the store: the stage's result, whatever earlier attempts of it stored.
    const changedArticles = articles.filter((article) => earlierPage(article.pageId) !== null).length;
    return { articles: articles.length, initial_articles: articles.length - changedArticles, changed_articles: changedArticles, ...store.generatedCounts(input.newName) };
  },
};

/**
 * Sentence labeling on the shared 30-page sample's consecutive monthly snapshots (first of each
 * month, 2021-07 .. 2022-01, from the dump), with the offline default models (USE Lite, heuristic
 * NLI), side by side in one run, each configuration in a child process of its own (so that peak
 * RSS is its own): USE Lite on TensorFlow.js's WebAssembly runtime in the labeling thread (how
 * every `label` run embedded before the native runtime), then on ONNX Runtime in the labeling
 * thread and in a pool of two worker threads (which also read the sentences' facts, as `label`'s
 * pool does); and each later month labeled with a cold embedding
 * cache (as every `label` run was before the store kept vectors) against the cache the earlier
 * months filled. Each month is labeled as `label` labels it: its article pairs through the
 * in-process runner, LABEL_CONCURRENCY at a time (`node --import tsx label.bench.ts RUNTIME:THREADS
 * CONCURRENCY` runs one configuration with another concurrency, to size it), facts parsed afresh.
 * Figures, each configuration printing its own lines:
 * - label_article_pairs: article pairs labeled per second over the 6 month pairs, one store-backed
 *   cache carried from month to month, each month a run of its own;
 * - label_month_warm: pairs/s over the last 3 month pairs with that warm cache, beside
 *   `cold_pairs_per_s`, the same months each with an empty cache;
 * - label_model_work_ratio: texts sent to the embedder plus pairs sent to NLI, over what an
 *   all-pairs method needs (every old sentence against every new one, as GrowOVER's code does),
 *   over the 6 month pairs; `changed_pairs_ratio` gives the same over pairs whose text moved;
 * - label_embed_sentences: sentences/s of the embedder alone, 240 distinct sentences in one call;
 * - label_peak_rss: peak resident set size;
 * then, from all: label_speedup (the product's default, native with two threads and a warm cache,
 * against WebAssembly on one thread with a cold cache, on the same months, each side its best of
 * ROUNDS alternating runs) and whether every configuration of a runtime gave byte-identical labels
 * (similarities included, which differ across runtimes in the last bits).
 */
import { spawnSync } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CachingEmbedder, type Embedder } from '../../src/models/embedder.js';
import { HeuristicNli } from '../../src/models/heuristicNli.js';
import { UseLiteEmbedder } from '../../src/models/useEmbedder.js';
import { WorkerEmbedder } from '../../src/models/workerEmbedder.js';
import { articleSentences } from '../../src/text/articleText.js';
import type { ArticleLabels } from '../../src/model/labels.js';
import { InProcessRunner } from '../../src/queue/batchRunner.js';
import { labelArticlesJob, labelBatches } from '../../src/queue/labelJob.js';
import { forgetFacts } from '../../src/text/facts.js';
import { LABEL_CONCURRENCY } from '../../pipelines/monthly/label.js';
import { dumpSnapshotArticles } from '../../src/sources/snapshotSources.js';
import { openDatabase } from '../../src/store/database.js';
import { EmbeddingCache } from '../../src/store/embeddingCache.js';
import { peakRssMb, report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';

const here = fileURLToPath(import.meta.url);
const dump = join(sharedData, 'enwiki-history-sample.xml');
/** The first of each month from 2021-07 to 2022-01: 2021 holds about half of the sample's revisions. */
const MONTHS = [...Array.from({ length: 6 }, (_, k) => `2021-${String(k + 7).padStart(2, '0')}-01`), '2022-01-01'];
/** Month pairs after this index are the "next months", labeled again with an empty cache. */
const LATER = 3;
/** The configurations compared, as RUNTIME:THREADS. */
const CONFIGURATIONS = ['wasm:1', 'native:1', 'native:2'];
/**
 * Each thread count runs this many times, alternating, and the comparison takes each side's best
 * run: on a shared machine other jobs only ever slow a run down, and alternating spreads their
 * bursts over both sides.
 */
const ROUNDS = 2;

const Figure = z.object({ name: z.string(), value: z.number(), configuration: z.string().optional(), labels_sha256: z.string().optional(), cold_pairs_per_s: z.number().optional() }).passthrough();

if (process.argv[2] === undefined) {
  // The parent: a child per configuration in alternation, their lines passed through, then the comparison.
  const figures: Array<z.infer<typeof Figure>> = [];
  for (const configuration of Array.from({ length: ROUNDS }, () => CONFIGURATIONS).flat()) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', here, configuration, String(LABEL_CONCURRENCY)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
    if (child.status !== 0) throw new Error(`label benchmark on ${configuration} exited with ${child.status ?? child.signal}`);
    process.stdout.write(child.stdout);
    figures.push(...child.stdout.trim().split('\n').map((line) => Figure.parse(JSON.parse(line))));
  }
  /** The best of the rounds for one configuration: a figure's value, or its cold rate. */
  const best = (name: string, configuration: string, read: (figure: z.infer<typeof Figure>) => number | undefined) =>
    Math.max(...figures.filter((figure) => figure.name === name && figure.configuration === configuration).map((figure) => read(figure) ?? Number.NaN));
  const warm = (configuration: string) => best('label_month_warm', configuration, (figure) => figure.value);
  const cold = (configuration: string) => best('label_month_warm', configuration, (figure) => figure.cold_pairs_per_s);
  const embedding = (configuration: string) => best('label_embed_sentences', configuration, (figure) => figure.value);
  const labelHashes = (runtime: string) => new Set(figures.flatMap((figure) => (figure.labels_sha256 && figure.configuration?.startsWith(`${runtime}:`) ? [figure.labels_sha256] : [])));
  const sameAsCold = figures.every((figure) => figure.name !== 'label_month_warm' || figure.labels_same_as_cold === true);
  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  report('label_speedup', warm('native:2') / cold('wasm:1'), 'x', {
    against: `WebAssembly, one thread, cold cache, same months; each side its best of ${ROUNDS} runs`,
    native_two_threads_warm_pairs_per_s: warm('native:2'),
    wasm_one_thread_cold_pairs_per_s: cold('wasm:1'),
    native_one_thread_cold: ratio(cold('native:1'), cold('wasm:1')),
    native_two_threads_cold: ratio(cold('native:2'), cold('wasm:1')),
    native_one_thread_warm: ratio(warm('native:1'), cold('wasm:1')),
    embedding_native: ratio(embedding('native:1'), embedding('wasm:1')),
    embedding_native_two_threads: ratio(embedding('native:2'), embedding('wasm:1')),
    // Across runtimes the similarities differ in the last bits (at most 5e-7), so the hashes do too.
    labels_identical_per_runtime: labelHashes('native').size === 1 && labelHashes('wasm').size === 1 && sameAsCold,
  });
} else {
  const configuration = z.string().regex(/^(native|wasm):[1-9]\d*$/).parse(process.argv[2]);
  const [runtime, threads] = [configuration.split(':')[0] === 'wasm' ? 'wasm' : 'native', Number(configuration.split(':')[1])] as const;
  /** Article pairs labeled at once, as `label` does (its LABEL_CONCURRENCY unless given, to measure others). */
  const concurrency = z.coerce.number().int().min(1).default(LABEL_CONCURRENCY).parse(process.argv[3]);

  /** Page id → sentences, as of each month (parsing is the snapshot stage's cost, not labeling's). */
  const snapshot = async (date: string): Promise<Map<number, string[]>> => {
    const articles = new Map<number, string[]>();
    for await (const article of dumpSnapshotArticles(dump, `${date}T00:00:00Z`)) {
      articles.set(article.pageId, articleSentences(article.wikitext).map((sentence) => sentence.text));
    }
    return articles;
  };
  const snapshots: Array<Map<number, string[]>> = [];
  for (const month of MONTHS) snapshots.push(await snapshot(month));

  const model = new UseLiteEmbedder({ runtime });
  const inner: Embedder = threads === 1 ? model : new WorkerEmbedder(model, { embeddingRuntime: runtime }, threads);
  // Every thread loads its model before timing: enough distinct texts for a job per thread.
  await inner.embed(Array.from({ length: 16 * threads * 4 }, (_, k) => `warm-up ${k}: load the model before timing`));
  const nli = new HeuristicNli();
  const distinct = [...new Set([...(snapshots.at(-1) as Map<number, string[]>).values()].flat())].slice(0, 240);
  const embedStarted = performance.now();
  await inner.embed(distinct);
  const embedSeconds = (performance.now() - embedStarted) / 1000;
  const work = { pairs: 0, changedPairs: 0, model: 0, allPairs: 0, changedModel: 0, changedAllPairs: 0, embedded: 0, nli: 0 };

  /**
   * Labels month pair k (snapshot k-1 → k) as one `label` run would: its own in-memory cache over the
   * store's, facts parsed afresh, the article pairs in batches run `concurrency` at a time.
   */
  const labelMonth = async (k: number, cache: EmbeddingCache, labels: Hash, count: boolean): Promise<{ pairs: number; embedded: number }> => {
    forgetFacts();
    const embedder = new CachingEmbedder(inner, cache);
    const runner = new InProcessRunner({ models: async () => ({ embedder, nli, ...(inner instanceof WorkerEmbedder ? { factReader: inner } : {}) }) }, concurrency);
    const [before, after] = [snapshots[k - 1] as Map<number, string[]>, snapshots[k] as Map<number, string[]>];
    const pairs = [...after].flatMap(([pageId, newSentences]) => {
      const oldSentences = before.get(pageId);
      return oldSentences ? [{ pageId, oldSentences, newSentences }] : [];
    });
    const results = new Map<number, ArticleLabels>();
    await runner.run(labelArticlesJob, labelBatches(pairs, {}, 1), (labeled) => {
      for (const article of labeled.articles) results.set(article.pageId, article.labels);
    });
    for (const { pageId, oldSentences, newSentences } of pairs) {
      const result = results.get(pageId) as ArticleLabels;
      labels.update(JSON.stringify([k, pageId, result.sentences, result.deleted]));
      if (!count) continue;
      const modelWork = result.work.embedded + result.work.nliPairs;
      const allPairs = oldSentences.length * newSentences.length;
      work.pairs++;
      work.model += modelWork;
      work.allPairs += allPairs;
      work.embedded += result.work.embedded;
      work.nli += result.work.nliPairs;
      if (oldSentences.join('\n') !== newSentences.join('\n')) {
        work.changedPairs++;
        work.changedModel += modelWork;
        work.changedAllPairs += allPairs;
      }
    }
    return { pairs: pairs.length, embedded: embedder.embedded };
  };
  const side = () => ({ labels: createHash('sha256'), pairs: 0, embedded: 0, seconds: 0 });
  const timed = async (into: ReturnType<typeof side>, k: number, cache: EmbeddingCache, count: boolean) => {
    const started = performance.now();
    const month = await labelMonth(k, cache, into.labels, count);
    into.seconds += (performance.now() - started) / 1000;
    into.pairs += month.pairs;
    into.embedded += month.embedded;
  };
  const storeCache = () => new EmbeddingCache(openDatabase(':memory:'));

  const carried = storeCache();
  const [history, warm, cold] = [side(), side(), side()];
  for (let k = 1; k <= LATER; k++) await timed(history, k, carried, true);
  // Each later month with the cache the earlier ones filled, then with an empty one (what every run
  // paid before vectors were kept), side by side so that both meet the same machine load; the cold
  // one second, so that whatever this process still holds from the warm one helps the cold side.
  for (let k = LATER + 1; k < MONTHS.length; k++) {
    await timed(warm, k, carried, true);
    await timed(cold, k, storeCache(), false);
  }
  const [warmLabels, coldLabels] = [warm.labels.digest('hex'), cold.labels.digest('hex')];
  if (inner instanceof WorkerEmbedder) await inner.close();

  const pairs = history.pairs + warm.pairs;
  const seconds = history.seconds + warm.seconds;
  report('label_article_pairs', pairs / seconds, 'pairs/s', { configuration, concurrency, pairs, changed_pairs: work.changedPairs, seconds: Number(seconds.toFixed(1)), months: MONTHS.length, cached_vectors: carried.count(model.id) });
  report('label_month_warm', warm.pairs / warm.seconds, 'pairs/s', {
    configuration,
    pairs: warm.pairs,
    month_pairs: MONTHS.length - 1 - LATER,
    cold_pairs_per_s: Number((cold.pairs / cold.seconds).toFixed(3)),
    embedded_warm: warm.embedded,
    embedded_cold: cold.embedded,
    labels_sha256: warmLabels,
    labels_same_as_cold: warmLabels === coldLabels,
    load_average: Number(loadavg()[0]?.toFixed(2)),
  });
  report('label_model_work_ratio', (100 * work.model) / work.allPairs, '%', {
    configuration,
    embedded: work.embedded,
    nli_pairs: work.nli,
    all_pairs: work.allPairs,
    changed_pairs_ratio_percent: Number(((100 * work.changedModel) / work.changedAllPairs).toFixed(3)),
  });
  report('label_embed_sentences', distinct.length / embedSeconds, 'sentences/s', { configuration, sentences: distinct.length });
  report('label_peak_rss', peakRssMb(), 'MB', { configuration });
}

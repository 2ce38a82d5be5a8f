/**
 * Sentence labeling on the shared 30-page sample's consecutive monthly snapshots (first of each
 * month, 2021-01 .. 2022-01, from the dump), with the offline default models (USE Lite, heuristic
 * NLI). Figures:
 * - label_article_pairs: article pairs labeled per second (every article present in both months);
 * - label_model_work_ratio: texts sent to the embedder plus pairs sent to NLI, over what an
 *   all-pairs method needs (every old sentence against every new one, as GrowOVER's code does),
 *   summed over all article pairs; `changed_pairs_ratio` gives the same over pairs whose text moved;
 * - label_peak_rss: peak resident set size.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CachingEmbedder } from '../../src/models/embedder.js';
import { HeuristicNli } from '../../src/models/heuristicNli.js';
import { UseLiteEmbedder } from '../../src/models/useEmbedder.js';
import { articleSentences } from '../../src/text/articleText.js';
import { labelArticle } from '../../src/labels/labeler.js';
import { dumpSnapshotArticles } from '../../src/sources/snapshotSources.js';
import { peakRssMb, report } from './report.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dump = resolve(repoRoot, '../shared/data/enwiki-history-sample.xml');
/** The first of each month of 2021 and 2022-01-01: 2021 holds about half of the sample's revisions. */
const MONTHS = [...Array.from({ length: 12 }, (_, k) => `2021-${String(k + 1).padStart(2, '0')}-01`), '2022-01-01'];

/** Page id → sentences, as of each month (parsing is the snapshot stage's cost, not labeling's). */
async function snapshot(date: string): Promise<Map<number, string[]>> {
  const articles = new Map<number, string[]>();
  for await (const article of dumpSnapshotArticles(dump, `${date}T00:00:00Z`)) {
    articles.set(article.pageId, articleSentences(article.wikitext).map((sentence) => sentence.text));
  }
  return articles;
}

const snapshots: Array<Map<number, string[]>> = [];
for (const month of MONTHS) snapshots.push(await snapshot(month));

const embedder = new CachingEmbedder(new UseLiteEmbedder());
const nli = new HeuristicNli();
await embedder.embed(['warm-up: load the model before timing']);
const work = { pairs: 0, changedPairs: 0, model: 0, allPairs: 0, changedModel: 0, changedAllPairs: 0, embedded: 0, nli: 0 };
const started = performance.now();
for (let k = 1; k < snapshots.length; k++) {
  const [before, after] = [snapshots[k - 1] as Map<number, string[]>, snapshots[k] as Map<number, string[]>];
  for (const [pageId, newSentences] of after) {
    const oldSentences = before.get(pageId);
    if (!oldSentences) continue;
    const labels = await labelArticle(oldSentences, newSentences, { embedder, nli });
    const model = labels.work.embedded + labels.work.nliPairs;
    const allPairs = oldSentences.length * newSentences.length;
    work.pairs++;
    work.model += model;
    work.allPairs += allPairs;
    work.embedded += labels.work.embedded;
    work.nli += labels.work.nliPairs;
    if (oldSentences.join('\n') !== newSentences.join('\n')) {
      work.changedPairs++;
      work.changedModel += model;
      work.changedAllPairs += allPairs;
    }
  }
}
const seconds = (performance.now() - started) / 1000;
report('label_article_pairs', work.pairs / seconds, 'pairs/s', { pairs: work.pairs, changed_pairs: work.changedPairs, seconds: Number(seconds.toFixed(1)), months: MONTHS.length });
report('label_model_work_ratio', (100 * work.model) / work.allPairs, '%', {
  embedded: work.embedded,
  nli_pairs: work.nli,
  all_pairs: work.allPairs,
  changed_pairs_ratio_percent: Number(((100 * work.changedModel) / work.changedAllPairs).toFixed(3)),
});
report('label_peak_rss', peakRssMb(), 'MB');

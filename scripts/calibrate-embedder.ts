/**
 * Calibrates an embedder's "same" threshold (docs/ARCHITECTURE.md §7.3.2: it belongs to the embedder) on real
 * sentences: the embedded sample's articles and ../shared/data/versions-sample. Each sentence is
 * paired with (a) trivial edits that survive normalisation (an article swapped, British/American
 * spelling, a one-letter typo, "also" added) and (b) different statements: the same sentence with
 * a name replaced, and the next sentence of its article. Number substitutions are measured too,
 * but the labeler never lets them pass as "same" (it also requires equal numbers and names).
 *
 * Prints the similarity quantiles of each group and the threshold that separates them best,
 * preferring to send a trivial edit to NLI over letting a different statement pass as "same".
 *
 *   npx tsx scripts/calibrate-embedder.ts            # USE Lite, the default embedder
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cosine } from '../src/models/embedder.js';
import { UseLiteEmbedder } from '../src/models/useEmbedder.js';
import { articleSentences } from '../src/text/articleText.js';
import { normaliseSentence } from '../src/text/normalise.js';
import { splitSentences } from '../src/text/sentences.js';
import { sameFacts } from '../src/text/facts.js';
import { dumpSnapshotArticles } from '../src/sources/snapshotSources.js';
import { sharedData } from '../testkit/sharedData.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PER_SOURCE = 80;

async function sampleArticles(): Promise<string[][]> {
  const articles: string[][] = [];
  for await (const article of dumpSnapshotArticles(join(repoRoot, 'data/sample/sample-history.xml'), null)) {
    articles.push(articleSentences(article.wikitext).map((s) => s.text));
  }
  return articles;
}

function versionsArticles(): string[][] {
  const root = join(sharedData, 'versions-sample');
  return readdirSync(root).map((name) => splitSentences(readFileSync(join(root, name, '0.txt'), 'utf8')));
}

const TRIVIAL: Array<(s: string) => string | null> = [
  (s) => (/\bthe\b/.test(s) ? s.replace(/\bthe\b/, 'a') : null),
  (s) => (/(our|ise|yse)\b/.test(s) ? s.replace(/(\w+)our\b/, '$1or').replace(/(\w+)is(e|ed|ing)\b/, '$1iz$2') : null),
  (s) => {
    const word = /\b[a-z]{7,}\b/.exec(s)?.[0];
    return word ? s.replace(word, word.slice(0, 3) + word[3] + word.slice(3)) : null;
  },
  (s) => (/\b(is|was|has)\b/.test(s) ? s.replace(/\b(is|was|has)\b/, '$1 also') : null),
];

function pairs(articles: string[][]) {
  const names = articles.flat().flatMap((s) => s.match(/(?<=\s)[A-Z][a-z]{3,}\b/g) ?? []);
  const trivial: Array<[string, string]> = [];
  const different: Array<[string, string]> = [];
  const numbers: Array<[string, string]> = [];
  let count = 0;
  for (const sentences of articles) {
    sentences.forEach((sentence, k) => {
      if (count >= PER_SOURCE || sentence.split(' ').length < 6) return;
      count++;
      const edit = TRIVIAL[count % TRIVIAL.length]?.(sentence);
      if (edit && normaliseSentence(edit) !== normaliseSentence(sentence)) trivial.push([sentence, edit]);
      const name = /(?<=\s)[A-Z][a-z]{3,}\b/.exec(sentence)?.[0];
      const other = names[(count * 7) % names.length];
      if (name && other && other !== name) different.push([sentence, sentence.replace(name, other)]);
      const next = sentences[k + 1];
      if (next) different.push([sentence, next]);
      if (/\d/.test(sentence)) numbers.push([sentence, sentence.replace(/\d/, (d) => String((Number(d) + 3) % 10))]);
    });
  }
  return { trivial, different, numbers };
}

function quantiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN).toFixed(4);
  return `n=${values.length} min=${at(0)} p10=${at(0.1)} p50=${at(0.5)} p90=${at(0.9)} p99=${at(0.99)} max=${at(1)}`;
}

const embedder = new UseLiteEmbedder();
const groups = { ...pairs(await sampleArticles()) };
const versions = pairs(versionsArticles());
groups.trivial.push(...versions.trivial);
groups.different.push(...versions.different);
groups.numbers.push(...versions.numbers);
const scores: Record<string, number[]> = {};
for (const [name, list] of Object.entries(groups)) {
  const vectors = await embedder.embed(list.flat());
  scores[name] = list.map((_, k) => cosine(vectors[2 * k] as Float32Array, vectors[2 * k + 1] as Float32Array));
  console.log(`${name.padEnd(9)} ${quantiles(scores[name] as number[])}`);
}
// A different statement taken as "same" loses an update; a trivial edit sent to NLI costs a call: weigh the first 3×.
let best = { threshold: 1, cost: Infinity };
for (let t = 0.9; t <= 1.0001; t += 0.0005) {
  const missedTrivial = (scores.trivial ?? []).filter((v) => v < t).length;
  const passedDifferent = (scores.different ?? []).filter((v) => v >= t).length;
  const cost = missedTrivial + 3 * passedDifferent;
  if (cost < best.cost) best = { threshold: Number(t.toFixed(4)), cost };
}
const t = best.threshold;
const guarded = (groups.different ?? []).filter((pair, k) => (scores.different?.[k] ?? 0) >= t && sameFacts([pair[0]], [pair[1]])).length;
console.log(
  `threshold ${t}: trivial edits kept as same ${(scores.trivial ?? []).filter((v) => v >= t).length}/${scores.trivial?.length}, ` +
    `different statements above it ${(scores.different ?? []).filter((v) => v >= t).length}/${scores.different?.length} ` +
    `(${guarded} with the same facts, the labeler's second condition), ` +
    `number substitutions above it ${(scores.numbers ?? []).filter((v) => v >= t).length}/${scores.numbers?.length} (all stopped by the second condition)`,
);

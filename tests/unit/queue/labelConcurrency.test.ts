/** Article pairs labeled several at a time in this process: the labels of one at a time, in fewer model calls; a failure stops the run. */
import { join } from 'node:path';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { CachingEmbedder, type Embedder } from '../../../src/models/embedder.js';
import { HeuristicNli } from '../../../src/models/heuristicNli.js';
import { UseLiteEmbedder } from '../../../src/models/useEmbedder.js';
import { InProcessRunner, type JobKind } from '../../../src/queue/batchRunner.js';
import { labelArticlesJob, labelBatches, type LabeledBatch, type LabelPair } from '../../../src/queue/labelJob.js';
import { dumpSnapshotArticles } from '../../../src/sources/snapshotSources.js';
import { articleSentences } from '../../../src/text/articleText.js';
import { repoRoot } from '../../../testkit/cli.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const model = new UseLiteEmbedder();

/** Counts the model calls that reach the real model. */
class CallCounter implements Embedder {
  readonly id = model.id;
  readonly sameThreshold = model.sameThreshold;
  calls = 0;
  embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls++;
    return model.embed(texts);
  }
}

async function sentencesAsOf(date: string): Promise<Map<number, string[]>> {
  const articles = new Map<number, string[]>();
  for await (const article of dumpSnapshotArticles(SAMPLE, `${date}T00:00:00Z`)) articles.set(article.pageId, articleSentences(article.wikitext).map((sentence) => sentence.text));
  return articles;
}

let pairs: LabelPair[];
beforeAll(async () => {
  const [before, after] = [await sentencesAsOf('2025-02-01'), await sentencesAsOf('2025-03-01')];
  pairs = [...after].map(([pageId, newSentences]) => ({ pageId, oldSentences: before.get(pageId) ?? null, newSentences }));
});

async function labelAll(concurrency: number): Promise<{ labels: Map<number, unknown>; calls: number; embedded: number }> {
  const counter = new CallCounter();
  const embedder = new CachingEmbedder(counter);
  const runner = new InProcessRunner({ models: async () => ({ embedder, nli: new HeuristicNli() }) }, concurrency);
  const labels = new Map<number, unknown>();
  let embedded = 0;
  await runner.run(labelArticlesJob, labelBatches(pairs, {}, 1), (labeled: LabeledBatch) => {
    for (const article of labeled.articles) {
      labels.set(article.pageId, JSON.parse(JSON.stringify([article.labels.sentences, article.labels.deleted])));
      embedded += article.labels.work.embedded;
    }
  });
  return { labels, calls: counter.calls, embedded };
}

describe('labeling article pairs several at a time', () => {
  it('gives the labels of one at a time, each text embedded once, in fewer model calls', async () => {
    const one = await labelAll(1);
    const several = await labelAll(4);
    expect(one.labels.size).toBe(pairs.length);
    expect(several.labels).toEqual(one.labels);
    expect(one.embedded).toBeGreaterThan(0);
    expect(several.embedded).toBe(one.embedded);
    expect(several.calls).toBeLessThan(one.calls);
  }, 120_000);
});

describe('the in-process runner', () => {
  it('starts no batch after one failed, lets those under way end, and throws that failure', async () => {
    const started: number[] = [];
    const flaky: JobKind<number, number> = {
      name: 'flaky',
      data: z.number(),
      output: z.number(),
      async compute(n) {
        started.push(n);
        await new Promise((resolve) => setTimeout(resolve, n === 0 ? 50 : 5));
        if (n === 1) throw new Error('batch 1 failed');
        return n * 10;
      },
    };
    const results: number[] = [];
    await expect(new InProcessRunner({ models: () => Promise.reject(new Error('unused')) }, 2).run(flaky, [0, 1, 2, 3, 4], (output) => results.push(output))).rejects.toThrow('batch 1 failed');
    expect(started).toEqual([0, 1]);
    expect(results).toEqual([0]);
  });

  it('runs every batch once with more lanes than batches', async () => {
    const double: JobKind<number, number> = { name: 'double', data: z.number(), output: z.number(), compute: async (n) => n * 2 };
    const results: Array<[number, number]> = [];
    await new InProcessRunner({ models: () => Promise.reject(new Error('unused')) }, 8).run(double, [1, 2, 3], (output, index) => results.push([index, output]));
    expect(results.sort((a, b) => a[0] - b[0])).toEqual([[0, 2], [1, 4], [2, 6]]);
    expect(() => new InProcessRunner({ models: () => Promise.reject(new Error('unused')) }, 0)).toThrow('concurrency');
  });
});

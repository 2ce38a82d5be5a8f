import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runLabel } from '../../../pipelines/monthly/label.js';
import { runSnapshot } from '../../../pipelines/monthly/snapshot.js';
import { CachingEmbedder, type Embedder } from '../../../src/models/embedder.js';
import { HeuristicNli } from '../../../src/models/heuristicNli.js';
import { UseLiteEmbedder } from '../../../src/models/useEmbedder.js';
import { WorkerEmbedder } from '../../../src/models/workerEmbedder.js';
import { articleSentences } from '../../../src/text/articleText.js';
import { forgetFacts, parseFacts } from '../../../src/text/facts.js';
import { JsonLinesReporter } from '../../../src/runs/progress.js';
import { dumpSnapshotArticles } from '../../../src/sources/snapshotSources.js';
import { openDatabase } from '../../../src/store/database.js';
import { EmbeddingCache } from '../../../src/store/embeddingCache.js';
import { repoRoot } from '../../../testkit/cli.js';
import { Store } from '../../../src/store/store.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const reporter = new JsonLinesReporter({ write: () => true } as unknown as NodeJS.WritableStream);
const folder = mkdtempSync(join(tmpdir(), 'wikidelta-embedding-cache-'));
const model = new UseLiteEmbedder();
const pool = new WorkerEmbedder(model, {}, 2);
afterAll(async () => {
  await pool.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Passes texts to the real model and counts them: what a cache saves is what never arrives here. */
class CountingEmbedder implements Embedder {
  readonly id: string;
  readonly sameThreshold: number;
  texts = 0;
  calls = 0;
  constructor(private readonly inner: Embedder) {
    this.id = inner.id;
    this.sameThreshold = inner.sameThreshold;
  }
  embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.texts += texts.length;
    this.calls++;
    return this.inner.embed(texts);
  }
}

const bytes = (vectors: Float32Array[]) => vectors.map((vector) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('hex'));
const SENTENCES = [
  'The observatory operates three optical telescopes.',
  'It is 5 kilometres long.',
  'Its chief executive is Dana Holt, who succeeded the founder in 2019 after a long dispute with the board.',
  'Hi.',
  'The tunnel is the second longest in Europe.',
];

describe('the persistent embedding cache', () => {
  it('returns, after the store is reopened, the very vectors each sentence gets embedded alone, without calling the model', async () => {
    const path = join(folder, 'vectors.sqlite');
    const first = openDatabase(path);
    const counting = new CountingEmbedder(model);
    const written = await new CachingEmbedder(counting, new EmbeddingCache(first)).embed(SENTENCES);
    expect(counting.texts).toBe(SENTENCES.length);
    first.close();

    const reopened = openDatabase(path);
    const again = new CountingEmbedder(model);
    const cached = new CachingEmbedder(again, new EmbeddingCache(reopened));
    const read = await cached.embed([...SENTENCES].reverse());
    expect(again.texts).toBe(0);
    expect(cached.stored).toBe(SENTENCES.length);
    expect(new EmbeddingCache(reopened).count(model.id)).toBe(SENTENCES.length);
    reopened.close();

    const alone: Float32Array[] = [];
    for (const sentence of SENTENCES) alone.push(...(await model.embed([sentence])));
    expect(bytes(written)).toEqual(bytes(alone));
    expect(bytes(read.reverse())).toEqual(bytes(alone));
  });

  it('keeps vectors apart by embedder', async () => {
    const db = openDatabase(':memory:');
    const cache = new EmbeddingCache(db);
    cache.save('model-a', [['h1', Float32Array.from([1, 2, 3])]]);
    expect(cache.load('model-b', ['h1']).size).toBe(0);
    expect([...(cache.load('model-a', ['h1', 'h2']).get('h1') ?? [])]).toEqual([1, 2, 3]);
    db.close();
  });
});

describe('calls made together', () => {
  it('go to the model as one call, each text once, and each caller counts only the texts it sent', async () => {
    const counting = new CountingEmbedder(model);
    const cached = new CachingEmbedder(counting);
    const [first, second] = [{ embedded: 0 }, { embedded: 0 }];
    const [a, b] = await Promise.all([cached.embed(SENTENCES.slice(0, 3), first), cached.embed(SENTENCES.slice(1), second)]);
    expect([counting.calls, counting.texts]).toEqual([1, SENTENCES.length]);
    expect([first.embedded, second.embedded]).toEqual([3, 2]);
    const alone: Float32Array[] = [];
    for (const sentence of SENTENCES) alone.push(...(await model.embed([sentence])));
    expect(bytes([...(a as Float32Array[]), ...(b as Float32Array[]).slice(2)])).toEqual(bytes(alone));
    const again = { embedded: 0 };
    await cached.embed(SENTENCES, again);
    expect([counting.calls, again.embedded]).toEqual([1, 0]);
  });

  it('fail together when the model fails, and leave nothing pending for the next call', async () => {
    let failures = 1;
    const flaky: Embedder = {
      id: model.id,
      sameThreshold: model.sameThreshold,
      embed: (texts) => (failures-- > 0 ? Promise.reject(new Error('model down')) : model.embed(texts)),
    };
    const cached = new CachingEmbedder(flaky);
    const results = await Promise.allSettled([cached.embed(['One sentence.']), cached.embed(['One sentence.', 'Another sentence.'])]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await cached.embed(['One sentence.', 'Another sentence.'])).toHaveLength(2);
    expect(cached.embedded).toBe(2);
  });
});

/** The sample's February and March snapshots under names with `prefix`: the same articles each time. */
async function snapshots(store: Store, prefix: string): Promise<{ oldName: string; newName: string }> {
  for (const month of ['2025-02-01', '2025-03-01']) {
    const asOf = `${month}T00:00:00Z`;
    await runSnapshot({ store, reporter, input: { snapshot: { name: `${prefix}${month}`, wiki: 'sample', source: SAMPLE, asOf }, articles: () => dumpSnapshotArticles(SAMPLE, asOf) } });
  }
  return { oldName: `${prefix}2025-02-01`, newName: `${prefix}2025-03-01` };
}

function storedLabels(store: Store, names: { oldName: string; newName: string }): string[] {
  return [...store.snapshots.labels(names.oldName, names.newName)].map((label) => JSON.stringify(label));
}

describe('labeling with the store-backed cache', () => {
  it('labels the same snapshots a second time without an embedder call, and to the same labels', async () => {
    const store = Store.open(':memory:');
    const cold = new CountingEmbedder(model);
    const first = await snapshots(store, 'first-');
    await runLabel({ store, reporter, input: { ...first, embedder: cold, nli: new HeuristicNli() } });
    expect(cold.texts).toBeGreaterThan(0);

    const warm = new CountingEmbedder(model);
    const second = await snapshots(store, 'second-');
    await runLabel({ store, reporter, input: { ...second, embedder: warm, nli: new HeuristicNli() } });
    expect(warm.texts).toBe(0);
    const labels = storedLabels(store, first);
    expect(labels.length).toBeGreaterThan(0);
    expect(storedLabels(store, second)).toEqual(labels);
    store.close();

    // The same labels again with the embedder in two worker threads, from a cold cache, and the
    // sentences' facts read there too, none of them read in this thread before.
    forgetFacts();
    const pooled = Store.open(':memory:');
    const throughPool = new CountingEmbedder(pool);
    const factsAsked: string[] = [];
    const factReader = { readFacts: (texts: readonly string[]) => (factsAsked.push(...texts), pool.readFacts(texts)) };
    await runLabel({ store: pooled, reporter, input: { ...(await snapshots(pooled, 'first-')), embedder: throughPool, factReader, nli: new HeuristicNli() } });
    expect(throughPool.texts).toBe(cold.texts);
    expect(factsAsked.length).toBeGreaterThan(0);
    expect(new Set(factsAsked).size).toBe(factsAsked.length);
    expect(storedLabels(pooled, first)).toEqual(labels);
    pooled.close();
  });
});

describe('the worker-thread embedder', () => {
  it('gives the in-thread vectors, bit for bit, and keeps its id and threshold', async () => {
    const texts: string[] = [];
    for await (const article of dumpSnapshotArticles(SAMPLE, '2025-03-01T00:00:00Z')) {
      texts.push(...articleSentences(article.wikitext).map((sentence) => sentence.text));
      if (texts.length >= 60) break;
    }
    const pooled = await pool.embed(texts);
    expect(bytes(pooled)).toEqual(bytes(await model.embed(texts)));
    expect([pool.id, pool.sameThreshold]).toEqual([model.id, model.sameThreshold]);
    expect(await pool.embed([])).toEqual([]);
  });

  it('reads the facts this thread reads', async () => {
    const texts = [...SENTENCES, 'It has three branches and a dozen offices, not the 4 it had in March.'];
    expect(await pool.readFacts(texts)).toEqual(texts.map(parseFacts));
    expect(await pool.readFacts([])).toEqual([]);
  });

  it('replaces a thread that died: the call it held fails with why, the next call runs on a new thread', { timeout: 60_000 }, async () => {
    const single = new WorkerEmbedder(model, {}, 1);
    try {
      // A request the thread cannot read throws outside any embedding, so the thread dies as on running out of memory.
      await expect(single.embed([7 as unknown as string])).rejects.toThrow(/^embedding worker failed: /);
      expect(bytes(await single.embed(SENTENCES))).toEqual(bytes(await model.embed(SENTENCES)));
    } finally {
      await single.close();
    }
  });

  it('reports a closed pool instead of returning nothing', async () => {
    const closed = new WorkerEmbedder(model, {}, 1);
    await closed.close();
    await expect(closed.embed(['A sentence.'])).rejects.toThrow('embedding pool closed');
  });
});

/**
 * A snapshot pair holds one set of labels: labeled again with other models, the pair's labels are
 * those models', as on a store that never labeled it otherwise, and a monthly run whose labels were
 * replaced since makes its items again from its own.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMonthly } from '../../../../pipelines/monthly.js';
import { runLabel } from '../../../../pipelines/monthly/label.js';
import { runSnapshot } from '../../../../pipelines/monthly/snapshot.js';
import type { Embedder } from '../../../../src/models/embedder.js';
import { HeuristicNli } from '../../../../src/models/heuristicNli.js';
import { OfflineGrowoverTasks } from '../../../../src/llm/offlineGrowoverTasks.js';
import { RecordingReporter } from '../../../../src/runs/progress.js';
import { dumpSnapshotArticles } from '../../../../src/sources/snapshotSources.js';
import { Store } from '../../../../src/store/store.js';
import { repoRoot } from '../../../../testkit/cli.js';
import { letters } from '../../../support/letterEmbedder.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const [FEB, MAR] = ['2025-02', '2025-03'];

/** Sentence length alone: another model, which matches other sentences. */
const lengths: Embedder = { id: 'lengths', sameThreshold: 0.5, embed: (texts) => Promise.resolve(texts.map((text) => Float32Array.from([1, text.length / 100]))) };

async function storeWithMonths(): Promise<Store> {
  const store = Store.open(':memory:');
  for (const name of [FEB, MAR]) {
    const asOf = `${name}-01T00:00:00Z`;
    await runSnapshot({ store, reporter: new RecordingReporter(), input: { snapshot: { name, wiki: 'sample', source: SAMPLE, asOf }, articles: () => dumpSnapshotArticles(SAMPLE, asOf) } });
  }
  return store;
}

const label = (store: Store, embedder: Embedder) => runLabel({ store, reporter: new RecordingReporter(), input: { oldName: FEB, newName: MAR, embedder, nli: new HeuristicNli() } });

function monthly(store: Store, embedder: Embedder, old?: string) {
  const input = { tasks: new OfflineGrowoverTasks(), embedder, nli: new HeuristicNli(), seed: 1 };
  return runMonthly({ store, reporter: new RecordingReporter(), llm: 'offline', input: { ...input, ...(old !== undefined ? { oldName: old } : {}), newName: old === undefined ? FEB : MAR } });
}

const labels = (store: Store) => store.db.prepare('SELECT new_page_id, side, idx, label, old_indices, step FROM sentence_labels ORDER BY 1, 2, 3').all();
const items = (store: Store) => ({
  evidence: store.db.prepare('SELECT item_id, snapshot, type, indices FROM growover_evidence ORDER BY 1, 2').all(),
  qa: store.db.prepare('SELECT id, status, retired_snapshot FROM growover_qa ORDER BY 1').all(),
});

describe('labels of a pair made again with other models', () => {
  it('are the new models\' labels, and the monthly run of the first models makes its own again', async () => {
    const byLetters = await storeWithMonths();
    await monthly(byLetters, letters);
    await monthly(byLetters, letters, FEB);
    const byLengths = await storeWithMonths();
    await label(byLengths, lengths);
    expect(labels(byLengths)).not.toEqual(labels(byLetters));

    const store = await storeWithMonths();
    await monthly(store, letters);
    await monthly(store, letters, FEB);
    const relabeled = await label(store, lengths);
    expect(relabeled.executed).toEqual(['label']);
    expect(labels(store)).toEqual(labels(byLengths));

    // The letters run again: its labels, and its items from them.
    const again = await monthly(store, letters, FEB);
    expect(again.labeling?.executed).toEqual(['label']);
    expect(again.executed).toEqual(['maintain', 'generate']);
    expect(labels(store)).toEqual(labels(byLetters));
    expect(items(store)).toEqual(items(byLetters));
    const idle = await monthly(store, letters, FEB);
    expect([idle.labeling?.executed, idle.executed]).toEqual([[], []]);
  }, 120_000);
});

/**
 * A monthly run that fails part-way (the LLM provider gives out) records the failure, and its rerun
 * continues the same run: the articles already stored are skipped and the end state equals that of
 * an uninterrupted run.
 */
import { describe, expect, it } from 'vitest';
import { runSnapshot } from '../../pipelines/monthly/snapshot.js';
import { runMonthly } from '../../pipelines/monthly.js';
import { SAMPLE_DUMP } from '../../src/cli/commands/demo.js';
import type { GrowoverTasks } from '../../src/llm/growoverTasks.js';
import { OfflineGrowoverTasks } from '../../src/llm/offlineGrowoverTasks.js';
import { FailingTasks } from '../support/failingGrowoverTasks.js';
import type { Embedder } from '../../src/models/embedder.js';
import { HeuristicNli } from '../../src/models/heuristicNli.js';
import { dumpSnapshotArticles } from '../../src/sources/snapshotSources.js';
import { RecordingReporter } from '../../src/runs/progress.js';
import { Store } from '../../src/store/store.js';

const [OLD, NEW] = ['2025-02-01', '2025-03-01'];

/** Letter counts: a deterministic stand-in for a sentence embedder. */
const letterEmbedder: Embedder = {
  id: 'letters',
  sameThreshold: 0.999,
  async embed(texts) {
    return texts.map((text) => {
      const vector = new Float32Array(26);
      for (const char of text.toLowerCase()) {
        const code = char.charCodeAt(0) - 97;
        if (code >= 0 && code < 26) vector[code] = (vector[code] as number) + 1;
      }
      return vector;
    });
  },
};

async function storeWithSnapshots(): Promise<Store> {
  const store = Store.open(':memory:');
  for (const date of [OLD, NEW]) {
    const asOf = `${date}T00:00:00Z`;
    await runSnapshot({
      store,
      reporter: new RecordingReporter(),
      input: { snapshot: { name: date, wiki: 'sample', source: SAMPLE_DUMP, asOf }, articles: () => dumpSnapshotArticles(SAMPLE_DUMP, asOf) },
    });
  }
  return store;
}

function months(store: Store, tasks: GrowoverTasks) {
  const input = { tasks, embedder: letterEmbedder, nli: new HeuristicNli(), seed: 1 };
  return {
    first: () => runMonthly({ store, reporter: new RecordingReporter(), llm: 'offline', input: { ...input, newName: OLD } }),
    second: () => runMonthly({ store, reporter: new RecordingReporter(), llm: 'offline', input: { ...input, oldName: OLD, newName: NEW } }),
  };
}

function state(store: Store) {
  return {
    qa: store.db.prepare('SELECT id, status, retired_snapshot, question, answer FROM growover_qa ORDER BY id').all(),
    evidence: store.db.prepare('SELECT * FROM growover_evidence ORDER BY item_id, snapshot').all(),
    turns: store.db.prepare('SELECT * FROM growover_turns ORDER BY dialogue_id, turn').all(),
    rejects: store.db.prepare('SELECT id, reason FROM growover_rejects ORDER BY id').all(),
  };
}

describe('a monthly run that fails part-way', () => {
  it('records the failure and its rerun finishes the same run with the state of an uninterrupted one', async () => {
    const reference = await storeWithSnapshots();
    await months(reference, new OfflineGrowoverTasks()).first();
    await months(reference, new OfflineGrowoverTasks()).second();

    const store = await storeWithSnapshots();
    await months(store, new OfflineGrowoverTasks()).first();
    await expect(months(store, new FailingTasks(2)).second()).rejects.toThrow('LLM server gone');
    const failed = store.db.prepare("SELECT status, error FROM runs WHERE pipeline = 'monthly' ORDER BY id DESC LIMIT 1").get() as { status: string; error: string };
    expect(failed).toEqual({ status: 'failed', error: 'generate: LLM server gone' });
    const partly = (store.db.prepare("SELECT COUNT(*) FROM growover_done WHERE snapshot = ? AND stage = 'generate'").pluck().get(NEW) as number);
    expect(partly).toBeGreaterThan(0);

    const outcome = await months(store, new OfflineGrowoverTasks()).second();
    expect(outcome.resumed).toBe(true);
    expect(outcome.skipped).toEqual(['maintain']);
    expect(outcome.run.status).toBe('done');
    expect(state(store)).toEqual(state(reference));
    expect(state(store).qa.length).toBeGreaterThan(0);
  }, 120_000);
});

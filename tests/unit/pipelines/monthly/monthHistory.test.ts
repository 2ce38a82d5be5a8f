/**
 * A month's items must not depend on what the store ran before: a snapshot whose run stopped part
 * way is not worked from as if whole, and a month made again with another --old replaces the items
 * another run made for it instead of reporting them as its own.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMonthly } from '../../../../pipelines/monthly.js';
import { runLabel } from '../../../../pipelines/monthly/label.js';
import { runSnapshot } from '../../../../pipelines/monthly/snapshot.js';
import { HeuristicNli } from '../../../../src/models/heuristicNli.js';
import type { GrowoverTasks } from '../../../../src/llm/growoverTasks.js';
import { OfflineGrowoverTasks } from '../../../../src/llm/offlineGrowoverTasks.js';
import { renderGrowoverRelease } from '../../../../src/release/growoverRelease.js';
import { FailingTasks } from '../../../support/failingGrowoverTasks.js';
import { RecordingReporter } from '../../../../src/runs/progress.js';
import { dumpSnapshotArticles } from '../../../../src/sources/snapshotSources.js';
import type { SnapshotArticle } from '../../../../src/sources/snapshotSources.js';
import { Store } from '../../../../src/store/store.js';
import { repoRoot } from '../../../../testkit/cli.js';
import { letters } from '../../../support/letterEmbedder.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const [FEB, MAR, APR] = ['2025-02', '2025-03', '2025-04'];


function snapshot(store: Store, name: string, articles: () => AsyncIterable<SnapshotArticle> = () => dumpSnapshotArticles(SAMPLE, `${name}-01T00:00:00Z`)) {
  const asOf = `${name}-01T00:00:00Z`;
  return runSnapshot({ store, reporter: new RecordingReporter(), input: { snapshot: { name, wiki: 'sample', source: SAMPLE, asOf }, articles } });
}

async function storeWith(names: string[]): Promise<Store> {
  const store = Store.open(':memory:');
  for (const name of names) await snapshot(store, name);
  return store;
}

function monthly(store: Store, months: { old?: string; new: string }, tasks: GrowoverTasks = new OfflineGrowoverTasks()) {
  const input = { tasks, embedder: letters, nli: new HeuristicNli(), seed: 1 };
  return runMonthly({ store, reporter: new RecordingReporter(), llm: 'offline', input: { ...input, ...(months.old !== undefined ? { oldName: months.old } : {}), newName: months.new } });
}

/** What the snapshot holds: its items' evidence there, the items made in it and its rejects. */
function itemsOf(store: Store, name: string) {
  const all = (sql: string) => store.db.prepare(sql).all(name);
  return {
    evidence: all('SELECT item_id, kind, page_id, type, indices FROM growover_evidence WHERE snapshot = ? ORDER BY item_id'),
    qa: all('SELECT id, type, question, answer, old_answer FROM growover_qa WHERE snapshot = ? ORDER BY id'),
    rejects: all('SELECT id, reason FROM growover_rejects WHERE snapshot = ? ORDER BY id'),
    done: all('SELECT page_id, stage FROM growover_done WHERE snapshot = ? ORDER BY page_id, stage'),
  };
}

describe('monthly results that do not depend on the store history', () => {
  it('refuses to label or make items from a snapshot whose run stopped part way, and works once it is whole', async () => {
    const store = await storeWith([FEB, MAR]);
    await monthly(store, { new: FEB });
    await monthly(store, { old: FEB, new: MAR });
    // The April snapshot's run dies after three articles.
    async function* three(): AsyncIterable<SnapshotArticle> {
      let n = 0;
      for await (const article of dumpSnapshotArticles(SAMPLE, `${APR}-01T00:00:00Z`)) {
        if (n++ === 3) throw new Error('killed');
        yield article;
      }
    }
    await expect(snapshot(store, APR, three)).rejects.toThrow('killed');
    expect(store.snapshots.snapshot(APR)).toBeDefined();
    expect(store.snapshots.articles(APR).length).toBeLessThan(11);

    await expect(monthly(store, { old: MAR, new: APR })).rejects.toMatchObject({ code: 'E_PREREQUISITE_MISSING' });
    await expect(monthly(store, { new: APR })).rejects.toMatchObject({ code: 'E_PREREQUISITE_MISSING' });
    await expect(runLabel({ store, reporter: new RecordingReporter(), input: { oldName: MAR, newName: APR, embedder: letters, nli: new HeuristicNli() } })).rejects.toMatchObject({
      code: 'E_PREREQUISITE_MISSING',
    });
    expect(itemsOf(store, APR).done).toEqual([]);

    await snapshot(store, APR);
    await monthly(store, { old: MAR, new: APR });
    const reference = await storeWith([FEB, MAR, APR]);
    await monthly(reference, { new: FEB });
    await monthly(reference, { old: FEB, new: MAR });
    await monthly(reference, { old: MAR, new: APR });
    expect(itemsOf(store, APR)).toEqual(itemsOf(reference, APR));
  }, 120_000);

  it('a month made again from another --old holds the items of that run, as on a store that never made it otherwise', async () => {
    const store = await storeWith([FEB, MAR, APR]);
    await monthly(store, { new: FEB });
    await monthly(store, { old: FEB, new: MAR });
    await monthly(store, { old: MAR, new: APR });
    const fromMarch = itemsOf(store, APR);

    const bridged = await monthly(store, { old: FEB, new: APR });
    expect(bridged.executed).toEqual(['maintain', 'generate']);
    const reference = await storeWith([FEB, APR]);
    await monthly(reference, { new: FEB });
    await monthly(reference, { old: FEB, new: APR });
    expect(itemsOf(store, APR)).toEqual(itemsOf(reference, APR));
    expect(itemsOf(store, APR)).not.toEqual(fromMarch);

    // Back to March as the old month: its run, done before, makes April's items again.
    const back = await monthly(store, { old: MAR, new: APR });
    expect(back.executed).toEqual(['maintain', 'generate']);
    expect(itemsOf(store, APR)).toEqual(fromMarch);
    const idle = await monthly(store, { old: MAR, new: APR });
    expect(idle.executed).toEqual([]);
  }, 120_000);

  it('refuses to release a month whose monthly run stopped part way, and releases it once finished', async () => {
    const store = await storeWith([FEB, MAR]);
    await monthly(store, { new: FEB });
    await expect(monthly(store, { old: FEB, new: MAR }, new FailingTasks(2))).rejects.toThrow('LLM server gone');
    expect(store.db.prepare('SELECT COUNT(*) FROM growover_evidence WHERE snapshot = ?').pluck().get(MAR)).toBeGreaterThan(0);
    await expect(renderGrowoverRelease(store, MAR)).rejects.toMatchObject({ code: 'E_PREREQUISITE_MISSING' });
    await expect(renderGrowoverRelease(store, FEB)).resolves.toBeDefined();

    await monthly(store, { old: FEB, new: MAR });
    const { months } = await renderGrowoverRelease(store, MAR);
    expect(months.map((month) => month.snapshot)).toEqual([FEB, MAR]);
  }, 120_000);
});

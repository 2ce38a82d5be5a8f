/**
 * One store, three months of the embedded sample, run in order and out of order, again and with
 * --redo: a month's maintain and generate read the month before's items, so whatever the order the
 * end state must be the one of running the months in order, a rerun with nothing changed must do
 * nothing, and the counts a stage records must describe its result, not the work of one process.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMonthly } from '../../../../pipelines/monthly.js';
import { runLabel } from '../../../../pipelines/monthly/label.js';
import { runSnapshot } from '../../../../pipelines/monthly/snapshot.js';
import type { GrowoverTasks } from '../../../../src/llm/growoverTasks.js';
import { OfflineGrowoverTasks } from '../../../../src/llm/offlineGrowoverTasks.js';
import { FailingTasks } from '../../../support/failingGrowoverTasks.js';
import { HeuristicNli } from '../../../../src/models/heuristicNli.js';
import { RecordingReporter } from '../../../../src/runs/progress.js';
import { dumpSnapshotArticles } from '../../../../src/sources/snapshotSources.js';
import { Store } from '../../../../src/store/store.js';
import { repoRoot } from '../../../../testkit/cli.js';
import { letters } from '../../../support/letterEmbedder.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const [FEB, MAR, APR] = ['2025-02', '2025-03', '2025-04'];


async function storeWithMonths(): Promise<Store> {
  const store = Store.open(':memory:');
  for (const name of [FEB, MAR, APR]) {
    const asOf = `${name}-01T00:00:00Z`;
    await runSnapshot({ store, reporter: new RecordingReporter(), input: { snapshot: { name, wiki: 'sample', source: SAMPLE, asOf }, articles: () => dumpSnapshotArticles(SAMPLE, asOf) } });
  }
  return store;
}

/** `monthly [--old OLD] --new NEW [--redo …]` on the store, offline. */
function monthly(store: Store, months: { old?: string; new: string }, options: { redo?: string[]; tasks?: GrowoverTasks } = {}) {
  const input = { tasks: options.tasks ?? new OfflineGrowoverTasks(), embedder: letters, nli: new HeuristicNli(), seed: 1 };
  return runMonthly({
    store,
    reporter: new RecordingReporter(),
    llm: 'offline',
    redo: options.redo ?? [],
    input: { ...input, ...(months.old !== undefined ? { oldName: months.old } : {}), newName: months.new },
  });
}

async function inOrder(store: Store): Promise<void> {
  await monthly(store, { new: FEB });
  await monthly(store, { old: FEB, new: MAR });
  await monthly(store, { old: MAR, new: APR });
}

/** Every GrowOVER row of the store, in a fixed order. */
function items(store: Store) {
  const all = (sql: string) => store.db.prepare(sql).all();
  return {
    qa: all('SELECT id, snapshot, type, question, answer, old_answer, status, retired_snapshot, retired_reason FROM growover_qa ORDER BY id'),
    dialogues: all('SELECT id, snapshot, type, paragraph FROM growover_dialogues ORDER BY id'),
    turns: all('SELECT * FROM growover_turns ORDER BY dialogue_id, turn'),
    evidence: all('SELECT * FROM growover_evidence ORDER BY item_id, snapshot'),
    rejects: all('SELECT id, snapshot, reason FROM growover_rejects ORDER BY id'),
    done: all('SELECT * FROM growover_done ORDER BY snapshot, page_id, stage'),
  };
}

/** The counts each stage of the newest monthly run of OLD → NEW recorded. */
function recordedCounts(store: Store, months: { old: string; new: string }) {
  const run = store.runs.listRuns(100).find((r) => r.pipeline === 'monthly' && r.params.old === months.old && r.params.new === months.new);
  return Object.fromEntries((run?.stages ?? []).map((stage) => [stage.stage, stage.counts]));
}

describe('monthly runs of one store in and out of order', () => {
  it('end, once each month has run after the one before it, as the months run in order', async () => {
    const reference = await storeWithMonths();
    await inOrder(reference);
    expect(items(reference).evidence.filter((row) => (row as { snapshot: string }).snapshot === APR).length).toBeGreaterThan(0);

    const store = await storeWithMonths();
    await monthly(store, { old: MAR, new: APR });
    await monthly(store, { new: FEB });
    await monthly(store, { old: FEB, new: MAR });
    const again = await monthly(store, { old: MAR, new: APR });
    expect(again.executed).toEqual(['maintain', 'generate']);
    expect(items(store)).toEqual(items(reference));
    expect(recordedCounts(store, { old: MAR, new: APR })).toEqual(recordedCounts(reference, { old: MAR, new: APR }));

    // Nothing changed since: the same command does no work and changes nothing.
    const before = items(store);
    const idle = await monthly(store, { old: MAR, new: APR });
    expect(idle.executed).toEqual([]);
    expect(idle.skipped).toEqual(['maintain', 'generate']);
    expect(items(store)).toEqual(before);
  }, 120_000);

  it('--redo recomputes every article of the stage, with the counts of its result', async () => {
    const reference = await storeWithMonths();
    await inOrder(reference);
    const store = await storeWithMonths();
    await inOrder(store);

    // Articles whose stage work is lost are made again by --redo, not skipped as done.
    store.db.prepare("DELETE FROM growover_evidence WHERE snapshot = ? AND type = 'unchanged'").run(APR);
    const redone = await monthly(store, { old: MAR, new: APR }, { redo: ['maintain', 'generate'] });
    expect(redone.executed).toEqual(['maintain', 'generate']);
    expect(items(store)).toEqual(items(reference));
    expect(recordedCounts(store, { old: MAR, new: APR })).toEqual(recordedCounts(reference, { old: MAR, new: APR }));
  }, 120_000);

  it('a month made again clears the months made from it, and their next run makes them again', async () => {
    const reference = await storeWithMonths();
    await inOrder(reference);
    const store = await storeWithMonths();
    await inOrder(store);

    await monthly(store, { old: FEB, new: MAR }, { redo: ['generate'] });
    const april = store.db.prepare('SELECT COUNT(*) FROM growover_evidence WHERE snapshot = ?').pluck();
    expect(april.get(APR)).toBe(0);
    const again = await monthly(store, { old: MAR, new: APR });
    expect(again.executed).toEqual(['maintain', 'generate']);
    expect(items(store)).toEqual(items(reference));
  }, 120_000);

  it('a run resumed after a failure records the counts of an uninterrupted one', async () => {
    const reference = await storeWithMonths();
    await inOrder(reference);
    const store = await storeWithMonths();
    await monthly(store, { new: FEB });
    await monthly(store, { old: FEB, new: MAR });
    await expect(monthly(store, { old: MAR, new: APR }, { tasks: new FailingTasks(2) })).rejects.toThrow('LLM server gone');
    await monthly(store, { old: MAR, new: APR });
    expect(items(store)).toEqual(items(reference));
    expect(recordedCounts(store, { old: MAR, new: APR })).toEqual(recordedCounts(reference, { old: MAR, new: APR }));
  }, 120_000);

  it('refuses an old snapshot that is not earlier than the new one, writing nothing', async () => {
    const store = await storeWithMonths();
    await inOrder(store);
    const before = { items: items(store), runs: store.runs.listRuns(100).length };
    await expect(monthly(store, { old: APR, new: FEB })).rejects.toMatchObject({ code: 'E_DATE_RANGE_INVALID' });
    await expect(monthly(store, { old: MAR, new: MAR })).rejects.toMatchObject({ code: 'E_DATE_RANGE_INVALID' });
    await expect(runLabel({ store, reporter: new RecordingReporter(), input: { oldName: APR, newName: FEB, embedder: letters, nli: new HeuristicNli() } })).rejects.toMatchObject({
      code: 'E_DATE_RANGE_INVALID',
    });
    expect({ items: items(store), runs: store.runs.listRuns(100).length }).toEqual(before);
    expect(store.db.prepare('SELECT COUNT(*) FROM label_articles WHERE old_snapshot = ?').pluck().get(APR)).toBe(0);
  }, 120_000);
});

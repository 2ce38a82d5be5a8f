import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLabel } from '../../../../pipelines/monthly/label.js';
import { runSnapshot } from '../../../../pipelines/monthly/snapshot.js';
import type { Embedder } from '../../../../src/models/embedder.js';
import { HeuristicNli } from '../../../../src/models/heuristicNli.js';
import type { NliModel, NliPair } from '../../../../src/models/nli.js';
import { dumpSnapshotArticles } from '../../../../src/sources/snapshotSources.js';
import { JsonLinesReporter } from '../../../../src/runs/progress.js';
import { repoRoot } from '../../../../testkit/cli.js';
import { Store } from '../../../../src/store/store.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const reporter = new JsonLinesReporter({ write: () => true } as unknown as NodeJS.WritableStream);

/** Letter counts: enough to tell texts apart, instant, so the test is about resuming, not models. */
const letters: Embedder = {
  id: 'letters',
  sameThreshold: 0.99,
  embed: (texts) =>
    Promise.resolve(texts.map((text) => Float32Array.from({ length: 26 }, (_, k) => text.toLowerCase().split(String.fromCharCode(97 + k)).length - 1))),
};

/** Heuristic NLI that fails once after a number of calls, like a model server going away mid-run. */
class FailingOnce implements NliModel {
  readonly id = 'heuristic-nli';
  calls = 0;
  private readonly inner = new HeuristicNli();
  constructor(private failAt: number | null) {}
  classify(pairs: readonly NliPair[]) {
    this.calls++;
    if (this.calls === this.failAt) {
      this.failAt = null;
      return Promise.reject(new Error('NLI server went away'));
    }
    return this.inner.classify(pairs);
  }
}

describe('the monthly-label run', () => {
  it('fails with its reason, then continues where it stopped without relabeling stored articles', async () => {
    const snapshots = async () => {
      const store = Store.open(':memory:');
      for (const name of ['2025-02-01', '2025-03-01']) {
        const asOf = `${name}T00:00:00Z`;
        await runSnapshot({ store, reporter, input: { snapshot: { name, wiki: 'sample', source: SAMPLE, asOf }, articles: () => dumpSnapshotArticles(SAMPLE, asOf) } });
      }
      return store;
    };
    const input = { oldName: '2025-02-01', newName: '2025-03-01', embedder: letters };
    const fresh = await snapshots();
    const whole = new FailingOnce(null);
    await runLabel({ store: fresh, reporter, input: { ...input, nli: whole } });

    const store = await snapshots();
    await expect(runLabel({ store, reporter, input: { ...input, nli: new FailingOnce(Math.ceil(whole.calls / 2)) } })).rejects.toThrow('NLI server went away');
    const failed = store.runs.listRuns(1)[0];
    expect(failed).toMatchObject({ pipeline: 'monthly-label', status: 'failed', error: 'label: NLI server went away' });
    const labeledBefore = store.db.prepare('SELECT COUNT(*) FROM label_articles').pluck().get() as number;
    expect(labeledBefore).toBeGreaterThan(0);
    expect(labeledBefore).toBeLessThan(11);

    const resumed = new FailingOnce(null);
    const outcome = await runLabel({ store, reporter, input: { ...input, nli: resumed } });
    expect(outcome).toMatchObject({ resumed: true, run: { id: failed?.id, status: 'done' } });
    expect(store.db.prepare('SELECT COUNT(*) FROM label_articles').pluck().get()).toBe(11);
    // Same labels as an uninterrupted run, and the resumed run asked NLI only for what was left.
    expect(store.snapshots.labelCounts('2025-02-01', '2025-03-01')).toEqual(fresh.snapshots.labelCounts('2025-02-01', '2025-03-01'));
    expect(resumed.calls).toBeLessThan(whole.calls);
  });
});

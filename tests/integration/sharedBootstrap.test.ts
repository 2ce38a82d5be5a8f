import { describe, expect, it } from 'vitest';
import { BootstrapThread, ClusteredSums, clusteredIntervals, resampledIntervals, sharesBootstrap } from '../../src/evaluate/bootstrap.js';
import { SeededRandom } from '../../src/random.js';
import { SyncThread } from '../../src/syncThread.js';

/** A report's worth of groups over `clusters` queries: one of every item, and breakdowns whose groups split them, scores as a scorer adds them. */
function report(clusters: number): ClusteredSums[] {
  const random = new SeededRandom(5);
  const all = new ClusteredSums(3);
  const byBin = Array.from({ length: 12 }, () => new ClusteredSums(3));
  const byWeek = Array.from({ length: 4 }, () => new ClusteredSums(3));
  const copy = new ClusteredSums(3);
  for (let cluster = 0; cluster < clusters; cluster++) {
    for (let day = 0; day < 6; day++) {
      const scores = [random.next() < 0.5 ? 1 : 0, random.next(), random.next() < 0.3 ? 1 : 0];
      all.add(cluster, scores);
      copy.add(cluster, scores);
      (byBin[(cluster + day) % 12] as ClusteredSums).add(cluster, scores);
      (byWeek[cluster % 4] as ClusteredSums).add(cluster, scores);
    }
  }
  return [all, ...byBin, copy, ...byWeek];
}

describe('a bootstrap shared with a second thread', () => {
  const clusters = 7000;
  const groups = report(clusters);
  const rows = groups.reduce((sum, group) => sum + group.clusters, 0);

  it('is large enough here to be shared', () => {
    expect(sharesBootstrap(rows)).toBe(true);
  });

  it('gives every group the intervals of one thread drawing for all, to the last bit, a group the same as another included', () => {
    const alone = resampledIntervals(groups, clusters, { seed: 11 });
    expect(clusteredIntervals(groups, clusters, { seed: 11 })).toEqual(alone);
    const thread = new BootstrapThread();
    try {
      expect(clusteredIntervals(groups, clusters, { seed: 11, thread })).toEqual(alone);
    } finally {
      thread.close();
    }
    expect(clusteredIntervals(groups, clusters, { seed: 12 })).not.toEqual(alone);
  });

  it('lets a thread started ahead be closed unused', async () => {
    await expect(new BootstrapThread().close()).resolves.toBeTypeOf('number');
  });

  it('keeps on this thread groups the drawing side would otherwise have none of, rather than waiting for ever', () => {
    // Two large groups, each fewer rows than the draws of 30,000 clusters are worth: both would go to the other thread.
    const many = 30_000;
    const [a, b] = [new ClusteredSums(1), new ClusteredSums(1)];
    for (let cluster = 0; cluster < many; cluster++) {
      a.add(cluster, [cluster % 2]);
      b.add(cluster, [cluster % 3 === 0 ? 1 : 0]);
    }
    expect(clusteredIntervals([a, b], many, { seed: 3 })).toEqual(resampledIntervals([a, b], many, { seed: 3 }));
  });
});

describe('a thread whose messages are taken synchronously', () => {
  it('is an error at once when it ends without its reply', () => {
    const thread = new SyncThread('the test thread', new URL('../support/silentThread.ts', import.meta.url), null);
    try {
      expect(() => thread.receive()).toThrow('the test thread stopped without its reply');
    } finally {
      void thread.stop();
    }
  });
});

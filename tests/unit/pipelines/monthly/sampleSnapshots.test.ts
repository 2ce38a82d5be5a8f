import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runLabel } from '../../../../pipelines/monthly/label.js';
import { runSnapshot } from '../../../../pipelines/monthly/snapshot.js';
import { CachingEmbedder } from '../../../../src/models/embedder.js';
import { HeuristicNli } from '../../../../src/models/heuristicNli.js';
import { UseLiteEmbedder } from '../../../../src/models/useEmbedder.js';
import { dumpSnapshotArticles } from '../../../../src/sources/snapshotSources.js';
import type { StoredLabel } from '../../../../src/model/labels.js';
import type { SnapshotStore } from '../../../../src/store/snapshotStore.js';
import { JsonLinesReporter } from '../../../../src/runs/progress.js';
import { repoRoot } from '../../../../testkit/cli.js';
import { Store } from '../../../../src/store/store.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const reporter = new JsonLinesReporter({ write: () => true } as unknown as NodeJS.WritableStream);
let store: Store;
let snapshots: SnapshotStore;
let labels: StoredLabel[];

async function snapshot(name: string): Promise<void> {
  const asOf = `${name}T00:00:00Z`;
  await runSnapshot({ store, reporter, input: { snapshot: { name, wiki: 'sample', source: SAMPLE, asOf }, articles: () => dumpSnapshotArticles(SAMPLE, asOf) } });
}

beforeAll(async () => {
  store = Store.open(':memory:');
  snapshots = store.snapshots;
  await snapshot('2025-02-01');
  await snapshot('2025-03-01');
  await runLabel({ store, reporter, input: { oldName: '2025-02-01', newName: '2025-03-01', embedder: new CachingEmbedder(new UseLiteEmbedder()), nli: new HeuristicNli() } });
  labels = [...snapshots.labels('2025-02-01', '2025-03-01')];
}, 120_000);

describe('monthly snapshots of the embedded sample from its dump', () => {
  it('holds each article as of the date: pages created later absent, redirects skipped, the revision at or before the instant', () => {
    const february = snapshots.articles('2025-02-01');
    const march = snapshots.articles('2025-03-01');
    expect(february.map((a) => a.title)).not.toContain('2025 Port Aldwin mayoral election');
    expect(march.map((a) => a.title)).toContain('2025 Port Aldwin mayoral election');
    expect(march).toHaveLength(11);
    expect(february).toHaveLength(10);
    // Page 112 is the redirect the move of 2025-02-19 left at "Glass Orchard".
    expect(march.map((a) => a.pageId)).not.toContain(112);
    expect(february.every((a) => a.timestamp <= '2025-02-01T00:00:00Z')).toBe(true);
    // Port Aldwin: revision 1013 (2025-01-21) in February, 1044 (2025-02-26, the last before March) in March.
    expect(february.find((a) => a.pageId === 101)?.revId).toBe(1013);
    expect(march.find((a) => a.pageId === 101)?.revId).toBe(1044);
  });

  it('pairs every article present in both by page id, whatever its title', () => {
    const pairs = snapshots.pairs('2025-02-01', '2025-03-01');
    expect(pairs.filter((p) => p.oldArticle === null).map((p) => p.newArticle.pageId)).toEqual([111]);
    const inBoth = pairs.filter((p) => p.oldArticle !== null);
    expect(inBoth).toHaveLength(10);
    expect(inBoth.map((p) => p.oldArticle?.pageId)).toEqual(inBoth.map((p) => p.newArticle.pageId));
  });

  it('labels the month: the new article all new, numbers updated as changed, the candidacy sentence deleted', () => {
    const election = labels.filter((l) => l.title === '2025 Port Aldwin mayoral election');
    expect(election.length).toBeGreaterThan(3);
    expect(election.every((l) => l.label === 'new' && l.step === 'new-article')).toBe(true);
    const changed = labels.filter((l) => l.label === 'changed');
    expect(changed.length).toBeGreaterThanOrEqual(3);
    for (const label of changed) {
      expect(label.oldText).not.toBeNull();
      expect(label.similarity).toBeGreaterThan(0.6);
    }
    const deleted = labels.filter((l) => l.label === 'deleted');
    expect(deleted.some((l) => l.title === 'Edda Marrow')).toBe(true);
    const counts = snapshots.labelCounts('2025-02-01', '2025-03-01');
    expect(counts.unchanged).toBeGreaterThan(counts.changed + counts.new);
    const newSentences = snapshots.articles('2025-03-01').reduce((sum, a) => sum + snapshots.sentences('2025-03-01', a.pageId).length, 0);
    expect(labels.filter((l) => l.side === 'new')).toHaveLength(newSentences);
  });

  it('reruns without duplicating anything', async () => {
    const before = snapshots.labelCounts('2025-02-01', '2025-03-01');
    await runLabel({ store, reporter, input: { oldName: '2025-02-01', newName: '2025-03-01', embedder: new UseLiteEmbedder(), nli: new HeuristicNli() } });
    await snapshot('2025-03-01');
    expect(snapshots.labelCounts('2025-02-01', '2025-03-01')).toEqual(before);
    expect(snapshots.articles('2025-03-01')).toHaveLength(11);
  });
});

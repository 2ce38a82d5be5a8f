/**
 * A snapshot whose dump broke part way is taken again from another copy of the dump: the failed
 * run's hint sent the maintainer back to the broken file, and any other path was refused as another
 * snapshot of that name. A finished snapshot keeps its origin.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireWholeSnapshot, runSnapshot } from '../../../../pipelines/monthly/snapshot.js';
import { RecordingReporter } from '../../../../src/runs/progress.js';
import { dumpSnapshotArticles } from '../../../../src/sources/snapshotSources.js';
import { Store } from '../../../../src/store/store.js';
import { repoRoot, tempDir } from '../../../../testkit/cli.js';
import { withCode } from '../../../support/errorCodes.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const AS_OF = '2025-03-01T00:00:00Z';

function take(store: Store, source: string, reporter = new RecordingReporter()) {
  return runSnapshot({ store, reporter, input: { snapshot: { name: '2025-03', wiki: 'samplewiki', source, asOf: AS_OF }, articles: () => dumpSnapshotArticles(source, AS_OF) } });
}

function sentences(store: Store): unknown[] {
  return store.db.prepare("SELECT page_id, idx, text FROM snapshot_sentences WHERE snapshot = '2025-03' ORDER BY page_id, idx").all();
}

describe('a snapshot whose dump broke part way', () => {
  it('is taken again whole from another copy of the dump, and a finished one keeps its origin', async () => {
    const dir = tempDir();
    const bytes = readFileSync(SAMPLE);
    const broken = join(dir, 'broken.xml');
    // Cut inside the sixth page: the first five are stored before the dump fails.
    let cut = 0;
    for (let page = 0; page < 6; page++) cut = bytes.indexOf('<page>', cut + 1);
    writeFileSync(broken, bytes.subarray(0, cut + 200));
    const mended = join(dir, 'mended.xml');
    copyFileSync(SAMPLE, mended);

    const store = Store.open(join(dir, 'store.sqlite'));
    const whole = Store.open(join(dir, 'whole.sqlite'));
    try {
      await expect(take(store, broken)).rejects.toThrow(withCode('E_DUMP_TRUNCATED'));
      expect(sentences(store).length).toBeGreaterThan(0);
      expect(() => requireWholeSnapshot(store, '2025-03')).toThrow(
        withCode('E_PREREQUISITE_MISSING', 'run wikidelta snapshot --name 2025-03 again first (the same source and --as-of continue it; another copy of a broken dump takes it again)'),
      );

      const reporter = new RecordingReporter();
      expect((await take(store, mended, reporter)).run.status).toBe('done');
      expect(reporter.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
        `snapshot "2025-03" was left unfinished from ${broken} as of ${AS_OF}: taken again from ${mended}`,
      ]);
      expect(requireWholeSnapshot(store, '2025-03').source).toBe(mended);
      await take(whole, SAMPLE);
      expect(sentences(store)).toEqual(sentences(whole));

      // Finished, it is no longer taken again from elsewhere.
      await expect(take(store, SAMPLE)).rejects.toThrow(withCode('E_SNAPSHOT_EXISTS', `snapshot "2025-03" already exists from ${mended}`));
      expect(sentences(store)).toEqual(sentences(whole));
    } finally {
      store.close();
      whole.close();
    }
  });
});

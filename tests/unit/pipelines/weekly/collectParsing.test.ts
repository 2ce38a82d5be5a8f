/**
 * The collect stage without the queue parses each part on the batch threads as it collects
 * (pipelines/weekly/partWriters.ts): the store ends as a collect that stores the texts followed by
 * the parse stage leaves it, with or without kept content; a source that fails leaves its finished
 * pages done and parsed, and a failing parse leaves no page done whose part it did not write.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWeekly } from '../../../../pipelines/weekly.js';
import { ParsingPartWriter } from '../../../../pipelines/weekly/partWriters.js';
import { SAMPLE_DUMP } from '../../../../src/cli/commands/demo.js';
import { windowFrom } from '../../../../src/dates.js';
import type { Window } from '../../../../src/model.js';
import { InProcessRunner, type BatchRunner } from '../../../../src/queue/batchRunner.js';
import { RecordingReporter } from '../../../../src/runs/progress.js';
import { DumpRevisionSource } from '../../../../src/sources/dumpSource.js';
import type { CollectOptions, PageHistoryPart, RevisionSource } from '../../../../src/sources/RevisionSource.js';
import { openDatabase } from '../../../../src/store/database.js';
import { RevisionStore } from '../../../../src/store/revisionStore.js';
import { tempDir } from '../../../../testkit/cli.js';
import { snapshotStore } from '../../../support/storeSnapshot.js';
import { Store } from '../../../../src/store/store.js';

const window = windowFrom('2025-01-06', 56);
const inProcess = new InProcessRunner({ models: () => Promise.reject(new Error('no models expected')) });

/** The sample's source, failing after it has yielded `endsBefore` page ends. */
class FailingSource implements RevisionSource {
  readonly kind = 'dump' as const;
  readonly origin = 'dump:failing';
  constructor(private readonly endsBefore: number) {}
  async *pagesChangedIn(span: Window, options?: CollectOptions): AsyncGenerator<PageHistoryPart> {
    let ends = 0;
    for await (const part of new DumpRevisionSource(SAMPLE_DUMP).pagesChangedIn(span, options)) {
      if (part.kind === 'end' && ends++ === this.endsBefore) throw new Error('the source broke');
      yield part;
    }
  }
}

async function weekly(path: string, options: { batchRunner?: BatchRunner; keepContent?: boolean; source?: RevisionSource }) {
  const store = Store.open(path);
  try {
    return await runWeekly({
      store,
      input: {
        window,
        wiki: 'sample',
        source: options.source ?? new DumpRevisionSource(SAMPLE_DUMP),
        seed: 1,
        revertHours: 48,
        keepContent: options.keepContent ?? false,
        articleBaseUrl: 'https://sample.wikidelta.invalid/wiki/',
        ...(options.batchRunner ? { batchRunner: options.batchRunner } : {}),
      },
      stages: ['collect', 'parse', 'diff'],
      reporter: new RecordingReporter(),
      params: { test: path },
    });
  } finally {
    store.close();
  }
}

describe('collect parsing as it collects', () => {
  it.each([false, true])('leaves the store of collect then parse (content kept: %s), the parse stage finding nothing left', async (keepContent) => {
    const dir = tempDir();
    const stored = join(dir, 'stored.sqlite');
    await weekly(stored, { batchRunner: inProcess, keepContent });
    const parsed = join(dir, 'parsed.sqlite');
    const outcome = await weekly(parsed, { keepContent });
    const tables = snapshotStore(parsed);
    expect(tables).toEqual(snapshotStore(stored));
    expect(tables.infoboxes?.length).toBeGreaterThan(20);
    expect(tables.infobox_changes?.length).toBeGreaterThan(5);
    const counts = (stage: string) => outcome.run.stages.find((record) => record.stage === stage)?.counts;
    expect(counts('collect')).toMatchObject({ pages: tables.window_pages?.length, infoboxes: tables.infoboxes?.length });
    expect(counts('parse')).toEqual({ revisions: 0, infoboxes: 0 });
  });

  it('keeps the pages finished before the source failed, done and parsed, and a rerun ends as an uninterrupted run', async () => {
    const dir = tempDir();
    const reference = join(dir, 'reference.sqlite');
    await weekly(reference, {});
    const broken = join(dir, 'broken.sqlite');
    await expect(weekly(broken, { source: new FailingSource(3) })).rejects.toThrow('the source broke');
    const partial = snapshotStore(broken);
    expect(partial.window_pages).toHaveLength(3);
    const withText = partial.revisions?.filter((row) => /"metadata_only":0/.test(row as string)) ?? [];
    expect(withText.length).toBeGreaterThan(3);
    expect(withText.every((row) => /"parsed":1/.test(row as string))).toBe(true);
    await weekly(broken, {});
    expect(snapshotStore(broken)).toEqual(snapshotStore(reference));
  });

  it('parses again no revision an earlier window parsed as the next one needs it', async () => {
    const dir = tempDir();
    /** Collects the windows into one store, returning how many revisions each sent to the parser. */
    const collect = async (path: string, windows: readonly Window[]) => {
      const db = openDatabase(path);
      try {
        const store = new RevisionStore(db, 'sample');
        const parsedPerWindow: number[] = [];
        for (const span of windows) {
          let revisions = 0;
          const counting: BatchRunner = {
            run: (kind, batches, onResult) => {
              revisions += (batches as unknown as ReadonlyArray<{ revisions: unknown[] }>).reduce((sum, batch) => sum + batch.revisions.length, 0);
              return inProcess.run(kind, batches, onResult);
            },
          };
          await new ParsingPartWriter(store, counting, { window: span, keepContent: false }).write(new DumpRevisionSource(SAMPLE_DUMP).pagesChangedIn(span), () => undefined);
          parsedPerWindow.push(revisions);
        }
        expect(db.prepare('SELECT COUNT(*) FROM revisions WHERE metadata_only = 0 AND parsed = 0').pluck().get()).toBe(0);
        return parsedPerWindow;
      } finally {
        db.close();
      }
    };
    const month = windowFrom('2025-01-06', 28);
    const week = windowFrom('2025-01-20', 7);
    const [alone] = await collect(join(dir, 'alone.sqlite'), [week]);
    expect(alone).toBeGreaterThan(0);
    // The week's revisions, and the last one before it, were parsed by the month, first paragraphs included.
    expect(await collect(join(dir, 'month-then-week.sqlite'), [month, week])).toEqual([expect.any(Number), 0]);
    // A window that the one before it did not hold in full (its own leads) is parsed where it must be.
    const [, next] = await collect(join(dir, 'week-then-next.sqlite'), [week, windowFrom('2025-01-27', 7)]);
    expect(next).toBeGreaterThan(0);
  });

  it('marks no page done whose revisions a failed parse did not write', async () => {
    const path = join(tempDir(), 'failed.sqlite');
    const db = openDatabase(path);
    try {
      let calls = 0;
      const failingThird: BatchRunner = {
        run: (kind, batches, onResult) => (++calls === 3 ? Promise.reject(new Error('the parse broke')) : inProcess.run(kind, batches, onResult)),
      };
      const store = new RevisionStore(db, 'sample');
      const writer = new ParsingPartWriter(store, failingThird, { window, keepContent: false });
      const written: PageHistoryPart[] = [];
      await expect(writer.write(new DumpRevisionSource(SAMPLE_DUMP).pagesChangedIn(window), (part) => written.push(part))).rejects.toThrow('the parse broke');
      const done = written.filter((part) => part.kind === 'end').map((part) => part.page.pageId);
      expect(done).toHaveLength(2);
      expect(done.every((pageId) => store.isPageDone(window, pageId))).toBe(true);
      expect(db.prepare('SELECT COUNT(*) FROM window_pages').pluck().get()).toBe(2);
      expect(db.prepare('SELECT COUNT(*) FROM revisions WHERE parsed = 0').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});

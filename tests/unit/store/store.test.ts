import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../src/store/database.js';
import { migrations } from '../../../src/store/migrations.js';
import { Store } from '../../../src/store/store.js';

const folder = mkdtempSync(join(tmpdir(), 'wikidelta-store-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const WINDOW = { start: '2025-01-06T00:00:00Z', end: '2025-01-13T00:00:00Z' };

describe('Store', () => {
  it('makes each repository once, one per wiki for the per-wiki ones', () => {
    const store = Store.open(':memory:');
    expect(store.runs).toBe(store.runs);
    expect(store.answers).toBe(store.answers);
    expect(store.changeLog).toBe(store.changeLog);
    expect(store.revisions('enwiki')).toBe(store.revisions('enwiki'));
    expect(store.revisions('enwiki')).not.toBe(store.revisions('dewiki'));
    expect(store.questions('enwiki').wiki).toBe('enwiki');
    expect(store.timelines('dewiki').wiki).toBe('dewiki');
    store.close();
  });

  it('prepares a statement once however often it runs', () => {
    const store = Store.open(':memory:');
    const prepare = vi.spyOn(store.db, 'prepare');
    const questions = store.questions('enwiki');
    for (let i = 0; i < 3; i++) {
      store.queries.keptWeeks();
      questions.passedIds(WINDOW);
      store.changeLog.changes(WINDOW);
      store.snapshots.snapshotNames();
      store.embeddings.count('use-lite');
    }
    expect(prepare.mock.calls.map(([sql]) => sql).filter((sql, k, all) => all.indexOf(sql) !== k)).toEqual([]);
    expect(prepare.mock.calls.length).toBeGreaterThan(0);
    prepare.mockRestore();
    store.close();
  });

  it('writes nothing of a transaction that throws, across repositories', () => {
    const store = Store.open(join(folder, 'transaction.sqlite'));
    expect(() =>
      store.transaction(() => {
        store.runs.openRun('weekly', { week: 1 }, ['collect'], undefined);
        store.entities.saveNames(new Map([['Q5', { label: 'human', aliases: [] }]]), 'test');
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(store.runs.listRuns()).toEqual([]);
    expect(store.entities.names(['Q5']).size).toBe(0);
    expect(store.transaction(() => store.runs.openRun('weekly', { week: 1 }, ['collect'], undefined).run.id)).toBe(store.runs.listRuns()[0]?.id);
    store.close();
  });

  it('opens a store for reading as a writer where it may write it', () => {
    const path = join(folder, 'read.sqlite');
    Store.open(path).close();
    const store = Store.openForReading(path);
    expect(store.db.readonly).toBe(false);
    expect(store.runs.listRuns()).toEqual([]);
    store.close();
  });

  it("names an older wikidelta's store it cannot upgrade, read-only, and the way to upgrade it", () => {
    const path = join(folder, 'older.sqlite');
    const older = Store.open(path);
    const latest = migrations.at(-1)?.version ?? 0;
    older.db.prepare('DELETE FROM schema_migrations WHERE version = ?').run(latest);
    older.close();
    expect(() => openDatabase(path, { readonly: true })).toThrow(
      `was written by an older wikidelta (schema ${latest - 1}; this one reads ${latest}) and cannot be upgraded where it cannot be written: run any wikidelta command on it once where it can be written (which upgrades it), or read an upgraded copy`,
    );
  });
});

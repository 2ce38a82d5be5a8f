import Sqlite from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { acquireLock } from '../../../src/runs/lock.js';
import { RecordingReporter } from '../../../src/runs/progress.js';
import { RunStore } from '../../../src/store/runStore.js';
import { runPipeline, type Stage } from '../../../src/runs/stageRunner.js';
import { applyMigrations, openDatabase, schemaVersion } from '../../../src/store/database.js';
import { migrations } from '../../../src/store/migrations.js';
import { Store } from '../../../src/store/store.js';
import { withCode } from '../../support/errorCodes.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'wikidelta-runs-'));

describe('database', () => {
  it('applies migrations once, forward only, and refuses a newer schema', () => {
    const path = join(tempDir(), 'w.sqlite');
    const db = openDatabase(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(schemaVersion(db)).toBe(migrations.at(-1)?.version);
    expect(applyMigrations(db, migrations)).toBe(0);
    db.prepare('INSERT INTO schema_migrations VALUES (999, ?, ?)').run('future', 'now');
    db.close();
    expect(() => openDatabase(path)).toThrow(withCode('E_STORE_TOO_NEW'));
  });

  it('names a file that is not a database', () => {
    const path = join(tempDir(), 'not.sqlite');
    writeFileSync(path, 'hello, this is text and not SQLite at all'.repeat(100));
    expect(() => openDatabase(path)).toThrow(withCode('E_STORE_INVALID'));
  });

  it("refuses another program's SQLite database and leaves it as it was", () => {
    const path = join(tempDir(), 'other.sqlite');
    const other = new Sqlite(path);
    other.exec('CREATE TABLE foo (x); INSERT INTO foo VALUES (1)');
    other.close();
    expect(() => openDatabase(path)).toThrow(withCode('E_STORE_INVALID', /another program's tables \(foo\)/));
    const after = new Sqlite(path, { readonly: true });
    expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual(['foo']);
    after.close();
  });
});

describe('lock', () => {
  it('refuses a second holder while the first is alive', () => {
    const path = join(tempDir(), 'w.sqlite');
    const lock = acquireLock(path, 'weekly --start 2025-01-06');
    expect(() => acquireLock(path, 'weekly again')).toThrow(withCode('E_STORE_LOCKED', /is locked by another run \(pid \d+ .*"weekly --start 2025-01-06"/));
    lock.release();
    expect(existsSync(`${path}.lock`)).toBe(false);
    acquireLock(path, 'second').release();
  });

  it("names the file standing where the store's directory must be", () => {
    const file = join(tempDir(), 'notes.txt');
    writeFileSync(file, 'x');
    expect(() => acquireLock(join(file, 'w.sqlite'), 'weekly')).toThrow(withCode('E_LOCK_UNWRITABLE', `cannot create lock ${file}/w.sqlite.lock: ${file} is not a directory`));
  });

  it('detects and replaces a stale lock left by a dead process', () => {
    const path = join(tempDir(), 'w.sqlite');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(dead.stdout.toString());
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: deadPid, host: hostname(), startedAt: '2025-01-01T00:00:00Z', command: 'weekly' }));
    const lock = acquireLock(path, 'weekly');
    expect(lock.replacedStale?.pid).toBe(deadPid);
    lock.release();
  });
});

describe('runPipeline', () => {
  const params = { window: { start: 'a', end: 'b' } };

  function countingStages(log: string[], failAt?: string): Array<Stage<null>> {
    return ['one', 'two', 'three'].map((name, index, names) => ({
      name,
      ...(index > 0 ? { after: [names[index - 1] as string] } : {}),
      async run() {
        log.push(name);
        if (name === failAt) throw new Error(`broken input in ${name}\nsecond line`);
        return { items: name.length };
      },
    }));
  }
  const all = ['one', 'two', 'three'];

  it('records a failure on the stage and the run, then reruns the failed stage and skips finished ones', async () => {
    const store = Store.open(join(tempDir(), 'w.sqlite'));
    const reporter = new RecordingReporter();
    const log: string[] = [];
    await expect(
      runPipeline({ store, pipeline: 'weekly', params, stages: countingStages(log, 'two'), selected: all, input: null, reporter }),
    ).rejects.toThrow('broken input in two');
    const failed = store.runs.listRuns()[0];
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toBe('two: broken input in two second line');
    // A plain Error is a bug: its code says so.
    expect(failed?.errorCode).toBe('E_INTERNAL');
    expect(failed?.stages.map((s) => s.status)).toEqual(['done', 'failed', 'pending']);

    const outcome = await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages(log), selected: all, input: null, reporter });
    expect(outcome.resumed).toBe(true);
    expect(outcome.skipped).toEqual(['one']);
    expect(log).toEqual(['one', 'two', 'two', 'three']);
    expect(outcome.run.status).toBe('done');
    expect(outcome.run.id).toBe(failed?.id);
  });

  it('keeps the finish time of a done run that a later call ran nothing of (monthly skipping its labels)', async () => {
    const store = Store.open(join(tempDir(), 'w.sqlite'));
    const reporter = new RecordingReporter();
    const first = await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages([]), selected: all, input: null, reporter });
    await new Promise((resolve) => setTimeout(resolve, 15));
    const again = await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages([]), selected: all, input: null, reporter });
    expect(again.skipped).toEqual(all);
    expect([again.run.status, again.run.finishedAt]).toEqual(['done', first.run.finishedAt]);
  });

  it('keeps every failure of a run, not only the newest', async () => {
    const store = Store.open(join(tempDir(), 'w.sqlite'));
    const reporter = new RecordingReporter();
    await expect(runPipeline({ store, pipeline: 'weekly', params, stages: countingStages([], 'two'), selected: all, input: null, reporter })).rejects.toThrow();
    await expect(runPipeline({ store, pipeline: 'weekly', params, stages: countingStages([], 'three'), selected: all, input: null, reporter })).rejects.toThrow();
    const run = store.runs.listRuns()[0];
    expect(run?.failures.map((failure) => [failure.stage, failure.error])).toEqual([
      ['two', 'broken input in two second line'],
      ['three', 'broken input in three second line'],
    ]);
  });

  it("records each failure with its error's code: a UserError's own, the store's condition, E_INTERNAL for a bug", async () => {
    const path = join(tempDir(), 'w.sqlite');
    const store = Store.open(path);
    const reporter = new RecordingReporter();
    const failing = (error: Error): Array<Stage<null>> => [{ name: 'one', run: () => Promise.reject(error) }];
    const attempt = (error: Error) => runPipeline({ store, pipeline: 'weekly', params, stages: failing(error), selected: ['one'], input: null, reporter });
    await expect(attempt(new InputError('E_DUMP_TRUNCATED', 'dump is truncated inside page "A"'))).rejects.toThrow(withCode('E_DUMP_TRUNCATED'));
    const failed = store.runs.listRuns()[0];
    expect([failed?.errorCode, failed?.error]).toEqual(['E_DUMP_TRUNCATED', 'one: dump is truncated inside page "A"']);
    expect(failed?.stages.map((stage) => [stage.status, stage.errorCode, stage.error])).toEqual([['failed', 'E_DUMP_TRUNCATED', 'dump is truncated inside page "A"']]);
    // The progress line a log collector reads says the code too.
    expect(reporter.lines.at(-1)).toMatchObject({ message: 'stage failed', stage: 'one', errorCode: 'E_DUMP_TRUNCATED', error: 'dump is truncated inside page "A"' });

    await expect(attempt(new TypeError('undefined is not a function'))).rejects.toThrow(TypeError);
    await expect(attempt(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).rejects.toThrow('full');
    const run = store.runs.listRuns()[0];
    expect(run?.failures.map((failure) => [failure.stage, failure.errorCode, failure.error])).toEqual([
      ['one', 'E_DUMP_TRUNCATED', 'dump is truncated inside page "A"'],
      ['one', 'E_INTERNAL', 'undefined is not a function'],
      // Recorded as the command's line says it, naming the store.
      ['one', 'E_STORE_DISK_FULL', `database ${path}: the disk is full: free space on it and run the command again (a run continues where it stopped)`],
    ]);
    expect(run?.errorCode).toBe('E_STORE_DISK_FULL');

    // Run again to success: the stage and the run no longer carry an error or its code; the failures stay.
    const done = await runPipeline({ store, pipeline: 'weekly', params, stages: [{ name: 'one', run: async () => ({}) }], selected: ['one'], input: null, reporter });
    expect([done.run.status, done.run.error, done.run.errorCode]).toEqual(['done', null, null]);
    expect(done.run.stages.map((stage) => [stage.error, stage.errorCode])).toEqual([[null, null]]);
    expect(done.run.failures).toHaveLength(3);
  });

  it('records an interrupted run, its running stage and its failure as E_RUN_INTERRUPTED', async () => {
    const db = openDatabase(join(tempDir(), 'w.sqlite'));
    const runs = new RunStore(db);
    const { run } = runs.openRun('weekly', params, ['one', 'two']);
    runs.startStage(run.id, 'one');
    expect(runs.markInterrupted('interrupted by SIGTERM', 'mine')).toBe(1);
    const interrupted = runs.getRun(run.id);
    expect([interrupted?.status, interrupted?.errorCode, interrupted?.error]).toEqual(['failed', 'E_RUN_INTERRUPTED', 'interrupted by SIGTERM']);
    expect(interrupted?.stages.map((stage) => [stage.status, stage.errorCode])).toEqual([['failed', 'E_RUN_INTERRUPTED'], ['pending', null]]);
    expect(interrupted?.failures.map((failure) => [failure.stage, failure.errorCode])).toEqual([[null, 'E_RUN_INTERRUPTED']]);
  });

  it('gives failures recorded before codes were kept the code of an interruption where their text says so, and none otherwise', () => {
    const db = new Sqlite(':memory:');
    applyMigrations(db, migrations.filter((migration) => migration.version < 24));
    db.exec(`
      INSERT INTO runs (id, pipeline, params_key, params, status, error, pid, started_at) VALUES
        (1, 'weekly', 'a', '{}', 'failed', 'collect: dump is truncated', 1, 't'),
        (2, 'weekly', 'b', '{}', 'failed', 'interrupted by SIGINT', 1, 't'),
        (3, 'weekly', 'c', '{}', 'failed', 'interrupted: process 12 died without finishing', 1, 't');
      INSERT INTO run_stages (run_id, stage, position, status, error) VALUES (1, 'collect', 0, 'failed', 'dump is truncated'), (2, 'collect', 0, 'failed', 'interrupted by SIGINT');
      INSERT INTO run_failures (run_id, stage, error, failed_at) VALUES (1, 'collect', 'dump is truncated', 't'), (2, NULL, 'interrupted by SIGINT', 't'), (3, NULL, 'interrupted: process 12 died without finishing', 't');
    `);
    applyMigrations(db, migrations);
    const runs = new RunStore(db);
    const codes = [1, 2, 3].map((id) => runs.getRun(id)).map((run) => [run?.errorCode, run?.stages.map((stage) => stage.errorCode), run?.failures.map((failure) => failure.errorCode)]);
    expect(codes).toEqual([
      [null, [null], [null]],
      ['E_RUN_INTERRUPTED', ['E_RUN_INTERRUPTED'], ['E_RUN_INTERRUPTED']],
      ['E_RUN_INTERRUPTED', [], ['E_RUN_INTERRUPTED']],
    ]);
  });

  it('keeps a run partial until all its stages ran, and starts a new run for other parameters', async () => {
    const store = Store.open(join(tempDir(), 'w.sqlite'));
    const reporter = new RecordingReporter();
    const first = await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages([]), selected: ['one'], input: null, reporter });
    expect(first.run.status).toBe('partial');
    const other = await runPipeline({ store, pipeline: 'weekly', params: { window: { start: 'c', end: 'd' } }, stages: countingStages([]), selected: ['one'], input: null, reporter });
    expect(other.run.id).not.toBe(first.run.id);
  });

  it('refuses, before running anything, a stage whose prerequisite is neither done nor chosen, naming it', async () => {
    const store = Store.open(join(tempDir(), 'w.sqlite'));
    const log: string[] = [];
    const attempt = runPipeline({ store, pipeline: 'weekly', params, stages: countingStages(log), selected: ['two', 'three'], input: null, reporter: new RecordingReporter() });
    await expect(attempt).rejects.toThrow(withCode('E_PREREQUISITE_MISSING'));
    expect(log).toEqual([]);
    expect(store.runs.listRuns()).toEqual([]);
  });

  it('says so when the store has no run of these parameters at all, rather than naming only the stage before', async () => {
    const store = Store.open(join(tempDir(), 'w.sqlite'));
    const attempt = runPipeline({ store, pipeline: 'weekly', params, stages: countingStages([]), selected: ['three'], input: null, reporter: new RecordingReporter() });
    await expect(attempt).rejects.toThrow('stage "three" needs stage "two" done first: add two to --stages; the store holds no weekly run of these parameters yet: run it with its first stages');
    const second = runPipeline({ store, pipeline: 'weekly', params, stages: countingStages([]), selected: ['two'], input: null, reporter: new RecordingReporter() });
    await expect(second).rejects.toThrow(/^stage "two" needs stage "one" done first: add one to --stages$/);
    await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages([]), selected: ['one'], input: null, reporter: new RecordingReporter() });
    const later = runPipeline({ store, pipeline: 'weekly', params, stages: countingStages([]), selected: ['three'], input: null, reporter: new RecordingReporter() });
    await expect(later).rejects.toThrow(/^stage "three" needs stage "two" done first: add two to --stages$/);
  });

  it('runs a stage whose prerequisite is chosen in the same invocation, or done earlier', async () => {
    const store = Store.open(join(tempDir(), 'w.sqlite'));
    const log: string[] = [];
    const reporter = new RecordingReporter();
    await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages(log), selected: ['one', 'two'], input: null, reporter });
    const rest = await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages(log), selected: ['three'], input: null, reporter });
    expect(log).toEqual(['one', 'two', 'three']);
    expect(rest.run.status).toBe('done');
  });

  it('redoes a stage asked for with redo, and then every done stage that reads what it made', async () => {
    const store = Store.open(join(tempDir(), 'w.sqlite'));
    const log: string[] = [];
    const reporter = new RecordingReporter();
    await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages(log), selected: all, input: null, reporter });
    const redone = await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages(log), selected: all, redo: ['two'], input: null, reporter });
    expect(log).toEqual(['one', 'two', 'three', 'two', 'three']);
    expect(redone.skipped).toEqual(['one']);
    expect(redone.executed).toEqual(['two', 'three']);
  });

  it('redoes, on a later invocation, a done stage whose input was made again after it ran', async () => {
    const store = Store.open(join(tempDir(), 'w.sqlite'));
    const log: string[] = [];
    const reporter = new RecordingReporter();
    await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages(log), selected: all, input: null, reporter });
    await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages(log), selected: ['one'], redo: ['one'], input: null, reporter });
    const later = await runPipeline({ store, pipeline: 'weekly', params, stages: countingStages(log), selected: all, input: null, reporter });
    expect(log).toEqual(['one', 'two', 'three', 'one', 'two', 'three']);
    expect(later.skipped).toEqual(['one']);
  });

  it('refuses to redo a stage that is not chosen', async () => {
    const store = Store.open(join(tempDir(), 'w.sqlite'));
    const attempt = runPipeline({ store, pipeline: 'weekly', params, stages: countingStages([]), selected: ['one'], redo: ['two'], input: null, reporter: new RecordingReporter() });
    await expect(attempt).rejects.toThrow(withCode('E_FLAGS_CONFLICT'));
  });
});

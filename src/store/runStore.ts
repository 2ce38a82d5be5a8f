import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type { Window } from '../model.js';
import { Numbers, jsonColumn } from './rows.js';

export type StageStatus = z.infer<typeof StageStatusColumn>;
export type RunStatus = z.infer<typeof RunStatusColumn>;
export type Counts = Record<string, number>;

export interface StageRecord {
  stage: string;
  position: number;
  status: StageStatus;
  /** The order in which this run's stages last completed (1, 2, ...); null while never done. */
  doneOrder: number | null;
  counts: Counts;
  startedAt: string | null;
  finishedAt: string | null;
  seconds: number;
  error: string | null;
  /** The stable code of `error` (src/errors.ts); null when there is no error, or it was recorded before codes were kept. */
  errorCode: string | null;
}

/** The pipelines whose runs the store records, each run under one of these names. */
export const PIPELINE_NAMES = ['weekly', 'sync', 'monthly-snapshot', 'monthly-label', 'monthly'] as const;
export type PipelineName = (typeof PIPELINE_NAMES)[number];

export interface RunRecord {
  id: number;
  pipeline: string;
  params: Record<string, unknown>;
  status: RunStatus;
  error: string | null;
  /** The stable code of `error`; null as a stage's. */
  errorCode: string | null;
  pid: number | null;
  startedAt: string;
  finishedAt: string | null;
  stages: StageRecord[];
  /** Every failure of the run, oldest first (`error` holds only the newest). */
  failures: RunFailure[];
}

export interface RunFailure {
  /** null: the run as a whole (e.g. its process died). */
  stage: string | null;
  error: string;
  /** A UserError's code, `E_INTERNAL` for a bug, `E_RUN_INTERRUPTED` for a process stopped or gone; null when recorded before codes were kept. */
  errorCode: string | null;
  failedAt: string;
}

/** A failure as a stage or run records it: its stable code and its one line. */
export interface RecordedError {
  code: ErrorCode;
  message: string;
}

/** The code of the failures `markInterrupted` records. */
const INTERRUPTED: ErrorCode = 'E_RUN_INTERRUPTED';

const RunStatusColumn = z.enum(['running', 'done', 'partial', 'failed']);
const StageStatusColumn = z.enum(['pending', 'running', 'done', 'failed']);

const RunRow = z.object({
  id: z.number().int(),
  pipeline: z.string(),
  params: jsonColumn(z.record(z.string(), z.unknown())),
  status: RunStatusColumn,
  error: z.string().nullable(),
  error_code: z.string().nullable(),
  pid: z.number().int().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});

const StageRow = z.object({
  stage: z.string(),
  position: z.number().int(),
  status: StageStatusColumn,
  done_order: z.number().int().nullable(),
  counts: jsonColumn(z.record(z.string(), z.number())),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  seconds: z.number(),
  error: z.string().nullable(),
  error_code: z.string().nullable(),
});

const FailureRow = z.object({ stage: z.string().nullable(), error: z.string(), errorCode: z.string().nullable(), failedAt: z.string() });
const RunId = z.object({ id: z.number().int() });
const RunParamsRow = z.object({ id: z.number().int(), pipeline: z.string(), params: z.string().transform((text): unknown => JSON.parse(text)) });
const StageTouchRow = RunParamsRow.extend({ touchedAt: z.string() });

/** Run and stage records: what ran, with which parameters, how far each stage got, and why it failed. */
export class RunStore {
  private readonly selectRunByParams;
  private readonly insertRun;
  private readonly reopenRun;
  private readonly updateParams;
  private readonly insertStage;
  private readonly updateStageStart;
  private readonly updateCounts;
  private readonly updateStageFinish;
  private readonly updateRunFinish;
  private readonly insertFailure;
  private readonly interrupted: Record<'mine' | 'others', { runIds: Statement; stages: Statement; runs: Statement }>;
  private readonly selectRun;
  private readonly selectRuns;
  private readonly selectNewest;
  private readonly selectNewestOf;
  private readonly selectStages;
  private readonly selectStageTouches;
  private readonly selectWindowWikis;
  private readonly selectFailures;

  constructor(private readonly db: Database, private readonly now: () => Date = () => new Date()) {
    this.selectRunByParams = db.prepare('SELECT id FROM runs WHERE pipeline = ? AND params_key = ? ORDER BY id DESC LIMIT 1');
    this.insertRun = db.prepare("INSERT INTO runs (pipeline, params_key, params, status, pid, started_at) VALUES (?, ?, ?, 'running', ?, ?)");
    this.reopenRun = db.prepare("UPDATE runs SET status = 'running', error = NULL, error_code = NULL, pid = ?, finished_at = NULL WHERE id = ?");
    this.updateParams = db.prepare('UPDATE runs SET params_key = ?, params = ? WHERE id = ?');
    this.insertStage = db.prepare("INSERT OR IGNORE INTO run_stages (run_id, stage, position, status) VALUES (?, ?, ?, 'pending')");
    this.updateStageStart = db.prepare(
      "UPDATE run_stages SET status = 'running', error = NULL, error_code = NULL, started_at = COALESCE(started_at, ?) WHERE run_id = ? AND stage = ?",
    );
    this.updateCounts = db.prepare('UPDATE run_stages SET counts = ? WHERE run_id = ? AND stage = ?');
    this.updateStageFinish = db.prepare(
      `UPDATE run_stages SET status = @status, seconds = seconds + @seconds, finished_at = @time, error = @error, error_code = @errorCode, counts = COALESCE(@counts, counts),
         done_order = CASE WHEN @status = 'done'
           THEN (SELECT COALESCE(MAX(done_order), 0) + 1 FROM run_stages WHERE run_id = @runId) ELSE done_order END
       WHERE run_id = @runId AND stage = @stage`,
    );
    this.updateRunFinish = db.prepare('UPDATE runs SET status = ?, error = ?, error_code = ?, finished_at = ? WHERE id = ?');
    this.insertFailure = db.prepare('INSERT INTO run_failures (run_id, stage, error, error_code, failed_at) VALUES (?, ?, ?, ?, ?)');
    const interrupted = (condition: string) => ({
      runIds: db.prepare(`SELECT id FROM runs WHERE status = 'running' AND ${condition}`).pluck(),
      stages: db.prepare(
        `UPDATE run_stages SET status = 'failed', error = ?, error_code = '${INTERRUPTED}' WHERE status = 'running' AND run_id IN (SELECT id FROM runs WHERE status = 'running' AND ${condition})`,
      ),
      runs: db.prepare(`UPDATE runs SET status = 'failed', error = ?, error_code = '${INTERRUPTED}', finished_at = ? WHERE status = 'running' AND ${condition}`),
    });
    this.interrupted = { mine: interrupted('pid = ?'), others: interrupted('pid IS NOT ?') };
    this.selectRun = db.prepare('SELECT * FROM runs WHERE id = ?');
    this.selectRuns = db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ?');
    this.selectNewest = db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT 1');
    this.selectNewestOf = db.prepare('SELECT * FROM runs WHERE pipeline = ? ORDER BY id DESC LIMIT 1');
    this.selectStages = db.prepare('SELECT * FROM run_stages WHERE run_id = ? ORDER BY position');
    this.selectStageTouches = db.prepare(
      `SELECT runs.id, runs.pipeline, runs.params, MAX(COALESCE(run_stages.started_at, ''), COALESCE(run_stages.finished_at, '')) AS touchedAt
       FROM runs LEFT JOIN run_stages ON run_stages.run_id = runs.id AND run_stages.stage = @stage
       WHERE runs.pipeline = @pipeline ORDER BY runs.id`,
    );
    this.selectWindowWikis = db
      .prepare(
        `SELECT DISTINCT json_extract(params, '$.wiki') FROM runs
         WHERE pipeline = @pipeline AND json_extract(params, '$.window.start') = @start AND json_extract(params, '$.window.end') = @end
           AND json_extract(params, '$.wiki') IS NOT NULL
         ORDER BY 1`,
      )
      .pluck();
    this.selectFailures = db.prepare('SELECT stage, error, error_code AS errorCode, failed_at AS failedAt FROM run_failures WHERE run_id = ? ORDER BY id');
  }

  /** The latest run of a pipeline with these parameters, if any: the one `openRun` continues. */
  findRun(pipeline: string, params: Record<string, unknown>): RunRecord | undefined {
    const existing = this.selectRunByParams.get(pipeline, canonicalJson(params));
    return existing === undefined ? undefined : this.getRun(RunId.parse(existing).id);
  }

  /**
   * The run to continue for these parameters: the latest one with the same pipeline and parameters
   * (whatever its state, so a finished run's stages are skipped), or a new one. `existing`: that
   * latest run when the caller has already found it.
   */
  openRun(
    pipeline: string,
    params: Record<string, unknown>,
    stages: readonly string[],
    existing: RunRecord | undefined = this.findRun(pipeline, params),
  ): { run: RunRecord; resumed: boolean } {
    const paramsKey = canonicalJson(params);
    const time = this.now().toISOString();
    const id = this.db.transaction(() => {
      let runId = existing?.id;
      if (runId === undefined) {
        runId = Number(this.insertRun.run(pipeline, paramsKey, JSON.stringify(params), process.pid, time).lastInsertRowid);
      } else {
        this.reopenRun.run(process.pid, runId);
      }
      stages.forEach((stage, position) => this.insertStage.run(runId, stage, position));
      return runId;
    })();
    return { run: this.getRun(id) as RunRecord, resumed: existing !== undefined };
  }

  /**
   * Names the wiki of a run begun before its source said which it is (a dump on standard input):
   * from now on the run is found by its parameters with this wiki, the latest such run being the one
   * continued (docs/ARCHITECTURE.md §3).
   */
  nameWiki(runId: number, wiki: string): void {
    this.addParams(runId, { wiki });
  }

  /**
   * Adds to a run's parameters what it learned as it ran (a sync's source that ends before its date:
   * `sourceEnd`, docs/ARCHITECTURE.md §5). The run is found by them from then on, so a command that
   * does not know them yet begins a run of its own rather than continue this one without them.
   */
  addParams(runId: number, added: Record<string, unknown>): void {
    const run = this.getRun(runId);
    if (run === undefined) throw new Error(`run ${runId} is not in the store`);
    const params = { ...run.params, ...added };
    this.updateParams.run(canonicalJson(params), JSON.stringify(params), runId);
  }

  /** Marks a stage running, with its start time. */
  startStage(runId: number, stage: string): void {
    this.updateStageStart.run(this.now().toISOString(), runId, stage);
  }

  /** Records a stage's counts so far, so status shows how far a long stage got. */
  saveCounts(runId: number, stage: string, counts: Counts): void {
    this.updateCounts.run(JSON.stringify(counts), runId, stage);
  }

  /** A done stage takes the next completion order of its run; a failed one is also kept, with its error's code, among the run's failures. */
  finishStage(runId: number, stage: string, outcome: { status: 'done' | 'failed'; seconds: number; counts?: Counts; error?: RecordedError }): void {
    const time = this.now().toISOString();
    this.db.transaction(() => {
      this.updateStageFinish.run({
          status: outcome.status,
          seconds: outcome.seconds,
          time,
          error: outcome.error?.message ?? null,
          errorCode: outcome.error?.code ?? null,
          counts: outcome.counts ? JSON.stringify(outcome.counts) : null,
          runId,
          stage,
        });
      if (outcome.status === 'failed') this.recordFailure(runId, stage, outcome.error ?? { code: 'E_INTERNAL', message: 'failed' }, time);
    })();
  }

  /** Records a run's end: its status, its error (with its code) if any, and the time (now, or the one given: a run left as it was keeps its own). */
  finishRun(runId: number, outcome: { status: Exclude<RunStatus, 'running'>; error?: RecordedError; finishedAt?: string }): void {
    this.updateRunFinish.run(outcome.status, outcome.error?.message ?? null, outcome.error?.code ?? null, outcome.finishedAt ?? this.now().toISOString(), runId);
  }

  private recordFailure(runId: number, stage: string | null, error: RecordedError, time: string): void {
    this.insertFailure.run(runId, stage, error.message, error.code, time);
  }

  /**
   * Marks runs still 'running' as failed with a reason: those of other (dead) processes after a stale
   * lock, or this process's own when it is stopped by a signal, so status tells the truth. Their
   * code is `E_RUN_INTERRUPTED`.
   */
  markInterrupted(reason: string, whose: 'others' | 'mine'): number {
    const statements = this.interrupted[whose];
    const time = this.now().toISOString();
    return this.db.transaction(() => {
      const runIds = Numbers.parse(statements.runIds.all(process.pid));
      for (const runId of runIds) this.recordFailure(runId, null, { code: INTERRUPTED, message: reason }, time);
      statements.stages.run(reason, process.pid);
      return statements.runs.run(reason, time, process.pid).changes;
    })();
  }

  /** A run with its stages, or undefined. */
  getRun(id: number): RunRecord | undefined {
    return this.toRecord(this.selectRun.get(id));
  }

  /**
   * The most recent runs, newest first.
   *
   * @param limit how many (20).
   */
  listRuns(limit = 20): RunRecord[] {
    return this.selectRuns.all(limit).map((raw) => this.toRecord(raw) as RunRecord);
  }

  /** Every run of these pipelines with its parameters, oldest first: what a release's data may have come from. */
  runsOf(pipelines: readonly string[]): Array<{ id: number; pipeline: string; params: unknown }> {
    const rows = this.db
      .prepare(`SELECT id, pipeline, params FROM runs WHERE pipeline IN (${pipelines.map(() => '?').join(', ')}) ORDER BY id`)
      .all(...pipelines);
    return rows.map((row) => RunParamsRow.parse(row));
  }

  /** Every run of a pipeline with when it last worked on the stage (`''` when it never did), in id order. */
  stageTouches(pipeline: string, stage: string): Array<{ id: number; params: unknown; touchedAt: string }> {
    return this.selectStageTouches.all({ pipeline, stage }).map((row) => StageTouchRow.parse(row));
  }

  /** The wikis a pipeline ran on for exactly this window, in name order (a run stopped before its source named its wiki has none). */
  wikisRunFor(pipeline: string, window: Window): string[] {
    return z.array(z.string()).parse(this.selectWindowWikis.all({ pipeline, ...window }));
  }

  /** The newest run, of one pipeline when named (for `status --check`). */
  newestRun(pipeline?: string): RunRecord | undefined {
    return this.toRecord(pipeline === undefined ? this.selectNewest.get() : this.selectNewestOf.get(pipeline));
  }

  /** A run row (undefined when there is none) with its stages and failures, each row parsed. */
  private toRecord(raw: unknown): RunRecord | undefined {
    if (raw === undefined) return undefined;
    const row = RunRow.parse(raw);
    const stages = this.selectStages.all(row.id).map((stage) => StageRow.parse(stage));
    const failures: RunFailure[] = this.selectFailures.all(row.id).map((failure) => FailureRow.parse(failure));
    return {
      id: row.id,
      pipeline: row.pipeline,
      params: row.params,
      status: row.status,
      error: row.error,
      errorCode: row.error_code,
      pid: row.pid,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      stages: stages.map((stage) => ({
        stage: stage.stage,
        position: stage.position,
        status: stage.status,
        doneOrder: stage.done_order,
        counts: stage.counts,
        startedAt: stage.started_at,
        finishedAt: stage.finished_at,
        seconds: stage.seconds,
        error: stage.error,
        errorCode: stage.error_code,
      })),
      failures,
    };
  }
}

/** JSON with sorted keys, so equal parameters give equal keys whatever their order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

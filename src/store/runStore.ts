import type { Database } from 'better-sqlite3';
import { z } from 'zod';

export type StageStatus = 'pending' | 'running' | 'done' | 'failed';
export type RunStatus = 'running' | 'done' | 'partial' | 'failed';
export type Counts = Record<string, number>;

export interface StageRecord {
  stage: string;
  position: number;
  status: StageStatus;
  cursor: string | null;
  counts: Counts;
  startedAt: string | null;
  finishedAt: string | null;
  seconds: number;
  error: string | null;
}

export interface RunRecord {
  id: number;
  pipeline: string;
  params: Record<string, unknown>;
  status: RunStatus;
  error: string | null;
  pid: number | null;
  startedAt: string;
  finishedAt: string | null;
  stages: StageRecord[];
}

const CountsJson = z.record(z.string(), z.number());
const ParamsJson = z.record(z.string(), z.unknown());

/** Run and stage records: what ran, with which parameters, how far each stage got, and why it failed. */
export class RunStore {
  constructor(private readonly db: Database, private readonly now: () => Date = () => new Date()) {}

  /**
   * The run to continue for these parameters: the latest one with the same pipeline and parameters
   * (whatever its state, so a finished run's stages are skipped), or a new one.
   */
  openRun(pipeline: string, params: Record<string, unknown>, stages: readonly string[]): { run: RunRecord; resumed: boolean } {
    const paramsKey = canonicalJson(params);
    const existing = this.db
      .prepare('SELECT id FROM runs WHERE pipeline = ? AND params_key = ? ORDER BY id DESC LIMIT 1')
      .get(pipeline, paramsKey) as { id: number } | undefined;
    const time = this.now().toISOString();
    const id = this.db.transaction(() => {
      let runId = existing?.id;
      if (runId === undefined) {
        runId = Number(
          this.db
            .prepare("INSERT INTO runs (pipeline, params_key, params, status, pid, started_at) VALUES (?, ?, ?, 'running', ?, ?)")
            .run(pipeline, paramsKey, JSON.stringify(params), process.pid, time).lastInsertRowid,
        );
      } else {
        this.db.prepare("UPDATE runs SET status = 'running', error = NULL, pid = ?, finished_at = NULL WHERE id = ?").run(process.pid, runId);
      }
      const insertStage = this.db.prepare(
        "INSERT OR IGNORE INTO run_stages (run_id, stage, position, status) VALUES (?, ?, ?, 'pending')",
      );
      stages.forEach((stage, position) => insertStage.run(runId, stage, position));
      return runId;
    })();
    return { run: this.getRun(id) as RunRecord, resumed: existing !== undefined };
  }

  startStage(runId: number, stage: string): void {
    this.db
      .prepare("UPDATE run_stages SET status = 'running', error = NULL, started_at = COALESCE(started_at, ?) WHERE run_id = ? AND stage = ?")
      .run(this.now().toISOString(), runId, stage);
  }

  /** Records progress inside a stage; called in the same transaction as the data it describes where possible. */
  updateStage(runId: number, stage: string, update: { cursor?: string | null; counts?: Counts }): void {
    if (update.cursor !== undefined) {
      this.db.prepare('UPDATE run_stages SET cursor = ? WHERE run_id = ? AND stage = ?').run(update.cursor, runId, stage);
    }
    if (update.counts) {
      this.db.prepare('UPDATE run_stages SET counts = ? WHERE run_id = ? AND stage = ?').run(JSON.stringify(update.counts), runId, stage);
    }
  }

  finishStage(runId: number, stage: string, outcome: { status: 'done' | 'failed'; seconds: number; counts?: Counts; error?: string }): void {
    this.db
      .prepare(
        `UPDATE run_stages SET status = ?, seconds = seconds + ?, finished_at = ?, error = ?, counts = COALESCE(?, counts)
         WHERE run_id = ? AND stage = ?`,
      )
      .run(
        outcome.status,
        outcome.seconds,
        this.now().toISOString(),
        outcome.error ?? null,
        outcome.counts ? JSON.stringify(outcome.counts) : null,
        runId,
        stage,
      );
  }

  finishRun(runId: number, outcome: { status: Exclude<RunStatus, 'running'>; error?: string }): void {
    this.db
      .prepare('UPDATE runs SET status = ?, error = ?, finished_at = ? WHERE id = ?')
      .run(outcome.status, outcome.error ?? null, this.now().toISOString(), runId);
  }

  /**
   * Marks runs still 'running' as failed with a reason: those of other (dead) processes after a stale
   * lock, or this process's own when it is stopped by a signal, so status tells the truth.
   */
  markInterrupted(reason: string, whose: 'others' | 'mine'): number {
    const condition = whose === 'mine' ? 'pid = ?' : 'pid IS NOT ?';
    const time = this.now().toISOString();
    return this.db.transaction(() => {
      this.db
        .prepare(`UPDATE run_stages SET status = 'failed', error = ? WHERE status = 'running' AND run_id IN (SELECT id FROM runs WHERE status = 'running' AND ${condition})`)
        .run(reason, process.pid);
      return this.db
        .prepare(`UPDATE runs SET status = 'failed', error = ?, finished_at = ? WHERE status = 'running' AND ${condition}`)
        .run(reason, time, process.pid).changes;
    })();
  }

  getRun(id: number): RunRecord | undefined {
    const row = this.db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
    return row ? this.toRecord(row) : undefined;
  }

  listRuns(limit = 20): RunRecord[] {
    const rows = this.db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ?').all(limit) as RunRow[];
    return rows.map((row) => this.toRecord(row));
  }

  private toRecord(row: RunRow): RunRecord {
    const stages = this.db.prepare('SELECT * FROM run_stages WHERE run_id = ? ORDER BY position').all(row.id) as StageRow[];
    return {
      id: row.id,
      pipeline: row.pipeline,
      params: ParamsJson.parse(JSON.parse(row.params)),
      status: row.status,
      error: row.error,
      pid: row.pid,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      stages: stages.map((stage) => ({
        stage: stage.stage,
        position: stage.position,
        status: stage.status,
        cursor: stage.cursor,
        counts: CountsJson.parse(JSON.parse(stage.counts)),
        startedAt: stage.started_at,
        finishedAt: stage.finished_at,
        seconds: stage.seconds,
        error: stage.error,
      })),
    };
  }
}

interface RunRow {
  id: number;
  pipeline: string;
  params: string;
  status: RunStatus;
  error: string | null;
  pid: number | null;
  started_at: string;
  finished_at: string | null;
}

interface StageRow {
  stage: string;
  position: number;
  status: StageStatus;
  cursor: string | null;
  counts: string;
  started_at: string | null;
  finished_at: string | null;
  seconds: number;
  error: string | null;
}

/** JSON with sorted keys, so equal parameters give equal keys whatever their order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

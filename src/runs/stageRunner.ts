import type { Database } from 'better-sqlite3';
import { oneLine } from '../errors.js';
import type { Reporter } from './progress.js';
import { RunStore, type Counts, type RunRecord } from '../store/runStore.js';

/** What a stage gets while it runs: the store, a way to record its cursor and counts, and the reporter. */
export interface StageContext {
  db: Database;
  runId: number;
  reporter: Reporter;
  /** The cursor the stage saved in an earlier, interrupted attempt (null on a first attempt). */
  cursor: string | null;
  saveProgress(update: { cursor?: string | null; counts?: Counts }): void;
}

export interface Stage<Input> {
  readonly name: string;
  /** Runs again even when done: its result depends on data that keeps arriving (e.g. later syncs). */
  readonly repeatable?: boolean;
  run(input: Input, context: StageContext): Promise<Counts>;
}

export interface PipelineOutcome {
  run: RunRecord;
  resumed: boolean;
  executed: string[];
  skipped: string[];
}

/**
 * Runs the chosen stages of a pipeline in order under one run record. A stage already done in this
 * run is skipped; a failed or interrupted one runs again from its saved cursor (stages write through
 * natural keys, so replaying part of one duplicates nothing). The first failure stops the run and is
 * recorded on the stage and the run before it propagates.
 */
export async function runPipeline<Input>(options: {
  db: Database;
  pipeline: string;
  params: Record<string, unknown>;
  stages: ReadonlyArray<Stage<Input>>;
  selected: readonly string[];
  input: Input;
  reporter: Reporter;
}): Promise<PipelineOutcome> {
  const { db, reporter } = options;
  const runs = new RunStore(db);
  const allNames = options.stages.map((stage) => stage.name);
  const { run, resumed } = runs.openRun(options.pipeline, options.params, allNames);
  if (resumed) reporter.event('continuing run', { run: run.id });
  const executed: string[] = [];
  const skipped: string[] = [];
  for (const stage of options.stages) {
    if (!options.selected.includes(stage.name)) continue;
    const record = run.stages.find((s) => s.stage === stage.name);
    if (record?.status === 'done' && !stage.repeatable) {
      skipped.push(stage.name);
      reporter.stageFinished(stage.name, { status: 'skipped', counts: record.counts, seconds: 0 });
      continue;
    }
    runs.startStage(run.id, stage.name);
    reporter.stageStarted(stage.name);
    const started = performance.now();
    const context: StageContext = {
      db,
      runId: run.id,
      reporter,
      cursor: record?.cursor ?? null,
      saveProgress: (update) => runs.updateStage(run.id, stage.name, update),
    };
    try {
      const counts = await stage.run(options.input, context);
      const seconds = (performance.now() - started) / 1000;
      runs.finishStage(run.id, stage.name, { status: 'done', seconds, counts });
      reporter.stageFinished(stage.name, { status: 'done', counts, seconds });
      executed.push(stage.name);
    } catch (error) {
      const message = oneLine(error);
      const seconds = (performance.now() - started) / 1000;
      runs.finishStage(run.id, stage.name, { status: 'failed', seconds, error: message });
      runs.finishRun(run.id, { status: 'failed', error: `${stage.name}: ${message}` });
      reporter.stageFinished(stage.name, { status: 'failed', counts: {}, seconds, error: message });
      throw error;
    }
  }
  const latest = runs.getRun(run.id) as RunRecord;
  // A run asked for only some of its stages is 'partial' until a later invocation finishes the rest.
  runs.finishRun(run.id, { status: latest.stages.every((stage) => stage.status === 'done') ? 'done' : 'partial' });
  return { run: runs.getRun(run.id) as RunRecord, resumed, executed, skipped };
}

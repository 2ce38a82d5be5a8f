import type { Store } from '../store/store.js';
import { codeOf, oneLine, UserError } from '../errors.js';
import { storeProblem } from '../store/database.js';
import type { Reporter } from './progress.js';
import type { Counts, PipelineName, RecordedError, RunRecord, StageRecord } from '../store/runStore.js';

/** What a stage gets while it runs: the store, a way to record its counts so far, and the reporter. */
export interface StageContext {
  /** The session's Store: stages read and write through its repositories. */
  store: Store;
  runId: number;
  reporter: Reporter;
  saveProgress(update: { counts: Counts }): void;
  /**
   * The stage was named in `--redo`: it does all its work again, not only what it has no result for
   * (a resumed or re-triggered stage goes on from what is stored).
   */
  redone: boolean;
}

export interface Stage<Input> {
  readonly name: string;
  /**
   * The stages whose output this one reads. A stage runs only once they are done (in this run, or
   * earlier in this invocation), and runs again when one of them completed after it did. A name the
   * pipeline does not hold is ignored: that pipeline provides the input otherwise (sync has no select).
   */
  readonly after?: readonly string[];
  /**
   * Stages whose output this one reads when there is some, without needing it (the entity names
   * `labels` finds, which a week of infoboxes alone never needs): not required before it runs, but
   * one of them completing after it did makes it run again, as `after` does.
   */
  readonly reads?: readonly string[];
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
 * run is skipped unless asked to be redone or its inputs were made again after it ran (see
 * `Stage.after`); a failed or interrupted one runs again from the start (stages write through natural
 * keys and skip what is stored, so replaying part of one duplicates nothing). A chosen stage whose
 * inputs are neither done nor chosen is refused before anything runs. The first failure stops the
 * run and is recorded, with its code, on the stage and the run before it propagates. docs/ARCHITECTURE.md §9
 */
export async function runPipeline<Input>(options: {
  store: Store;
  pipeline: PipelineName;
  params: Record<string, unknown>;
  stages: ReadonlyArray<Stage<Input>>;
  selected: readonly string[];
  /** Stages to run again even though done (each must be among `selected`). */
  redo?: readonly string[];
  input: Input;
  reporter: Reporter;
}): Promise<PipelineOutcome> {
  const { store, reporter } = options;
  const redo = options.redo ?? [];
  const runs = store.runs;
  const allNames = options.stages.map((stage) => stage.name);
  const unknown = redo.filter((name) => !allNames.includes(name));
  if (unknown.length > 0) throw new UserError('E_FLAG_INVALID', `unknown stage "${unknown.join(',')}": the ${options.pipeline} stages are ${allNames.join(', ')}`);
  const notChosen = redo.filter((name) => !options.selected.includes(name));
  if (notChosen.length > 0) {
    const chosen = allNames.filter((name) => options.selected.includes(name));
    throw new UserError('E_FLAGS_CONFLICT', `--redo ${notChosen.join(',')}: the stage is not among the stages to run (${chosen.join(',')})`);
  }
  const existing = runs.findRun(options.pipeline, options.params);
  refuseMissingInputs(options.stages, options.selected, existing?.stages ?? [], existing ? null : options.pipeline);
  const { run, resumed } = runs.openRun(options.pipeline, options.params, allNames, existing);
  if (resumed) reporter.event('continuing run', { run: run.id });
  const executed: string[] = [];
  const skipped: string[] = [];
  // The stage records as stored: read again only after a stage has run and changed them.
  let records = run.stages;
  for (const stage of options.stages) {
    if (!options.selected.includes(stage.name)) continue;
    const record = records.find((s) => s.stage === stage.name);
    const changedInputs = record?.status === 'done' ? inputsMadeSince(stage, record, records) : [];
    if (record?.status === 'done' && !stage.repeatable && !redo.includes(stage.name) && changedInputs.length === 0) {
      skipped.push(stage.name);
      reporter.stageFinished(stage.name, { status: 'skipped', counts: record.counts, seconds: 0 });
      continue;
    }
    if (changedInputs.length > 0) reporter.event('running again: its inputs were made again since it ran', { stage: stage.name, inputs: changedInputs.join(',') });
    runs.startStage(run.id, stage.name);
    reporter.stageStarted(stage.name);
    const started = performance.now();
    const context: StageContext = {
      store,
      runId: run.id,
      reporter,
      saveProgress: (update) => runs.saveCounts(run.id, stage.name, update.counts),
      redone: redo.includes(stage.name),
    };
    try {
      const counts = await stage.run(options.input, context);
      const seconds = (performance.now() - started) / 1000;
      runs.finishStage(run.id, stage.name, { status: 'done', seconds, counts });
      records = (runs.getRun(run.id) as RunRecord).stages;
      reporter.stageFinished(stage.name, { status: 'done', counts, seconds });
      executed.push(stage.name);
    } catch (error) {
      const failure = recordedError(error, store.path);
      const seconds = (performance.now() - started) / 1000;
      try {
        runs.finishStage(run.id, stage.name, { status: 'failed', seconds, error: failure });
        runs.finishRun(run.id, { status: 'failed', error: { code: failure.code, message: `${stage.name}: ${failure.message}` } });
      } catch {
        // A store that is full or busy refuses the record too: the stage's own error says why, and
        // the run, left running, shows as interrupted once this process is gone.
      }
      reporter.stageFinished(stage.name, { status: 'failed', counts: {}, seconds, error: failure.message, errorCode: failure.code });
      throw error;
    }
  }
  // A run asked for only some of its stages is 'partial' until a later invocation finishes the rest.
  // A done run this call ran nothing of keeps its finish time: `status --max-age` reads it as the last work done.
  const untouched = executed.length === 0 && existing?.status === 'done' ? existing.finishedAt : null;
  runs.finishRun(run.id, { status: records.every((stage) => stage.status === 'done') ? 'done' : 'partial', ...(untouched ? { finishedAt: untouched } : {}) });
  return { run: runs.getRun(run.id) as RunRecord, resumed, executed, skipped };
}

/**
 * A stage's failure as the run records it: a UserError's code, the store's own condition (busy, full:
 * the code the command's line will give it) or `E_INTERNAL` for a bug, and the one line.
 */
function recordedError(error: unknown, storePath: string): RecordedError {
  const shown = storeProblem(error, storePath) ?? error;
  return { code: codeOf(shown), message: oneLine(shown) };
}

/** The prerequisites of a done stage that completed after it: what it read has been made again. */
function inputsMadeSince(stage: Stage<unknown>, record: StageRecord, records: readonly StageRecord[]): string[] {
  return [...(stage.after ?? []), ...(stage.reads ?? [])].filter((name) => {
    const input = records.find((s) => s.stage === name);
    return input?.doneOrder != null && (record.doneOrder == null || input.doneOrder > record.doneOrder);
  });
}

/**
 * Refuses when a chosen stage reads the output of a stage that will not be there: neither chosen
 * now nor done with inputs that are still current. Checked before anything runs, so a refused
 * invocation changes nothing. `noRunOf` names the pipeline when the store has no run of these
 * parameters at all, so the line says that rather than only the stage just before (unless that
 * stage is the first one).
 */
function refuseMissingInputs<Input>(stages: ReadonlyArray<Stage<Input>>, selected: readonly string[], records: readonly StageRecord[], noRunOf: string | null): void {
  const available = new Set<string>();
  const inPipeline = new Set(stages.map((stage) => stage.name));
  for (const stage of stages) {
    const inputs = (stage.after ?? []).filter((name) => inPipeline.has(name));
    const missing = inputs.find((name) => !available.has(name));
    if (selected.includes(stage.name)) {
      if (missing !== undefined) {
        const done = records.find((s) => s.stage === missing)?.status === 'done';
        throw new UserError(
          'E_PREREQUISITE_MISSING',
          `stage "${stage.name}" needs stage "${missing}" ${done ? 'redone (its own inputs changed since it ran)' : 'done'} first: add ${missing} to --stages` +
            (noRunOf === null || missing === stages[0]?.name ? '' : `; the store holds no ${noRunOf} run of these parameters yet: run it with its first stages`),
        );
      }
      available.add(stage.name);
      continue;
    }
    const record = records.find((s) => s.stage === stage.name);
    if (record?.status === 'done' && missing === undefined && inputsMadeSince(stage, record, records).length === 0) available.add(stage.name);
  }
}

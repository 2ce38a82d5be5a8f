import type { Database } from 'better-sqlite3';
import { UserError } from '../src/errors.js';
import type { ParsedRevision, Window } from '../src/model.js';
import type { Reporter } from '../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../src/runs/stageRunner.js';
import type { RevisionSource } from '../src/sources/RevisionSource.js';
import { collectStage } from './weekly/collect.js';
import { diffStage } from './weekly/diff.js';
import { finalizeStage } from './weekly/finalize.js';
import { parseStage } from './weekly/parse.js';
import { selectStage } from './weekly/select.js';
import { timelineStage } from './weekly/timeline.js';
import { generateStage } from './weekly/generate.js';
import { checkStage } from './weekly/check.js';
import { classifyStage } from './weekly/classify.js';
import { exportStage } from './weekly/export.js';
import type { WeeklyTasks } from '../src/llm/weeklyTasks.js';
import type { Prices } from '../src/llm/usage.js';
import type { SearchBackend } from '../src/search/searchBackend.js';

export interface WeeklyInput {
  window: Window;
  wiki: string;
  /** Needed by the collect stage only. */
  source: RevisionSource | null;
  seed: number;
  revertHours: number;
  keepContent: boolean;
  articleBaseUrl: string;
  parse: (wikitext: string, options: { firstParagraph: boolean }) => ParsedRevision;
  /** Collect only these pages (sync: the tracked ones); every changed page when absent. */
  onlyPages?: ReadonlySet<number>;
  /** generate, check, classify: the LLM tasks; the offline rules when absent. */
  tasks?: WeeklyTasks;
  /** Prices per 1,000 tokens, for the cost recorded with the run's LLM usage. */
  prices?: Prices;
  /** check: where descriptiveness searches; a local BM25 index over the store's pages when absent. */
  search?: SearchBackend;
  /** classify: questions kept per domain (750 when absent). */
  domainCap?: number;
  /** export: where the week's release goes; releases/weekly-START beside the database when absent. */
  releaseDir?: string;
}

/** The weekly pipeline's stages, in the order they run. */
export const weeklyStages: ReadonlyArray<Stage<WeeklyInput>> = [
  collectStage, parseStage, diffStage, selectStage, timelineStage, generateStage, checkStage, classifyStage, exportStage, finalizeStage,
];

export const WEEKLY_STAGES: readonly string[] = weeklyStages.map((stage) => stage.name);

/** Runs the weekly pipeline's chosen stages under one resumable run record. */
export function runWeekly(options: {
  db: Database;
  input: WeeklyInput;
  stages: readonly string[];
  /** Stages to run again although done (each among `stages`). */
  redo?: readonly string[];
  reporter: Reporter;
  params: Record<string, unknown>;
}): Promise<PipelineOutcome> {
  const unknown = [...options.stages, ...(options.redo ?? [])].filter((stage) => !weeklyStages.some((s) => s.name === stage));
  if (unknown.length > 0) {
    throw new UserError(`unknown stage "${unknown.join('", "')}": the weekly stages are ${weeklyStages.map((s) => s.name).join(', ')}`);
  }
  return runPipeline({
    db: options.db,
    pipeline: 'weekly',
    params: options.params,
    stages: weeklyStages,
    selected: options.stages,
    redo: options.redo ?? [],
    input: options.input,
    reporter: options.reporter,
  });
}

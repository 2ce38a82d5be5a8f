import type { Store } from '../src/store/store.js';
import { UserError } from '../src/errors.js';
import type { Window } from '../src/model.js';
import { queryIdFor } from '../src/store/questionStore.js';
import { laterRunOnSameTarget } from './otherRuns.js';
import type { Reporter } from '../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../src/runs/stageRunner.js';
import { collectStage, historyEndInWindow } from './weekly/collect.js';
import { diffStage } from './weekly/diff.js';
import { finalizeStage } from './weekly/finalize.js';
import { labelsStage } from './weekly/labels.js';
import { parseStage } from './weekly/parse.js';
import { selectStage } from './weekly/select.js';
import { timelineStage } from './weekly/timeline.js';
import { generateStage } from './weekly/generate.js';
import { checkStage } from './weekly/check.js';
import { classifyStage } from './weekly/classify.js';
import { exportStage } from './weekly/export.js';
import type { WeeklyInput } from './weekly/input.js';

export type { WeeklyInput } from './weekly/input.js';

/**
 * collect, then a word when the dump ends inside the week: the pages are held to the week's end, so
 * its days after the dump's newest revision are answered as the pages stood then.
 */
const collectWeekStage: Stage<WeeklyInput> = {
  ...collectStage,
  async run(input, context) {
    const counts = await collectStage.run(input, context);
    const ended = historyEndInWindow(input);
    if (ended !== undefined) {
      context.reporter.warn(
        `the dump holds no revision after ${ended.newest ?? 'any time (it holds none)'}, before the week's end (${input.window.end}): the days after it are answered as the pages stood then`,
        { until: ended.newest },
      );
    }
    return counts;
  },
};

/** The weekly pipeline's stages, in the order they run. */
export const weeklyStages: ReadonlyArray<Stage<WeeklyInput>> = [
  collectWeekStage, parseStage, labelsStage, diffStage, selectStage, timelineStage, generateStage, checkStage, classifyStage, exportStage, finalizeStage,
];

export const WEEKLY_STAGES: readonly string[] = weeklyStages.map((stage) => stage.name);

/** The stages whose results a run's settings decide (what reading the source gives does not depend on them). */
const SETTLED_STAGES: readonly string[] = WEEKLY_STAGES.filter((stage) => !['collect', 'parse', 'labels'].includes(stage));

/**
 * Refuses a window whose query ids another window of the store holds: one of another length starting
 * on the same day, or the same week of another wiki. Its questions would take over that window's ids,
 * and its day files would list that window's queries (they are the window's first day's). Asked before
 * any stage runs.
 *
 * @throws UserError (`E_WINDOW_CONFLICT`) naming the window that holds the ids
 */
function refuseWindowSharingIds(store: Store, wiki: string, window: Window): void {
  const other = store.questions(wiki).windowSharingIds(window);
  if (other === undefined) return;
  // A store made before dumps were named by their <siteinfo> holds its dump weeks under "dump" (docs/ARCHITECTURE.md §3).
  const remedy = other.wiki === 'dump' ? 'set the wiki setting to dump (WIKIDELTA_WIKI=dump) to go on with the weeks an older wikidelta stored under that name, or run it in another store' : 'run it in another store';
  throw new UserError(
    'E_WINDOW_CONFLICT',
    `the store holds the window ${other.start} .. ${other.end} of ${other.wiki}, whose query ids (${queryIdFor(window, 0).replace(/-0-0$/, '')}-PAGE-0) the window ${window.start} .. ${window.end}${wiki === '' ? '' : ` of ${wiki}`} would take over: ${remedy}`,
  );
}

/** Runs the weekly pipeline's chosen stages under one resumable run record. */
export function runWeekly(options: {
  store: Store;
  input: WeeklyInput;
  stages: readonly string[];
  /** Stages to run again although done (each among `stages`). */
  redo?: readonly string[];
  reporter: Reporter;
  params: Record<string, unknown>;
}): Promise<PipelineOutcome> {
  // `--stages ""` (an unset variable in a cron line) would open a run that runs nothing and exit 0.
  if (options.stages.length === 0) {
    throw new UserError('E_FLAG_INVALID', `--stages names no stage: give some of the weekly stages ${weeklyStages.map((s) => s.name).join(', ')}, or leave it out for all`);
  }
  const unknown = [...options.stages, ...(options.redo ?? [])].filter((stage) => !weeklyStages.some((s) => s.name === stage));
  if (unknown.length > 0) {
    throw new UserError('E_FLAG_INVALID', `unknown stage "${unknown.join('", "')}": the weekly stages are ${weeklyStages.map((s) => s.name).join(', ')}`);
  }
  refuseWindowSharingIds(options.store, options.input.wiki, options.input.window);
  // The week holds one set of changes and questions: those of the run that made them last. Made since
  // by a run of the week with other settings (seed, revert horizon, LLM), they are made again for this one's.
  const { window, wiki } = options.params;
  const sameWeek = (other: Record<string, unknown>) => JSON.stringify(other.window) === JSON.stringify(window) && other.wiki === wiki;
  const other = laterRunOnSameTarget(options.store, 'weekly', options.params, 'diff', sameWeek);
  const remade = other === undefined ? [] : SETTLED_STAGES.filter((stage) => options.stages.includes(stage));
  if (other !== undefined && remade.length > 0) {
    options.reporter.warn(`the week's questions were made by run ${other.id} with other settings (seed, revert horizon or LLM): this run makes them again with its own`, { run: other.id, stages: remade });
  }
  return runPipeline({
    store: options.store,
    pipeline: 'weekly',
    params: options.params,
    stages: weeklyStages,
    selected: options.stages,
    redo: [...new Set([...(options.redo ?? []), ...remade])],
    input: options.input,
    reporter: options.reporter,
  });
}

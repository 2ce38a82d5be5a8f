/**
 * A weekly evaluation (docs/ARCHITECTURE.md §15): what it expects is fixed by its dates and week,
 * never by the submission. On each date every kept query with a known answer that day (or every
 * query of one week) is expected; a prediction the evaluation expects and does not get is missing and wrong; a
 * prediction it does not expect (an id the store does not know, a date it does not score) is
 * reported apart. So leaving out a week or a wrong answer can only lower a score.
 */
import { UserError } from '../errors.js';
import type { Prediction, PredictionSink } from './predictions.js';
import type { EvaluationScope, StoreGold } from './storeCases.js';
import { SAMPLE_IDS, WeeklyScorer, type Outside, type WeeklyCase, type WeeklyItemScore, type WeeklyReport } from './weeklyScores.js';

/**
 * A system's predictions by date and id, each taken once by the item that expects it; what is left
 * is outside the evaluation. Ids are kept once whatever the number of dates they are predicted for.
 */
export class PredictionIndex {
  private readonly byDate = new Map<string, Map<string, string>>();
  private readonly ids = new Map<string, string>();

  /**
   * A sink adding a file's predictions; `defaultDate` answers the lines that name no date (null: such
   * a line is an error, `hint` saying how to give one).
   */
  sink(defaultDate: string | null, hint = 'give --date D or a "date" on each line'): PredictionSink {
    return (prediction: Prediction, where: string) => {
      const date = prediction.date ?? defaultDate;
      if (date === null) throw new UserError(`${where.replace(/ line \d+$/, '')}: the prediction for "${prediction.id}" names no date: ${hint}`);
      let id = this.ids.get(prediction.id);
      if (id === undefined) this.ids.set(prediction.id, (id = prediction.id));
      let day = this.byDate.get(date);
      if (!day) this.byDate.set(date, (day = new Map()));
      if (day.has(id)) throw new UserError(`${where}: id "${id}" for ${date} is predicted twice`);
      day.set(id, prediction.prediction);
    };
  }

  /** The prediction for a query on a date, taken out of the index (null: none). */
  take(date: string, id: string): string | null {
    const day = this.byDate.get(date);
    const prediction = day?.get(id);
    if (prediction === undefined) return null;
    day?.delete(id);
    return prediction;
  }

  /** The predictions no expected item took. */
  outside(): Outside {
    let n = 0;
    const sample: string[] = [];
    for (const [date, day] of [...this.byDate].sort(([a], [b]) => a.localeCompare(b))) {
      n += day.size;
      for (const id of day.keys()) {
        if (sample.length >= SAMPLE_IDS) break;
        sample.push(`${id} on ${date}`);
      }
    }
    return { n, sample };
  }
}

export interface WeeklyEvaluationOptions {
  seed: number | string;
  resamples?: number;
  /** A system's training cutoff (YYYY-MM-DD): the report splits its items before and after it. */
  cutoff?: string | null;
  /** Each expected item as it is scored, e.g. to write the per-item file. */
  onItem?: (item: WeeklyItemScore, scored: WeeklyCase) => void;
}

/** What an evaluation reports besides the scores: what it expected, and what `after` left out. */
export interface WeeklyEvaluation {
  evaluation: EvaluationScope;
  /** With `after`: the items left out because their answer began before it, or at a start not seen. */
  before_after?: number;
}

/**
 * Scores a system over what an evaluation expects. Refuses an evaluation with nothing to score, naming why.
 *
 * @example evaluateWeekly(new StoreGold(db), index, { dates: ['2025-01-20'], week: null }, { seed: 1 }).f1
 */
export function evaluateWeekly(gold: StoreGold, predictions: PredictionIndex, scope: EvaluationScope, options: WeeklyEvaluationOptions): WeeklyReport & WeeklyEvaluation {
  const scorer = new WeeklyScorer({ cutoff: options.cutoff ?? null });
  const after = scope.after ?? null;
  let unknown = 0;
  let held = 0;
  let beforeAfter = 0;
  for (const item of gold.weeklyGold(scope)) {
    held++;
    if (item.status === 'unknown') {
      unknown++;
      // A date expects the queries it can answer; one week's queries are all expected, the unknown counted apart.
      if (scope.week === null) continue;
    }
    const prediction = predictions.take(item.date, item.id);
    // Only answers that began on or after `after` by a change the store saw; their predictions are no one else's.
    if (after !== null && item.status !== 'unknown' && !(item.changedAt !== null && item.changedAt >= after)) {
      beforeAfter++;
      continue;
    }
    const scored = { gold: item, prediction };
    if (options.onItem) options.onItem(scorer.add(scored, true), scored);
    else scorer.add(scored, false);
  }
  if (scorer.expected === 0) throw new UserError(nothingToScore(scope, held, unknown, beforeAfter));
  const report = scorer.report({ seed: options.seed, resamples: options.resamples, outside: predictions.outside() });
  return { evaluation: scope, ...(after === null ? {} : { before_after: beforeAfter }), ...report };
}

function nothingToScore(scope: EvaluationScope, held: number, unknown: number, beforeAfter: number): string {
  const what = `${scope.week === null ? 'kept queries' : `queries of the week of ${scope.week}`} on ${scope.dates.join(', ')}`;
  if (held === 0) return `nothing to score: the store holds no ${what} (run wikidelta weekly, or import the published files)`;
  if (beforeAfter > 0) return `nothing to score: none of the ${beforeAfter} answers of the ${what} began on or after ${scope.after} by a change the store saw (--after)`;
  return `nothing to score: the answers of all ${unknown} ${what} are unknown, outside the history the store holds (run wikidelta sync)`;
}

/**
 * A weekly evaluation (docs/ARCHITECTURE.md §15): what it expects is fixed by its dates and week,
 * never by the submission. On each date every kept query with a known answer that day (or every
 * query of one week) is expected; a prediction the evaluation expects and does not get is missing and wrong; a
 * prediction it does not expect (an id the store does not know, a date it does not score) is
 * reported apart. So leaving out a week or a wrong answer can only lower a score.
 */
import { UserError } from '../errors.js';
import { BootstrapThread, sharesBootstrap } from './bootstrap.js';
import { placeOf, type Prediction, type PredictionSink } from './predictions.js';
import { emptyGold, type EvaluationScope, type GoldQuery, type StoreGold } from './storeCases.js';
import { KeptScores, SAMPLE_IDS, WeeklyScorer, type Outside, type WeeklyCase, type WeeklyItemScore, type WeeklyReport } from './weeklyScores.js';

/** A prediction whose date is known. */
export type DatedPrediction = Prediction & { date: string };

/** Takes each of a system's predictions with its date and where it came from (the file and the line, as `PredictionSink`). */
export type DatedSink = (prediction: DatedPrediction, source: string, line: number) => void;

/** Hands each of a system's predictions to an evaluation's sink. */
export type PredictionFeed = (sink: DatedSink) => void;

/**
 * A sink giving each prediction its date: its own, or `defaultDate` for a line that names none (null:
 * such a line is an error, `hint` saying how to give one).
 */
export function datedSink(defaultDate: string | null, sink: DatedSink, hint = 'give --date D or a "date" on each line'): PredictionSink {
  return (prediction: Prediction, source: string, line: number) => {
    const date = prediction.date ?? defaultDate;
    if (date === null) throw new UserError('E_PREDICTIONS_INVALID', `${placeOf(source, line)}: the prediction for "${prediction.id}" names no date: ${hint}`);
    sink(prediction.date === date ? (prediction as DatedPrediction) : { ...prediction, date }, source, line);
  };
}

/** The predictions an evaluation does not expect, each (id, date) once: counted, and the first of each date named. */
class OutsidePredictions {
  private readonly seen = new Set<string>();
  private readonly byDate = new Map<string, string[]>();

  /** False when the id was already predicted for the date. */
  add(id: string, date: string): boolean {
    const key = `${date}\u0000${id}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    let sample = this.byDate.get(date);
    if (!sample) this.byDate.set(date, (sample = []));
    if (sample.length < SAMPLE_IDS) sample.push(id);
    return true;
  }

  summary(): Outside {
    const sample = [...this.byDate]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([date, ids]) => ids.map((id) => `${id} on ${date}`))
      .slice(0, SAMPLE_IDS);
    return { n: this.seen.size, sample };
  }
}

/** An evaluation's bootstrap, the system's cutoff, and a callback per item. */
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
 * Scores a system over what an evaluation expects. The gold of the whole scope is read first and held
 * compactly; each prediction is then scored as it is read (a million predictions never sit in memory)
 * and its outcome kept in the item's slot; the items are then counted in the gold's order, those
 * without a prediction as missing, so the figures are those of pairing the two in the gold's order.
 * A feed that numbers ids (`ThreadedPredictionFile`, `Prediction.key`) has each id looked up once;
 * a large report's bootstrap is shared with a second thread, started while the items are counted.
 * Refuses an evaluation with nothing to score, naming why.
 *
 * @param gold - the store's gold (`new StoreGold(store)`)
 * @param feed - hands every prediction, with its date, to the sink it is given (e.g. `readPredictionFile` through `datedSink`)
 * @param scope - the dates scored, and optionally one week's queries only, an `after` date or the time axis
 * @param options - `seed` for the bootstrap, `cutoff` for the before/after split, `onItem` to see each item as it is scored
 * @returns the report (every metric and verdict rate in per cent, with n and 95% intervals, overall and per
 *   group), what the scope expected, and what `after` left out
 * @throws UserError for a prediction whose id is given twice for a date, or a scope with nothing to score
 * @example evaluateWeekly(new StoreGold(store), (sink) => readPredictionFile(path, datedSink(null, sink)), { dates: ['2025-01-20'], week: null }, { seed: 1 }).f1
 */
export function evaluateWeekly(gold: StoreGold, feed: PredictionFeed, scope: EvaluationScope, options: WeeklyEvaluationOptions): WeeklyReport & WeeklyEvaluation {
  // What scoring kept per item is gone before the bootstrap, whose rows are the larger then.
  const { scorer, held, unknown, beforeAfter, outside, thread } = countScope(gold, feed, scope, options);
  try {
    if (scorer.expected === 0) throw new UserError('E_NOTHING_TO_SCORE', nothingToScore(gold, scope, held, unknown, beforeAfter));
    const report = scorer.report({ seed: options.seed, resamples: options.resamples, outside: outside.summary(), ...(thread ? { thread } : {}) });
    return { evaluation: scope, ...((scope.after ?? null) === null ? {} : { before_after: beforeAfter }), ...report };
  } finally {
    void thread?.close();
  }
}

/** The rows of a report's groups per query, at the least: every query is a row of all items, of its domain, its week and its update frequency. */
const ROWS_PER_QUERY = 4;

/** Every item of the scope counted into a scorer, its prediction scored as it is read, and what was not counted. */
function countScope(gold: StoreGold, feed: PredictionFeed, scope: EvaluationScope, options: WeeklyEvaluationOptions) {
  const scorer = new WeeklyScorer({ cutoff: options.cutoff ?? null });
  const after = scope.after ?? null;
  const queries = gold.queriesOf(scope);
  const days = scope.dates.length;
  const queryOf = new Map(queries.map((query, q) => [query.id, q]));
  const dayOf = new Map(scope.dates.map((date, day) => [date, day]));
  /** Per item (query × date): 0 no prediction, 1 predicted and kept, 2 predicted and left out by `after`. */
  const taken = new Uint8Array(queries.length * days);
  const kept = new KeptScores(queries.length * days);
  /** With `onItem`, the texts predicted, which it hands on with each item. */
  const texts: Array<string | undefined> | null = options.onItem ? [] : null;
  const outside = new OutsidePredictions();
  // Only answers that began on or after `after` by a change the store saw; their predictions are no one else's.
  const leftOut = (item: WeeklyCase['gold']) => after !== null && item.status !== 'unknown' && !(item.changedAt !== null && item.changedAt >= after);
  // One item and one case filled in turn for every prediction and every count: a million of each were
  // a tenth of the scoring in allocation and collection. Only `onItem`, which may keep them, gets its own.
  const item = emptyGold();
  const scored: WeeklyCase = { gold: item, prediction: null };
  const slot = { scores: kept, at: 0 };
  // Per id key (a reader that numbers ids, `Prediction.key`): 0 not looked up yet, -1 no query, else the query's index + 1.
  let queryOfKey = new Int32Array(queries.length);
  const queryOfKeyed = (key: number, id: string): number | undefined => {
    if (key >= queryOfKey.length) {
      const grown = new Int32Array(Math.max(key + 1, 2 * queryOfKey.length));
      grown.set(queryOfKey);
      queryOfKey = grown;
    }
    let known = queryOfKey[key] as number;
    if (known === 0) {
      const q = queryOf.get(id);
      queryOfKey[key] = known = q === undefined ? -1 : q + 1;
    }
    return known === -1 ? undefined : known - 1;
  };
  feed((prediction, source, line) => {
    const q = prediction.key === undefined ? queryOf.get(prediction.id) : queryOfKeyed(prediction.key, prediction.id);
    const day = dayOf.get(prediction.date);
    // A date expects the queries it can answer; one week's queries are all expected, the unknown counted apart.
    const query = q === undefined || day === undefined ? undefined : (queries[q] as GoldQuery);
    if (query === undefined || day === undefined || (scope.week === null && query.unknownOn(day))) {
      if (!outside.add(prediction.id, prediction.date)) throw twice(placeOf(source, line), prediction);
      return;
    }
    const at = (q as number) * days + day;
    if (taken[at] !== 0) throw twice(placeOf(source, line), prediction);
    if (leftOut(query.into(day, item))) {
      taken[at] = 2;
      return;
    }
    taken[at] = 1;
    scored.prediction = prediction.prediction;
    scorer.keep(scored, kept, at);
    if (texts) texts[at] = prediction.prediction;
  });
  // A large report's bootstrap is shared with a second thread, which starts (loads its modules) while the items are counted.
  const thread = sharesBootstrap(ROWS_PER_QUERY * queries.length, options.resamples) ? new BootstrapThread() : undefined;
  let unknown = 0;
  let held = 0;
  let beforeAfter = 0;
  try {
    queries.forEach((query, q) => {
      for (let day = 0; day < days; day++) {
        query.into(day, item);
        held++;
        if (item.status === 'unknown') {
          unknown++;
          if (scope.week === null) {
            // Not expected on a date, yet excluded: the report counts it as unknown gold, as a week's does.
            scorer.countUnknown();
            continue;
          }
        }
        if (leftOut(item)) {
          beforeAfter++;
          continue;
        }
        const at = q * days + day;
        const predicted = taken[at] === 1;
        slot.at = at;
        if (options.onItem) {
          const own = { gold: query.on(day), prediction: predicted ? (texts?.[at] ?? '') : null };
          options.onItem(scorer.add(own, true, predicted ? slot : undefined), own);
        } else {
          scored.prediction = predicted ? '' : null;
          scorer.add(scored, false, predicted ? slot : undefined);
        }
      }
    });
  } catch (error) {
    void thread?.close();
    throw error;
  }
  return { scorer, held, unknown, beforeAfter, outside, thread };
}

function twice(where: string, prediction: DatedPrediction): UserError {
  return new UserError('E_PREDICTION_DUPLICATE', `${where}: id "${prediction.id}" for ${prediction.date} is predicted twice`);
}

function nothingToScore(gold: StoreGold, scope: EvaluationScope, held: number, unknown: number, beforeAfter: number): string {
  const what = `${scope.week === null ? 'kept queries' : `queries of the week of ${scope.week}`} on ${scope.dates.join(', ')}`;
  if (held === 0) return `nothing to score: the store holds no ${what} (run wikidelta weekly, or import the published files)`;
  if (beforeAfter > 0) return `nothing to score: none of the ${beforeAfter} answers of the ${what} began on or after ${scope.after} by a change the store saw (--after)`;
  if (scope.axis === 'world') return `nothing to score: none of the ${unknown} ${what} has a time-qualified statement on world time (only Wikidata facts with start, end or point in time do)`;
  return `nothing to score: the answers of all ${unknown} ${what} are unknown: ${gold.unknownReason(scope)}`;
}

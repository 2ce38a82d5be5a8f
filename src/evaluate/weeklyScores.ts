/**
 * A system's weekly (DailyQA / RealTimeQA) scores from predictions already paired with the stored
 * answers: every metric of the registry (`./metrics/`) over the items whose gold is a value, missing
 * predictions counted as wrong; gold "no value" items (and the empty string, which no system can
 * match) scored apart by the no-answer phrases; gold `unknown` excluded and counted; breakdowns by
 * domain, update frequency, days since the answer last changed and week; every figure a percentage
 * with its n and a 95% bootstrap interval by query (docs/ARCHITECTURE.md §15). Pure: the shell pairs
 * predictions with gold through the store, and items can be added one at a time, so a million
 * predictions never sit in memory as cases.
 */
import { clusteredIntervals, ClusteredSums, type Interval } from './bootstrap.js';
import { ScoredText, WEEKLY_METRICS, type MetricName } from './metrics/index.js';
import { saysNoAnswer } from './noAnswer.js';

/** The stored answer of one query on one date, with what the breakdowns need. */
export interface WeeklyGold {
  id: string;
  date: string;
  status: 'ok' | 'no_key' | 'no_page' | 'deleted' | 'unknown';
  answer: string | null;
  /** When the value in effect on the date started (ISO instant), for "days since the answer changed". */
  validFrom: string | null;
  domain: string | null;
  frequency: 'frequent_update' | 'infrequent_update' | 'pending' | null;
  /** The query's week (its window start, YYYY-MM-DD). */
  week: string | null;
}

export interface WeeklyCase {
  gold: WeeklyGold;
  /** Null: the system gave no prediction for this query and date. */
  prediction: string | null;
}

/** A rate per metric, in percent. */
export type MetricValues = Record<MetricName, number>;

export type GroupScores = MetricValues & {
  /** Items (query and date) in the group. */
  n: number;
  /** Queries among them: the bootstrap's units. */
  queries: number;
  ci: Record<MetricName, Interval>;
};

/** Predictions the evaluation did not expect: ids the store does not know, or dates it does not score. */
export interface Outside {
  n: number;
  sample: string[];
}

export interface WeeklyReport extends GroupScores {
  /** Items with a gold value and a prediction. */
  scored: number;
  /** Expected items (a value or "no value") with no prediction; counted as wrong. */
  missing: number;
  /** Items whose gold is `unknown` (outside the history held): excluded from every score. */
  unknown: number;
  /** Gold "no value" (no_key, no_page, deleted, or an empty string): correct when the prediction is a no-answer phrase. */
  no_answer: { n: number; correct: number; accuracy: number; ci: Interval };
  /** Of the no-answer gold, the values stored as an empty string (DailyQA's release has 3,704). */
  empty_gold: number;
  by_domain: Record<string, GroupScores>;
  by_frequency: Record<string, GroupScores>;
  by_days_since_change: Record<string, GroupScores>;
  by_week: Record<string, GroupScores>;
  /** The first missing items, as "ID on DATE"; the count is `missing`. */
  missing_sample: string[];
  outside: Outside;
}

export interface WeeklyScoreOptions {
  seed: number | string;
  resamples?: number;
  outside?: Outside;
}

/** One item's outcome: how it counts (a value, a "no value", or excluded) and its scores (0 or 1, F1 in between). */
export type WeeklyItemScore = MetricValues & {
  id: string;
  date: string;
  counts: 'value' | 'no_answer' | 'excluded';
  missing: boolean;
};

/** How many ids a report lists by name; the counts say how many there are. */
export const SAMPLE_IDS = 20;

/**
 * Scores one item into `out` (one entry per metric, in registry order) and says how it counts. A
 * gold "no value" (or the empty string) scores 1 on every metric for a no-answer phrase. `texts`
 * gives the scored form of a text, so a caller scoring many items can keep the forms it has made.
 */
function scoreInto({ gold, prediction }: WeeklyCase, out: Float64Array, texts: (text: string) => ScoredText): WeeklyItemScore['counts'] {
  out.fill(0);
  if (gold.status === 'unknown') return 'excluded';
  if (!hasValue(gold)) {
    if (prediction !== null && saysNoAnswer(prediction)) out.fill(1);
    return 'no_answer';
  }
  if (prediction === null) return 'value';
  const answer = texts(gold.answer as string);
  // A prediction that is the gold text word for word shares its forms.
  const predicted = prediction === gold.answer ? answer : new ScoredText(prediction);
  for (let m = 0; m < WEEKLY_METRICS.length; m++) out[m] = (WEEKLY_METRICS[m] as (typeof WEEKLY_METRICS)[number]).score(predicted, answer);
  return 'value';
}

function itemScore(item: WeeklyCase, counts: WeeklyItemScore['counts'], scores: Float64Array): WeeklyItemScore {
  const values = Object.fromEntries(WEEKLY_METRICS.map((metric, m) => [metric.name, scores[m] as number])) as MetricValues;
  return { id: item.gold.id, date: item.gold.date, counts, missing: item.prediction === null, ...values };
}

/**
 * How one prediction scores against its gold.
 *
 * @example weeklyItemScore({ gold: { …, status: 'no_key' }, prediction: 'unknown' }).em === 1
 */
export function weeklyItemScore(item: WeeklyCase): WeeklyItemScore {
  const scores = new Float64Array(WEEKLY_METRICS.length);
  return itemScore(item, scoreInto(item, scores, (text) => new ScoredText(text)), scores);
}

/** A gold value a system can match: a status ok and a non-empty answer. */
function hasValue(gold: WeeklyGold): boolean {
  return gold.status === 'ok' && gold.answer !== null && gold.answer !== '';
}

const DAY_MS = 86_400_000;

/** Instants already parsed: a scoring reads the same few dates, and a query's same start, over and over. */
const parsedInstants = new Map<string, number>();

function instantMs(text: string): number {
  let ms = parsedInstants.get(text);
  if (ms === undefined) {
    if (parsedInstants.size >= 100_000) parsedInstants.clear();
    ms = Date.parse(text);
    parsedInstants.set(text, ms);
  }
  return ms;
}

/** Whole days from the start of the value in effect to the answer date's instant (D 00:00 UTC). */
export function daysSinceChange(date: string, validFrom: string | null): number | null {
  if (validFrom === null) return null;
  return Math.floor((instantMs(`${date}T00:00:00Z`) - instantMs(validFrom)) / DAY_MS);
}

/** Bins of days since the change, doubling in width: enough items per point for an interval that says something. */
const DAY_BINS: ReadonlyArray<[number, string]> = [
  [0, '0'],
  [1, '1'],
  [3, '2-3'],
  [7, '4-7'],
  [14, '8-14'],
  [30, '15-30'],
  [90, '31-90'],
  [365, '91-365'],
  [Infinity, '366+'],
];

/** The bin of a number of days since the change, as the report and the figures name it. */
export function daysBin(days: number | null): string {
  if (days === null) return 'unknown';
  return DAY_BINS.find(([upTo]) => days <= upTo)?.[1] ?? 'unknown';
}

/** The order of the day bins, for reports and figures. */
export const DAY_BIN_ORDER: readonly string[] = [...DAY_BINS.map(([, label]) => label), 'unknown'];

type Breakdown = 'by_domain' | 'by_frequency' | 'by_days_since_change' | 'by_week';

/**
 * Adds items one at a time and reports the scores; the same seed gives the same intervals.
 *
 * @example
 * const scorer = new WeeklyScorer();
 * scorer.add({ gold: { id: 'q', date: '2025-01-27', status: 'ok', answer: '3rd', validFrom: null, domain: null, frequency: null, week: null }, prediction: '3rd' });
 * scorer.report({ seed: 1 }).em === 100
 */
export class WeeklyScorer {
  private readonly clusters = new Map<string, number>();
  private readonly all = new ClusteredSums(WEEKLY_METRICS.length);
  private readonly noAnswer = new ClusteredSums(1);
  private readonly breakdowns: Record<Breakdown, Map<string, ClusteredSums>> = {
    by_domain: new Map(),
    by_frequency: new Map([
      ['frequent_update', new ClusteredSums(WEEKLY_METRICS.length)],
      ['infrequent_update', new ClusteredSums(WEEKLY_METRICS.length)],
    ]),
    by_days_since_change: new Map(),
    by_week: new Map(),
  };
  private readonly scores = new Float64Array(WEEKLY_METRICS.length);
  /** The scored forms of gold texts: a query's answer is the same text on most of the dates it is scored on. */
  private readonly golds = new Map<string, ScoredText>();
  private scored = 0;
  private unknown = 0;
  private emptyGold = 0;
  private missing = 0;
  private readonly missingSample: string[] = [];

  /** Counts one item; returns its scores when asked (a million items need not each make an object). */
  add(item: WeeklyCase, wantScore: true): WeeklyItemScore;
  add(item: WeeklyCase, wantScore?: false): undefined;
  add(item: WeeklyCase, wantScore = false): WeeklyItemScore | undefined {
    const counts = scoreInto(item, this.scores, (text) => this.goldText(text));
    const result = wantScore ? itemScore(item, counts, this.scores) : undefined;
    const { gold } = item;
    if (counts === 'excluded') {
      this.unknown++;
      return result;
    }
    if (item.prediction === null) {
      this.missing++;
      if (this.missingSample.length < SAMPLE_IDS) this.missingSample.push(`${gold.id} on ${gold.date}`);
    }
    const cluster = this.clusterOf(gold.id);
    if (counts === 'no_answer') {
      if (gold.status === 'ok') this.emptyGold++;
      this.noAnswer.add(cluster, this.scores);
      return result;
    }
    if (item.prediction !== null) this.scored++;
    this.all.add(cluster, this.scores);
    this.groupOf('by_domain', gold.domain ?? 'none').add(cluster, this.scores);
    this.groupOf('by_frequency', gold.frequency ?? 'pending').add(cluster, this.scores);
    this.groupOf('by_days_since_change', daysBin(daysSinceChange(gold.date, gold.validFrom))).add(cluster, this.scores);
    this.groupOf('by_week', gold.week ?? 'none').add(cluster, this.scores);
    return result;
  }

  /** Items counted (excluded ones aside). */
  get expected(): number {
    return this.all.n + this.noAnswer.n;
  }

  report(options: WeeklyScoreOptions): WeeklyReport {
    const names = (breakdown: Breakdown) => [...this.breakdowns[breakdown].keys()].sort(ORDER[breakdown]);
    const groups = [this.all, ...BREAKDOWNS.flatMap((breakdown) => names(breakdown).map((name) => this.groupOf(breakdown, name)))];
    const intervals = clusteredIntervals(groups, this.clusters.size, { seed: options.seed, resamples: options.resamples });
    const [noAnswerInterval = [[0, 0] as Interval]] = clusteredIntervals([this.noAnswer], this.clusters.size, { seed: options.seed, resamples: options.resamples });
    let at = 1;
    const breakdown = (name: Breakdown): Record<string, GroupScores> =>
      Object.fromEntries(names(name).map((key) => [key, groupScores(this.groupOf(name, key), intervals[at++] ?? [])]));
    const noAnswerMean = this.noAnswer.means()[0] ?? 0;
    return {
      ...groupScores(this.all, intervals[0] ?? []),
      scored: this.scored,
      missing: this.missing,
      unknown: this.unknown,
      no_answer: { n: this.noAnswer.n, correct: Math.round(noAnswerMean * this.noAnswer.n), accuracy: 100 * noAnswerMean, ci: percentInterval(noAnswerInterval[0]) },
      empty_gold: this.emptyGold,
      by_domain: breakdown('by_domain'),
      by_frequency: breakdown('by_frequency'),
      by_days_since_change: breakdown('by_days_since_change'),
      by_week: breakdown('by_week'),
      missing_sample: [...this.missingSample],
      outside: options.outside ?? { n: 0, sample: [] },
    };
  }

  private goldText(text: string): ScoredText {
    let scored = this.golds.get(text);
    if (!scored) {
      // Bounded: the forms of the answers of the last queries read, which is what the next dates repeat.
      if (this.golds.size >= GOLD_TEXTS_KEPT) this.golds.clear();
      scored = new ScoredText(text);
      this.golds.set(text, scored);
    }
    return scored;
  }

  private clusterOf(id: string): number {
    let cluster = this.clusters.get(id);
    if (cluster === undefined) {
      cluster = this.clusters.size;
      this.clusters.set(id, cluster);
    }
    return cluster;
  }

  private groupOf(breakdown: Breakdown, key: string): ClusteredSums {
    const groups = this.breakdowns[breakdown];
    let group = groups.get(key);
    if (!group) {
      group = new ClusteredSums(WEEKLY_METRICS.length);
      groups.set(key, group);
    }
    return group;
  }
}

const GOLD_TEXTS_KEPT = 100_000;

const BREAKDOWNS: readonly Breakdown[] = ['by_domain', 'by_frequency', 'by_days_since_change', 'by_week'];
const byName = (a: string, b: string) => a.localeCompare(b);
const ORDER: Record<Breakdown, (a: string, b: string) => number> = {
  by_domain: byName,
  by_frequency: byName,
  by_days_since_change: (a, b) => DAY_BIN_ORDER.indexOf(a) - DAY_BIN_ORDER.indexOf(b),
  by_week: byName,
};

function percentInterval(interval: Interval | undefined): Interval {
  return interval ? [100 * interval[0], 100 * interval[1]] : [0, 0];
}

function groupScores(group: ClusteredSums, intervals: readonly Interval[]): GroupScores {
  const means = group.means();
  const values = Object.fromEntries(WEEKLY_METRICS.map((metric, m) => [metric.name, 100 * (means[m] ?? 0)])) as MetricValues;
  const ci = Object.fromEntries(WEEKLY_METRICS.map((metric, m) => [metric.name, percentInterval(intervals[m])])) as Record<MetricName, Interval>;
  return { n: group.n, queries: group.clusters, ...values, ci };
}

/**
 * Scores weekly predictions against their gold answers.
 *
 * @example
 * scoreWeekly([{ gold: { id: 'q', date: '2025-01-27', status: 'ok', answer: '3rd', validFrom: '2025-01-26T22:10:00Z',
 *   domain: 'sports', frequency: 'frequent_update', week: '2025-01-20' }, prediction: '3rd' }], { seed: 1 }).em === 100
 */
export function scoreWeekly(cases: Iterable<WeeklyCase>, options: WeeklyScoreOptions): WeeklyReport {
  const scorer = new WeeklyScorer();
  for (const item of cases) scorer.add(item);
  return scorer.report(options);
}

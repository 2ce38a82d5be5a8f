/**
 * A system's weekly (DailyQA / RealTimeQA) scores from predictions already paired with the stored
 * answers: every metric of the registry (`./metrics/`), each the best over the answer and its aliases,
 * and the verdicts (`./verdicts.ts`: current, outdated, future, wrong) over the items whose gold is a
 * value, missing predictions counted as wrong; gold "no value" items (and the empty string, which no
 * system can match) scored apart by the no-answer phrases; gold `unknown` excluded and counted;
 * breakdowns by domain, update frequency, days since the answer last changed, week and a system's
 * training cutoff; every figure a percentage with its n and a 95% bootstrap interval by query, the
 * verdicts' from the same resamples as the metrics' (docs/ARCHITECTURE.md §15). Pure: the shell pairs
 * predictions with gold through the store, and items can be added one at a time, so a million
 * predictions never sit in memory as cases.
 */
import { boundedMemo } from '../boundedMemo.js';
import { NO_ALIASES } from '../model/timelines.js';
import type { AnswerState, ValueTimeline } from '../timeline/valueTimeline.js';
import { clusteredIntervals, ClusteredSums, type BootstrapThread, type Interval } from './bootstrap.js';
import { ScoredText, WEEKLY_METRICS, type Metric, type MetricName } from './metrics/index.js';
import { saysNoAnswer } from './noAnswer.js';
import { NO_VALUE, VERDICT_RATES, VERDICTS, verdictOf, type MatchLevel, type VerdictName, type VerdictOutcome, type VerdictRate } from './verdicts.js';

/** The stored answer of one query on one date, with what the breakdowns need. */
export interface WeeklyGold {
  id: string;
  date: string;
  status: 'ok' | 'no_key' | 'no_page' | 'deleted' | 'unknown';
  answer: string | null;
  /**
   * When the answer in effect on the date began, where that is a change the store saw (ISO instant, or
   * YYYY-MM-DD for imported answers); null when none was seen (a value already in effect when the
   * history held begins): "days since the answer changed" counts from it.
   */
  changedAt: string | null;
  /** When the answer in effect on the date began, seen or not (it held at least since then); default `changedAt`. */
  since?: string | null;
  domain: string | null;
  frequency: 'frequent_update' | 'infrequent_update' | 'pending' | null;
  /** The query's week (its window start, YYYY-MM-DD). */
  week: string | null;
  /** Other names of the answer, where the store holds them: every metric takes the best over the answer and these. */
  aliases?: readonly string[];
  /** The query's whole value timeline and the index of the stretch in effect on the date: what tells outdated from wrong. */
  timeline?: ValueTimeline;
  state?: number;
  /**
   * The scored forms of each stretch of `timeline` (its value, then its aliases), filled by the scorer
   * as it needs them: one list per query, shared by the items of all its dates.
   */
  forms?: Array<readonly ScoredText[] | undefined>;
  /** The question, for a judge. */
  query?: string;
}

/** One expected item paired with the system's prediction for it. */
export interface WeeklyCase {
  gold: WeeklyGold;
  /** Null: the system gave no prediction for this query and date. */
  prediction: string | null;
}

/** A rate per metric, in percent. */
export type MetricValues = Record<MetricName, number>;

/** What every group of a report gives: each metric and each verdict's rate. */
export type Measure = MetricName | VerdictRate;
/** Every figure a report group holds, in report order: the registry's metrics, then the verdict rates. */
export const MEASURES: readonly Measure[] = [...WEEKLY_METRICS.map((metric) => metric.name), ...VERDICT_RATES];

export type GroupScores = Record<Measure, number> & {
  /** Items (query and date) in the group. */
  n: number;
  /** Queries among them: the bootstrap's units. */
  queries: number;
  ci: Record<Measure, Interval>;
};

/** How much the aliases of the answers moved the scores. */
export interface AliasEffect {
  /** Items whose gold value has aliases. */
  items: number;
  /** Of them, items where an alias raised some metric above the answer's own score. */
  changed: number;
  /** Items an alias raised, per metric. */
  by_metric: Record<MetricName, number>;
}

/** The outdated answers: how old the values they gave were, and how many changes ago. */
export interface OutdatedDetail {
  n: number;
  /** Items by the days since the value given last held, in the bins of days since a change. */
  by_age_days: Record<string, number>;
  /** Items by the changes of the answer since the value given. */
  by_changes_ago: Record<string, number>;
}

/** Predictions the evaluation did not expect: ids the store does not know, or dates it does not score. */
export interface Outside {
  n: number;
  sample: string[];
}

/** A weekly evaluation: every measure overall (in per cent, with n and intervals), the counts behind them, and the same per group (domain, update frequency, week, days since the change, cutoff side). */
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
  /**
   * With a training cutoff: the items whose answer began before it (`before`), on or after it as a
   * change the store saw (`after`), or in effect since a start not seen that is not before it (`undetermined`).
   */
  by_cutoff?: { cutoff: string } & Record<string, GroupScores | string>;
  /** Items whose gold has no value: their verdict. */
  no_value: number;
  outdated_detail: OutdatedDetail;
  aliases: AliasEffect;
  /** The first missing items, as "ID on DATE"; the count is `missing`. */
  missing_sample: string[];
  outside: Outside;
}

/** A report's bootstrap (seed, resamples) and the predicted ids the gold does not hold. */
export interface WeeklyScoreOptions {
  seed: number | string;
  resamples?: number;
  /** The bootstrap's second thread, started ahead by the caller (`BootstrapThread`), for a large report. */
  thread?: BootstrapThread;
  outside?: Outside;
}

/** One item's outcome: how it counts (a value, a "no value", or excluded), its scores (0 or 1, F1 in between) and its verdict. */
export type WeeklyItemScore = MetricValues & {
  id: string;
  date: string;
  counts: 'value' | 'no_answer' | 'excluded';
  missing: boolean;
  verdict: VerdictName;
  age_days: number | null;
  changes_ago: number | null;
};

/** A slot of `KeptScores`. */
interface KeptSlot {
  scores: KeptScores;
  at: number;
}

/**
 * Items' outcomes kept between scoring them (as their predictions are read, in file order) and
 * counting them (in the gold's order, which fixes the bootstrap's clusters and sums, so the figures
 * do not depend on the order of the file): per slot, the binary metrics as bits, the others as
 * doubles, the verdict and the metrics aliases raised, in typed arrays rather than an object per
 * item: 11 bytes an item with the registry's metrics, where a double per metric took 26.
 */
export class KeptScores {
  /** Per slot, bit b set when the b-th binary metric scored 1. */
  private readonly bits: Uint8Array;
  /** Per slot, the score of each metric that is not binary. */
  private readonly fractions: Float64Array;
  /** The verdict's index in VERDICTS; an outdated one's age and changes in `outdated`. */
  private readonly verdicts: Uint8Array;
  private readonly outdated = new Map<number, VerdictOutcome>();
  private readonly raised: Uint8Array;

  constructor(slots: number) {
    this.bits = new Uint8Array(slots);
    this.fractions = new Float64Array(slots * FRACTIONAL.length);
    this.verdicts = new Uint8Array(slots);
    this.raised = new Uint8Array(slots);
  }

  set(at: number, outcome: ItemOutcome, scores: Float64Array): void {
    let bits = 0;
    for (let b = 0; b < BINARY.length; b++) {
      const score = scores[BINARY[b] as number] as number;
      if (score === 1) bits |= 1 << b;
      else if (score !== 0) throw new Error(`the metric ${WEEKLY_METRICS[BINARY[b] as number]?.name} says it is binary and scored ${score}`);
    }
    this.bits[at] = bits;
    for (let f = 0; f < FRACTIONAL.length; f++) this.fractions[at * FRACTIONAL.length + f] = scores[FRACTIONAL[f] as number] as number;
    this.verdicts[at] = VERDICTS.indexOf(outcome.verdict.verdict);
    if (outcome.verdict.verdict === 'outdated') this.outdated.set(at, outcome.verdict);
    this.raised[at] = outcome.raisedByAliases;
  }

  /** The kept outcome of slot `at` into `out`, as scoring its item gave it. */
  restore(at: number, gold: WeeklyGold, out: Float64Array): ItemOutcome {
    out.fill(0);
    const bits = this.bits[at] as number;
    for (let b = 0; b < BINARY.length; b++) out[BINARY[b] as number] = (bits >> b) & 1;
    for (let f = 0; f < FRACTIONAL.length; f++) out[FRACTIONAL[f] as number] = this.fractions[at * FRACTIONAL.length + f] as number;
    const name = VERDICTS[this.verdicts[at] as number] as VerdictName;
    const verdict = this.outdated.get(at) ?? OUTCOMES[name];
    const counts = countsOf(gold);
    if (counts === 'value') markVerdict(out, verdict);
    return { counts, verdict, raisedByAliases: this.raised[at] as number };
  }
}

/** How many ids a report lists by name; the counts say how many there are. */
export const SAMPLE_IDS = 20;

/** The columns every group sums: the metrics in registry order, then one indicator per verdict rate. */
const METRICS = WEEKLY_METRICS.length;
const COLUMNS = METRICS + VERDICT_RATES.length;
const EM = WEEKLY_METRICS.findIndex((metric) => metric.name === 'em');
/** The registry's indices of the binary metrics (at most 8: a byte's bits), and of the others. */
const BINARY = WEEKLY_METRICS.flatMap((metric: Metric, m) => (metric.binary === true ? [m] : [])).slice(0, 8);
const FRACTIONAL = WEEKLY_METRICS.flatMap((_metric, m) => (BINARY.includes(m) ? [] : [m]));
const SM = WEEKLY_METRICS.findIndex((metric) => metric.name === 'sm');

/** What scoring one item found besides its scores. */
interface ItemOutcome {
  counts: WeeklyItemScore['counts'];
  verdict: VerdictOutcome;
  /** Metrics an alias raised, as bits in registry order (0: none, or no aliases). */
  raisedByAliases: number;
}

/** The scored forms of texts, kept by whoever scores many items. */
interface Texts {
  text(text: string): ScoredText;
  /** A prediction's: a system often gives a query the same text on many dates, and gives gold texts word for word. */
  prediction(text: string): ScoredText;
  /** The value and aliases of a stretch of the item's timeline (by index). */
  state(gold: WeeklyGold, index: number): readonly ScoredText[];
}

/**
 * Scores one item into `out` (the metrics in registry order, then the verdict indicators) and says
 * how it counts. A gold "no value" (or the empty string) scores 1 on every metric for a no-answer
 * phrase. Every metric is the best over the answer and its aliases; the verdict reads the rest of the
 * timeline only when the prediction is not the current value exactly.
 */
function scoreInto({ gold, prediction }: WeeklyCase, out: Float64Array, texts: Texts): ItemOutcome {
  out.fill(0);
  const counts = countsOf(gold);
  if (counts === 'excluded') return { counts, verdict: NO_VALUE, raisedByAliases: 0 };
  if (counts === 'no_answer') {
    if (prediction !== null && saysNoAnswer(prediction)) out.fill(1, 0, METRICS);
    return { counts, verdict: NO_VALUE, raisedByAliases: 0 };
  }
  const outcome = { counts, verdict: WRONG, raisedByAliases: 0 };
  if (prediction === null) {
    markVerdict(out, WRONG);
    return outcome;
  }
  const { timeline, state } = gold;
  const held = timeline !== undefined && state !== undefined && state >= 0 ? timeline[state] : undefined;
  // The stretch in effect holds the value and its aliases: their forms are made once per stretch, not looked up per item.
  const forms = held !== undefined && held.value === gold.answer && held.aliases === gold.aliases ? texts.state(gold, state as number) : undefined;
  const answer = forms?.[0] ?? texts.text(gold.answer as string);
  // A prediction that is the gold text word for word shares its forms.
  const predicted = prediction === gold.answer ? answer : texts.prediction(prediction);
  for (let m = 0; m < METRICS; m++) out[m] = (WEEKLY_METRICS[m] as (typeof WEEKLY_METRICS)[number]).score(predicted, answer);
  const aliases = forms === undefined ? (gold.aliases ?? NO_ALIASES).map((alias) => texts.text(alias)) : forms;
  for (let a = forms === undefined ? 0 : 1; a < aliases.length; a++) {
    const other = aliases[a] as ScoredText;
    for (let m = 0; m < METRICS; m++) {
      const score = (WEEKLY_METRICS[m] as (typeof WEEKLY_METRICS)[number]).score(predicted, other);
      if (score > (out[m] as number)) {
        out[m] = score;
        outcome.raisedByAliases |= 1 << m;
      }
    }
  }
  // The registry's EM and SM are the two ways a prediction matches a value (./verdicts.ts).
  const currentLevel: MatchLevel = out[EM] === 1 ? 2 : out[SM] === 1 ? 1 : 0;
  outcome.verdict =
    timeline !== undefined && state !== undefined && state >= 0
      ? verdictOf({ prediction: predicted, currentLevel, timeline, current: state, dateMs: instantMs(gold.date), texts: (_, index) => texts.state(gold, index) })
      : currentLevel > 0
        ? CURRENT
        : WRONG;
  markVerdict(out, outcome.verdict);
  return outcome;
}

/** The forms of a stretch's value and its aliases, in that order; none for a stretch without a value. */
function stretchForms(state: AnswerState | undefined, form: (text: string) => ScoredText): readonly ScoredText[] {
  return state === undefined || state.value === null ? [] : [state.value, ...state.aliases].map(form);
}

/** How an item counts: excluded when its gold is unknown, else as a value or as a "no value". */
function countsOf(gold: WeeklyGold): ItemOutcome['counts'] {
  return gold.status === 'unknown' ? 'excluded' : hasValue(gold) ? 'value' : 'no_answer';
}

/** Sets the indicator of a value item's verdict in its scores. */
function markVerdict(out: Float64Array, verdict: VerdictOutcome): void {
  out[METRICS + VERDICT_RATES.indexOf(verdict.verdict as VerdictRate)] = 1;
}

const CURRENT: VerdictOutcome = { verdict: 'current', ageDays: null, changesAgo: null };
const WRONG: VerdictOutcome = { verdict: 'wrong', ageDays: null, changesAgo: null };
/** Each verdict without an age: all but an outdated one's. */
const OUTCOMES = Object.fromEntries(VERDICTS.map((verdict) => [verdict, { verdict, ageDays: null, changesAgo: null }])) as Record<VerdictName, VerdictOutcome>;

function itemScore(item: WeeklyCase, outcome: ItemOutcome, scores: Float64Array): WeeklyItemScore {
  const values = Object.fromEntries(WEEKLY_METRICS.map((metric, m) => [metric.name, scores[m] as number])) as MetricValues;
  return {
    id: item.gold.id,
    date: item.gold.date,
    counts: outcome.counts,
    missing: item.prediction === null,
    ...values,
    verdict: outcome.verdict.verdict,
    age_days: outcome.verdict.ageDays,
    changes_ago: outcome.verdict.changesAgo,
  };
}

/** Scored forms made afresh for each call: for one item at a time. */
const FRESH_TEXTS: Texts = {
  text: (text) => new ScoredText(text),
  prediction: (text) => new ScoredText(text),
  state: (gold, index) => stretchForms(gold.timeline?.[index], (text) => new ScoredText(text)),
};

/**
 * How one prediction scores against its gold.
 *
 * @example weeklyItemScore({ gold: { …, status: 'no_key' }, prediction: 'unknown' }).em === 1
 */
export function weeklyItemScore(item: WeeklyCase): WeeklyItemScore {
  const scores = new Float64Array(COLUMNS);
  return itemScore(item, scoreInto(item, scores, FRESH_TEXTS), scores);
}

/** A gold value a system can match: a status ok and a non-empty answer. */
function hasValue(gold: WeeklyGold): boolean {
  return gold.status === 'ok' && gold.answer !== null && gold.answer !== '';
}

const DAY_MS = 86_400_000;

/**
 * Instants already parsed: a scoring reads the same few dates, and a query's same start, over and
 * over. A date alone (YYYY-MM-DD) parses as its 00:00 UTC, the answer date's instant, so an item's
 * date is looked up as it is, with no instant text built per item.
 */
const instantMs = boundedMemo((text: string) => Date.parse(text), 100_000);

/** Whole days from the change that set the answer in effect to the answer date's instant (D 00:00 UTC); null when no change was seen. */
export function daysSinceChange(date: string, changedAt: string | null): number | null {
  if (changedAt === null) return null;
  return Math.floor((instantMs(date) - instantMs(changedAt)) / DAY_MS);
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

type Breakdown = 'by_domain' | 'by_frequency' | 'by_days_since_change' | 'by_week' | 'by_cutoff';

/** What a scorer knows of the system besides its predictions. */
export interface WeeklyScorerOptions {
  /** A system's training cutoff (YYYY-MM-DD): the report then splits the items before and after it. */
  cutoff?: string | null;
}

/**
 * Adds items one at a time and reports the scores; the same seed gives the same intervals.
 *
 * @example
 * const scorer = new WeeklyScorer();
 * scorer.add({ gold: { id: 'q', date: '2025-01-27', status: 'ok', answer: '3rd', changedAt: null, domain: null, frequency: null, week: null }, prediction: '3rd' });
 * scorer.report({ seed: 1 }).em === 100
 */
export class WeeklyScorer {
  private readonly clusters = new Map<string, number>();
  private lastCluster: { id: string; cluster: number } | undefined;
  private readonly lastGroups: Partial<Record<Breakdown, { key: string; group: ClusteredSums }>> = {};
  private readonly all = new ClusteredSums(COLUMNS);
  private readonly noAnswer = new ClusteredSums(1);
  private readonly breakdowns: Record<Breakdown, Map<string, ClusteredSums>> = {
    by_domain: new Map(),
    by_frequency: new Map([
      ['frequent_update', new ClusteredSums(COLUMNS)],
      ['infrequent_update', new ClusteredSums(COLUMNS)],
    ]),
    by_days_since_change: new Map(),
    by_week: new Map(),
    by_cutoff: new Map(),
  };
  private readonly scores = new Float64Array(COLUMNS);
  /** The scored forms of gold texts: a query's answer is the same text on most of the dates it is scored on. */
  private readonly golds = new Map<string, ScoredText>();
  /** The scored forms of the latest predictions' texts, bounded as the gold's. */
  private readonly predictions = new Map<string, ScoredText>();
  private readonly texts: Texts = { text: (text) => this.goldText(text), prediction: (text) => this.predictionText(text), state: (gold, index) => this.formsOf(gold, index) };
  private scored = 0;
  private unknown = 0;
  private emptyGold = 0;
  private missing = 0;
  private noValue = 0;
  private readonly missingSample: string[] = [];
  private readonly aliasEffect = { items: 0, changed: 0, byMetric: new Array<number>(METRICS).fill(0) };
  private readonly outdatedByAge = new Map<string, number>();
  private readonly outdatedByChanges = new Map<string, number>();
  private outdatedCount = 0;
  private readonly cutoff: string | null;

  constructor(options: WeeklyScorerOptions = {}) {
    this.cutoff = options.cutoff ?? null;
  }

  /**
   * Counts an item whose gold is unknown that the scope does not expect (a date expects only the
   * queries it can answer): excluded from every score, as `add` excludes one, but counted as unknown.
   */
  countUnknown(): void {
    this.unknown++;
  }

  /** Scores an item now and keeps its outcome in slot `at`, to be counted later by `add` with the same slot. */
  keep(item: WeeklyCase, kept: KeptScores, at: number): void {
    kept.set(at, scoreInto(item, this.scores, this.texts), this.scores);
  }

  /**
   * Counts one item (its outcome kept in `kept`'s slot, or scored now); returns its scores when asked
   * (a million items need not each make an object).
   */
  add(item: WeeklyCase, wantScore: true, kept?: KeptSlot): WeeklyItemScore;
  add(item: WeeklyCase, wantScore?: false, kept?: KeptSlot): undefined;
  add(item: WeeklyCase, wantScore = false, kept?: KeptSlot): WeeklyItemScore | undefined {
    const outcome = kept ? kept.scores.restore(kept.at, item.gold, this.scores) : scoreInto(item, this.scores, this.texts);
    const result = wantScore ? itemScore(item, outcome, this.scores) : undefined;
    const { gold } = item;
    if (outcome.counts === 'excluded') {
      this.unknown++;
      return result;
    }
    if (item.prediction === null) {
      this.missing++;
      if (this.missingSample.length < SAMPLE_IDS) this.missingSample.push(`${gold.id} on ${gold.date}`);
    }
    const cluster = this.clusterOf(gold.id);
    if (outcome.counts === 'no_answer') {
      if (gold.status === 'ok') this.emptyGold++;
      this.noValue++;
      this.noAnswer.add(cluster, this.scores);
      return result;
    }
    if (item.prediction !== null) this.scored++;
    this.countAliases(gold, outcome);
    this.countOutdated(outcome.verdict);
    this.all.add(cluster, this.scores);
    this.groupOf('by_domain', gold.domain ?? 'none').add(cluster, this.scores);
    this.groupOf('by_frequency', gold.frequency ?? 'pending').add(cluster, this.scores);
    this.groupOf('by_days_since_change', daysBin(daysSinceChange(gold.date, gold.changedAt))).add(cluster, this.scores);
    this.groupOf('by_week', gold.week ?? 'none').add(cluster, this.scores);
    if (this.cutoff !== null) this.groupOf('by_cutoff', cutoffSide(gold, this.cutoff)).add(cluster, this.scores);
    return result;
  }

  /** Items counted (excluded ones aside). */
  get expected(): number {
    return this.all.n + this.noAnswer.n;
  }

  report(options: WeeklyScoreOptions): WeeklyReport {
    const names = (breakdown: Breakdown) => [...this.breakdowns[breakdown].keys()].sort(ORDER[breakdown]);
    const groups = [this.all, ...BREAKDOWNS.flatMap((breakdown) => names(breakdown).map((name) => this.groupOf(breakdown, name)))];
    // The no-answer rate's group is resampled with the others: one set of draws for all.
    const intervals = clusteredIntervals([...groups, this.noAnswer], this.clusters.size, { seed: options.seed, resamples: options.resamples, ...(options.thread ? { thread: options.thread } : {}) });
    const [noAnswerInterval = [[0, 0] as Interval]] = intervals.splice(groups.length, 1);
    // Each breakdown's groups in the order they were given to the bootstrap, so each takes its own intervals.
    let at = 1;
    const computed = Object.fromEntries(
      BREAKDOWNS.map((name) => [name, Object.fromEntries(names(name).map((key) => [key, groupScores(this.groupOf(name, key), intervals[at++] ?? [])]))]),
    ) as Record<Breakdown, Record<string, GroupScores>>;
    const breakdown = (name: Breakdown): Record<string, GroupScores> => computed[name];
    const noAnswerMean = this.noAnswer.means()[0] ?? 0;
    const byCutoff = breakdown('by_cutoff');
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
      ...(this.cutoff === null ? {} : { by_cutoff: { cutoff: this.cutoff, ...byCutoff } }),
      no_value: this.noValue,
      outdated_detail: {
        n: this.outdatedCount,
        by_age_days: Object.fromEntries([...this.outdatedByAge].sort(([a], [b]) => DAY_BIN_ORDER.indexOf(a) - DAY_BIN_ORDER.indexOf(b))),
        by_changes_ago: Object.fromEntries([...this.outdatedByChanges].sort(([a], [b]) => Number(a) - Number(b))),
      },
      aliases: {
        items: this.aliasEffect.items,
        changed: this.aliasEffect.changed,
        by_metric: Object.fromEntries(WEEKLY_METRICS.map((metric, m) => [metric.name, this.aliasEffect.byMetric[m] ?? 0])) as Record<MetricName, number>,
      },
      missing_sample: [...this.missingSample],
      outside: options.outside ?? { n: 0, sample: [] },
    };
  }

  private countAliases(gold: WeeklyGold, outcome: ItemOutcome): void {
    if ((gold.aliases?.length ?? 0) === 0) return;
    this.aliasEffect.items++;
    if (outcome.raisedByAliases === 0) return;
    this.aliasEffect.changed++;
    for (let m = 0; m < METRICS; m++) if (outcome.raisedByAliases & (1 << m)) this.aliasEffect.byMetric[m] = (this.aliasEffect.byMetric[m] ?? 0) + 1;
  }

  private countOutdated(verdict: VerdictOutcome): void {
    if (verdict.verdict !== 'outdated') return;
    this.outdatedCount++;
    const age = daysBin(verdict.ageDays);
    this.outdatedByAge.set(age, (this.outdatedByAge.get(age) ?? 0) + 1);
    const changes = String(verdict.changesAgo ?? 'unknown');
    this.outdatedByChanges.set(changes, (this.outdatedByChanges.get(changes) ?? 0) + 1);
  }

  private goldText(text: string): ScoredText {
    // Bounded: the forms of the answers of the last queries read, which is what the next dates repeat.
    return keptText(this.golds, text);
  }

  private predictionText(text: string): ScoredText {
    return keptText(this.predictions, text);
  }

  /** A stretch's forms: kept in the item's `forms` when it has them (made once per stretch), else made for the call. */
  private formsOf(gold: WeeklyGold, index: number): readonly ScoredText[] {
    const { forms } = gold;
    if (forms === undefined) return stretchForms(gold.timeline?.[index], (text) => this.goldText(text));
    return (forms[index] ??= stretchForms(gold.timeline?.[index], (text) => this.goldText(text)));
  }

  private clusterOf(id: string): number {
    // A query's items come one after another: its cluster is asked for again and again.
    const last = this.lastCluster;
    if (last?.id === id) return last.cluster;
    let cluster = this.clusters.get(id);
    if (cluster === undefined) {
      cluster = this.clusters.size;
      this.clusters.set(id, cluster);
    }
    this.lastCluster = { id, cluster };
    return cluster;
  }

  private groupOf(breakdown: Breakdown, key: string): ClusteredSums {
    // Most items fall in the group of the item before them in the same breakdown (the same query's domain and week).
    const last = this.lastGroups[breakdown];
    if (last?.key === key) return last.group;
    const groups = this.breakdowns[breakdown];
    let group = groups.get(key);
    if (!group) {
      group = new ClusteredSums(COLUMNS);
      groups.set(key, group);
    }
    this.lastGroups[breakdown] = { key, group };
    return group;
  }
}

/**
 * Where an item falls against a training cutoff: `after` when its answer began on or after it by a
 * change the store saw, `before` when it held before it (seen or not), else `undetermined` (a value in
 * effect since a start not seen that is not before the cutoff: it may be older).
 */
export function cutoffSide(gold: Pick<WeeklyGold, 'changedAt' | 'since'>, cutoff: string): 'before' | 'after' | 'undetermined' {
  if (gold.changedAt !== null) return gold.changedAt >= cutoff ? 'after' : 'before';
  const since = gold.since ?? null;
  return since !== null && since < cutoff ? 'before' : 'undetermined';
}

const TEXTS_KEPT = 100_000;
/** Longer texts are scored each time: repeats are short answers, and 100,000 long replies would hold gigabytes. */
const KEPT_TEXT_CHARS = 256;

/**
 * A text's scored form from a bounded cache: emptied when full, which keeps what the next items repeat
 * at little cost. Written out rather than through boundedMemo: on the million-prediction benchmark the
 * shared memo, whose one closure then serves maps of every key type, cost 2.6 and 0.7 CPU s more in two runs.
 */
function keptText(kept: Map<string, ScoredText>, text: string): ScoredText {
  if (text.length > KEPT_TEXT_CHARS) return new ScoredText(text);
  let scored = kept.get(text);
  if (!scored) {
    if (kept.size >= TEXTS_KEPT) kept.clear();
    scored = new ScoredText(text);
    kept.set(text, scored);
  }
  return scored;
}

const BREAKDOWNS: readonly Breakdown[] = ['by_domain', 'by_frequency', 'by_days_since_change', 'by_week', 'by_cutoff'];
const byName = (a: string, b: string) => a.localeCompare(b);
const CUTOFF_ORDER = ['before', 'after', 'undetermined'];
const ORDER: Record<Breakdown, (a: string, b: string) => number> = {
  by_domain: byName,
  by_frequency: byName,
  by_days_since_change: (a, b) => DAY_BIN_ORDER.indexOf(a) - DAY_BIN_ORDER.indexOf(b),
  by_week: byName,
  by_cutoff: (a, b) => CUTOFF_ORDER.indexOf(a) - CUTOFF_ORDER.indexOf(b),
};

function percentInterval(interval: Interval | undefined): Interval {
  return interval ? [100 * interval[0], 100 * interval[1]] : [0, 0];
}

function groupScores(group: ClusteredSums, intervals: readonly Interval[]): GroupScores {
  const means = group.means();
  const values = Object.fromEntries(MEASURES.map((measure, c) => [measure, 100 * (means[c] ?? 0)])) as Record<Measure, number>;
  const ci = Object.fromEntries(MEASURES.map((measure, c) => [measure, percentInterval(intervals[c])])) as Record<Measure, Interval>;
  return { n: group.n, queries: group.clusters, ...values, ci };
}

/**
 * Scores weekly predictions against their gold answers.
 *
 * @example
 * scoreWeekly([{ gold: { id: 'q', date: '2025-01-27', status: 'ok', answer: '3rd', changedAt: '2025-01-26T22:10:00Z',
 *   domain: 'sports', frequency: 'frequent_update', week: '2025-01-20' }, prediction: '3rd' }], { seed: 1 }).em === 100
 */
export function scoreWeekly(cases: Iterable<WeeklyCase>, options: WeeklyScoreOptions & WeeklyScorerOptions): WeeklyReport {
  const scorer = new WeeklyScorer({ cutoff: options.cutoff ?? null });
  for (const item of cases) scorer.add(item);
  return scorer.report(options);
}

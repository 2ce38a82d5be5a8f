/**
 * The store's gold for scoring: for the weekly dataset, each kept query's answer on a date (the
 * answer rules of docs/ARCHITECTURE.md §5), read for a whole day in one statement; for GrowOVER,
 * the QA items active in a snapshot. Each part is read once however many systems are scored against
 * it (the leaderboard pairs every system's predictions with the same gold).
 */
import { UserError } from '../errors.js';
import { NO_ALIASES, type TimeAxis } from '../model/timelines.js';
import { PUBLISHED_TYPE } from '../release/growoverRelease.js';
import type { ScoringFacts } from '../store/questionStore.js';
import type { Store } from '../store/store.js';
import { answerInstant, answersOverDays, type Answer } from '../timeline/answers.js';
import { unknownAnswersReason } from '../timeline/unknownAnswers.js';
import { stateAt, type ValueTimeline } from '../timeline/valueTimeline.js';
import type { DatedGrowoverGold } from './growoverScores.js';
import type { ScoredText } from './metrics/index.js';
import type { WeeklyGold } from './weeklyScores.js';
import { monthlyCommandFor, requireWholeMonth } from '../runs/monthlyCommand.js';

/**
 * What an evaluation expects (docs/ARCHITECTURE.md §15): on each of its dates, every kept query with
 * a known answer that day (a value or a known absence, as DailyQA's day files hold every query on
 * every day), or, with `week`, every query of that week, those unknown that day counted apart; with
 * `after`, only the items whose answer changed on or after that date.
 */
export interface EvaluationScope {
  /** YYYY-MM-DD, ascending. */
  dates: string[];
  week: string | null;
  /** Only the items whose answer began on or after this date (YYYY-MM-DD) by a change the store saw. */
  after?: string | null;
  /** The time axis whose answers are the gold (docs/ARCHITECTURE.md §16); edit time when absent. */
  axis?: TimeAxis;
}

const STATUSES: ReadonlyArray<WeeklyGold['status']> = ['ok', 'no_key', 'no_page', 'deleted', 'unknown'];

/**
 * One kept query's gold over an evaluation's dates: per date a status and the stretch of its timeline
 * in effect (found once, when the query is read), the value, and the timeline. An evaluation asks
 * for a query's item on each date twice (as its prediction is scored, and as it is counted), a
 * million times over: `into` fills one object the caller reuses.
 */
export class GoldQuery {
  /**
   * Per date, from `at` on: the stretch in effect (-1 for none) shifted left by 3, and the status's
   * index in STATUSES. Many queries' codes share one array (`DayCodes`).
   */
  private readonly codes: Int32Array;
  private readonly at: number;
  private readonly answers: Array<string | null>;
  /** The scored forms of the timeline's stretches, filled by the scorer (`WeeklyGold.forms`). */
  private readonly forms: Array<readonly ScoredText[] | undefined> = [];

  constructor(
    readonly id: string,
    readonly query: string,
    private readonly facts: ScoringFacts,
    private readonly timeline: ValueTimeline,
    answers: readonly Answer[],
    private readonly dates: readonly string[],
    instants: readonly string[],
    codes: DayCodes,
  ) {
    [this.codes, this.at] = codes.take();
    answers.forEach((answer, day) => {
      const state = answer.status === 'unknown' ? -1 : stateAt(timeline, instants[day] as string);
      this.codes[this.at + day] = (state << 3) | STATUSES.indexOf(answer.status);
    });
    this.answers = answers.map((answer) => answer.answer);
  }

  /** Whether the answer on the date (its index in the scope) is outside the history held. */
  unknownOn(day: number): boolean {
    return ((this.codes[this.at + day] as number) & 7) === UNKNOWN;
  }

  /** The item of the date (its index in the scope's dates). */
  on(day: number): WeeklyGold {
    return this.into(day, emptyGold());
  }

  /** The item of the date written into `item`, which is returned: one object serves every item read in turn. */
  into(day: number, item: WeeklyGold): WeeklyGold {
    const code = this.codes[this.at + day] as number;
    const state = code >> 3;
    const held = this.timeline[state];
    item.id = this.id;
    item.date = this.dates[day] as string;
    item.status = STATUSES[code & 7] as WeeklyGold['status'];
    item.answer = this.answers[day] ?? null;
    item.changedAt = held?.seen ? held.from : null;
    item.since = held?.from ?? null;
    item.domain = this.facts.domain;
    item.frequency = this.facts.frequency;
    item.week = this.facts.week;
    item.aliases = held?.aliases ?? NO_ALIASES;
    item.timeline = this.timeline;
    item.state = state;
    item.query = this.query;
    item.forms = this.forms;
    return item;
  }
}

const UNKNOWN = STATUSES.indexOf('unknown');

/** Queries whose day codes one array holds. */
const QUERIES_PER_ARRAY = 1024;

/**
 * The day codes of many queries of one scope, handed out a query's worth at a time from arrays of
 * QUERIES_PER_ARRAY queries: a typed array of its own per query cost more in headers than in codes.
 */
class DayCodes {
  private codes = new Int32Array(0);
  private used = 0;

  constructor(private readonly days: number) {}

  /** A query's codes: the array, and where in it they begin. */
  take(): [Int32Array, number] {
    if (this.used + this.days > this.codes.length) {
      this.codes = new Int32Array(this.days * QUERIES_PER_ARRAY);
      this.used = 0;
    }
    const at = this.used;
    this.used += this.days;
    return [this.codes, at];
  }
}

/** An item with every field present, for `GoldQuery.into` to fill. */
export function emptyGold(): WeeklyGold {
  return { id: '', date: '', status: 'unknown', answer: null, changedAt: null, since: null, domain: null, frequency: null, week: null, aliases: NO_ALIASES, timeline: [], state: -1, query: '', forms: [] };
}

/**
 * The gold a store holds, read on demand and kept: one per store, shared by every system scored on it.
 * `queriesOf`/`expected` give a weekly scope's items, `growoverGold` a snapshot's.
 *
 * @example
 * const gold = new StoreGold(store);
 * gold.expected({ dates: ['2025-01-20'], week: null }).length // the items a system is scored on that day
 * evaluateWeekly(gold, feed, { dates: ['2025-01-20'], week: null }, { seed: 1 });
 * scoreGrowover(gold.growoverGold('2025-04-01').map((item) => ({ gold: item, prediction: replies.get(item.id) ?? null })), { seed: 1 });
 */
export class StoreGold {
  private facts: Map<string, ScoringFacts> | undefined;
  private readonly snapshotGold = new Map<string, DatedGrowoverGold[]>();
  private readonly scopeGold = new Map<string, GoldQuery[]>();

  constructor(private readonly store: Store) {}

  /** Why the scope's answers the store does not know are unknown, and what would make them known. */
  unknownReason(scope: EvaluationScope): string {
    return unknownAnswersReason(this.store, scope.dates, scope.week === null ? {} : { windowStart: `${scope.week}T00:00:00Z` });
  }

  /**
   * Every kept query of the scope (of its week, or all) with its answer on each of the scope's dates,
   * unknown ones included, query by query: the whole range is one pass over the stored intervals, and
   * nothing is held but the query being read.
   */
  private *weeklyGold(scope: EvaluationScope): Generator<WeeklyGold> {
    for (const query of this.weeklyQueries(scope)) for (let day = 0; day < scope.dates.length; day++) yield query.on(day);
  }

  /**
   * The same gold a query at a time, each query's answers kept compactly (a status and a value per
   * date, the stretch in effect found when an item is asked for): what an evaluation holds whole while
   * it pairs predictions with it as they are read.
   */
  private *weeklyQueries(scope: EvaluationScope): Generator<GoldQuery> {
    const facts = (this.facts ??= new Map(this.store.queries.scoringFacts().map((f) => [f.id, f])));
    const options = { ...(scope.week === null ? {} : { windowStart: `${scope.week}T00:00:00Z` }), axis: scope.axis ?? 'edit', timelines: true as const };
    const instants = scope.dates.map(answerInstant);
    const codes = new DayCodes(scope.dates.length);
    for (const query of answersOverDays(this.store, scope.dates, options)) {
      const f = facts.get(query.id);
      if (!f) continue;
      yield new GoldQuery(query.id, query.query, f, query.timeline, query.answers, scope.dates, instants, codes);
    }
  }

  /** The scope's gold queries held whole, read once however many systems are scored on the scope (the leaderboard). */
  queriesOf(scope: EvaluationScope): readonly GoldQuery[] {
    const key = JSON.stringify([scope.dates, scope.week, scope.axis ?? 'edit']);
    let queries = this.scopeGold.get(key);
    if (!queries) {
      queries = [...this.weeklyQueries(scope)];
      this.scopeGold.set(key, queries);
    }
    return queries;
  }

  /** The items a scope expects: its queries whose answer that day is known. What a baseline answers, and an evaluation scores. */
  expected(scope: EvaluationScope): WeeklyGold[] {
    return [...this.weeklyGold(scope)].filter((item) => item.status !== 'unknown');
  }

  /**
   * Every QA item active in the snapshot, with its question and the day of the snapshot that made it.
   *
   * @throws UserError for a snapshot the store does not hold, whose monthly run stopped part way (E_PREREQUISITE_MISSING), or without a QA item (E_NOTHING_TO_SCORE)
   */
  growoverGold(snapshot: string): DatedGrowoverGold[] {
    let gold = this.snapshotGold.get(snapshot);
    if (!gold) {
      if (!this.store.snapshots.snapshot(snapshot)) throw new UserError('E_SNAPSHOT_NOT_FOUND', `no snapshot named "${snapshot}"`);
      requireWholeMonth(this.store, snapshot);
      // Items are made by a few snapshots: each one's day read once.
      const days = new Map<string, string>();
      const dayOf = (made: string) => {
        let day = days.get(made);
        if (day === undefined) days.set(made, (day = this.store.growover.date(made)));
        return day;
      };
      gold = this.store.growover.qaAt(snapshot).flatMap((row) => {
        if (row.now === null) return [];
        const type = PUBLISHED_TYPE[row.now.type];
        return [{ id: row.id, type, answer: row.answer, oldAnswer: row.oldAnswer, question: row.question, madeOn: dayOf(row.snapshot) }];
      });
      if (gold.length === 0) throw new UserError('E_NOTHING_TO_SCORE', `nothing to score: no QA item is active in snapshot "${snapshot}" (run ${monthlyCommandFor(this.store, snapshot)} first)`);
      this.snapshotGold.set(snapshot, gold);
    }
    return gold;
  }
}

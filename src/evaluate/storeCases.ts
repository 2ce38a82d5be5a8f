/**
 * The store's gold for scoring: for the weekly dataset, each kept query's answer on a date (the
 * answer rules of docs/ARCHITECTURE.md §5), read for a whole day in one statement; for GrowOVER,
 * the QA items active in a snapshot. Each part is read once however many systems are scored against
 * it (the leaderboard pairs every system's predictions with the same gold).
 */
import type { Database } from 'better-sqlite3';
import { UserError } from '../errors.js';
import { PUBLISHED_TYPE } from '../release/growoverRelease.js';
import { GrowoverStore } from '../store/growoverStore.js';
import { QueryStore, type ScoringFacts } from '../store/questionStore.js';
import { SnapshotStore } from '../store/snapshotStore.js';
import { answerInstant, answersOverDays, type Answer, type TimeAxis } from '../timeline/answers.js';
import { stateAt } from '../timeline/valueTimeline.js';
import type { GrowoverGold } from './growoverScores.js';
import type { WeeklyGold } from './weeklyScores.js';

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
}

const NO_ALIASES: readonly string[] = Object.freeze([]);

export class StoreGold {
  private facts: Map<string, ScoringFacts> | undefined;
  private readonly snapshotGold = new Map<string, GrowoverGold[]>();

  /** On `axis` (edit time by default; world time: docs/ARCHITECTURE.md §16) the answers are read from. */
  constructor(
    private readonly db: Database,
    private readonly axis: TimeAxis = 'edit',
  ) {}

  /**
   * Every kept query of the scope (of its week, or all) with its answer on each of the scope's dates,
   * unknown ones included, query by query: the whole range is one pass over the stored intervals, and
   * nothing is held but the query being read.
   */
  *weeklyGold(scope: EvaluationScope): Generator<WeeklyGold> {
    const facts = (this.facts ??= new Map(new QueryStore(this.db).scoringFacts().map((f) => [f.id, f])));
    const options = { ...(scope.week === null ? {} : { windowStart: `${scope.week}T00:00:00Z` }), axis: this.axis, timelines: true as const };
    const instants = scope.dates.map(answerInstant);
    for (const query of answersOverDays(this.db, scope.dates, options)) {
      const f = facts.get(query.id);
      if (!f) continue;
      const { timeline } = query;
      for (let day = 0; day < scope.dates.length; day++) {
        const answer = query.answers[day] as Answer;
        const state = answer.status === 'unknown' ? -1 : stateAt(timeline, instants[day] as string);
        const held = timeline[state];
        yield {
          id: query.id,
          date: scope.dates[day] as string,
          status: answer.status,
          answer: answer.answer,
          changedAt: held?.seen ? held.from : null,
          since: held?.from ?? null,
          domain: f.domain,
          frequency: f.frequency,
          week: f.week,
          aliases: held?.aliases ?? NO_ALIASES,
          timeline,
          state,
          query: query.query,
        };
      }
    }
  }

  /** The items a scope expects: its queries whose answer that day is known. What a baseline answers, and an evaluation scores. */
  expected(scope: EvaluationScope): WeeklyGold[] {
    return [...this.weeklyGold(scope)].filter((item) => item.status !== 'unknown');
  }

  /** Every QA item active in the snapshot. */
  growoverGold(snapshot: string): GrowoverGold[] {
    let gold = this.snapshotGold.get(snapshot);
    if (!gold) {
      if (!new SnapshotStore(this.db).snapshot(snapshot)) throw new UserError(`no snapshot named "${snapshot}"`);
      gold = new GrowoverStore(this.db).qaAt(snapshot).flatMap((row) => {
        if (row.now === null) return [];
        const type = PUBLISHED_TYPE[row.now.type];
        return [{ id: row.id, type, answer: row.answer, oldAnswer: type === 'CHANGED' ? row.oldAnswer : null }];
      });
      this.snapshotGold.set(snapshot, gold);
    }
    return gold;
  }
}

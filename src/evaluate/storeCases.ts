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
import { answersOnDate } from '../timeline/answers.js';
import type { GrowoverGold } from './growoverScores.js';
import type { WeeklyGold } from './weeklyScores.js';

/**
 * What one date of an evaluation expects: every kept query with a known answer that day (a value or
 * a known absence, as DailyQA's day files hold every query on every day), or, with `week`, that
 * week's queries, those whose answer is unknown that day counted apart.
 */
export interface EvaluationSlot {
  date: string;
  week: string | null;
}

export class StoreGold {
  private facts: Map<string, ScoringFacts> | undefined;
  private readonly slotGold = new Map<string, WeeklyGold[]>();
  private readonly snapshotGold = new Map<string, GrowoverGold[]>();

  constructor(private readonly db: Database) {}

  /** Every kept query of the slot (of its week, or all) with its answer on the slot's date, unknown ones included. */
  weeklyGold(slot: EvaluationSlot): WeeklyGold[] {
    const key = `${slot.date}\u0000${slot.week ?? ''}`;
    let gold = this.slotGold.get(key);
    if (!gold) {
      const facts = (this.facts ??= new Map(new QueryStore(this.db).scoringFacts().map((f) => [f.id, f])));
      const rows = answersOnDate(this.db, slot.date, slot.week === null ? {} : { windowStart: `${slot.week}T00:00:00Z` });
      gold = rows.flatMap((row) => {
        const f = facts.get(row.id);
        if (!f) return [];
        return [{ id: row.id, date: slot.date, status: row.status, answer: row.answer, validFrom: row.valid_from, domain: f.domain, frequency: f.frequency, week: f.week }];
      });
      this.slotGold.set(key, gold);
    }
    return gold;
  }

  /** The items a slot expects: its queries whose answer that day is known. What a baseline answers, and an evaluation scores. */
  expected(slot: EvaluationSlot): WeeklyGold[] {
    return this.weeklyGold(slot).filter((item) => item.status !== 'unknown');
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

/**
 * Predictions paired with the store's gold: for the weekly dataset, each kept query's answer on the
 * date a prediction answers for (the answer rules of docs/ARCHITECTURE.md §5); for GrowOVER, the QA
 * items active in a snapshot. The expected items are those of the weeks (or snapshot) the
 * predictions refer to, so an item left out counts as missing; ids the store does not know are
 * set aside to be reported.
 */
import type { Database } from 'better-sqlite3';
import { UserError } from '../errors.js';
import { PUBLISHED_TYPE } from '../release/growoverRelease.js';
import { GrowoverStore } from '../store/growoverStore.js';
import { QueryStore, type ScoringFacts } from '../store/questionStore.js';
import { SnapshotStore } from '../store/snapshotStore.js';
import { answerQuery, type TimeAxis } from '../timeline/answers.js';
import type { GrowoverCase, GrowoverGold } from './growoverScores.js';
import type { Prediction } from './predictions.js';
import type { WeeklyCase, WeeklyGold } from './weeklyScores.js';

/**
 * The store's gold, each part read once however many systems are scored against it (the
 * leaderboard pairs every system's predictions with the same gold).
 */
export class StoreGold {
  private weeks: { facts: Map<string, ScoringFacts>; byWeek: Map<string, ScoringFacts[]> } | undefined;
  private readonly weekGold = new Map<string, WeeklyGold[]>();
  private readonly snapshotGold = new Map<string, GrowoverGold[]>();

  /** `axis`: the time axis whose answers are the gold (docs/ARCHITECTURE.md §16), edit time unless asked. */
  constructor(
    private readonly db: Database,
    private readonly axis: TimeAxis = 'edit',
  ) {}

  /**
   * Weekly cases for predictions answering on `date` (or on each line's own date, which wins): every
   * kept query of the weeks predicted for that date, with its prediction or null.
   */
  weeklyCases(predictions: readonly Prediction[], date: string | null): { cases: WeeklyCase[]; unknownIds: string[]; dates: string[] } {
    const { facts } = this.scoringFacts();
    const unknownIds = new Set<string>();
    const byDate = new Map<string, Map<string, string>>();
    for (const p of predictions) {
      const day = p.date ?? date;
      if (day === null) throw new UserError(`the prediction for "${p.id}" names no date: give --date D or a "date" on each line`);
      if (!facts.has(p.id)) {
        unknownIds.add(p.id);
        continue;
      }
      let predicted = byDate.get(day);
      if (!predicted) byDate.set(day, (predicted = new Map()));
      predicted.set(p.id, p.prediction);
    }
    const cases: WeeklyCase[] = [];
    const dates = [...byDate.keys()].sort();
    for (const day of dates) {
      const predicted = byDate.get(day) as Map<string, string>;
      const weeks = new Set([...predicted.keys()].map((id) => facts.get(id)?.week ?? ''));
      for (const week of [...weeks].sort()) {
        for (const gold of this.goldOfWeek(week, day)) cases.push({ gold, prediction: predicted.get(gold.id) ?? null });
      }
    }
    return { cases, unknownIds: [...unknownIds], dates };
  }

  /** GrowOVER cases: every QA item active in the snapshot, with its prediction or null. */
  growoverCases(snapshot: string, predictions: readonly Prediction[]): { cases: GrowoverCase[]; unknownIds: string[] } {
    const predicted = new Map(predictions.map((p) => [p.id, p.prediction]));
    const cases = this.goldOfSnapshot(snapshot).map((gold) => ({ gold, prediction: predicted.get(gold.id) ?? null }));
    for (const { gold } of cases) predicted.delete(gold.id);
    return { cases, unknownIds: [...predicted.keys()] };
  }

  private scoringFacts(): { facts: Map<string, ScoringFacts>; byWeek: Map<string, ScoringFacts[]> } {
    if (this.weeks) return this.weeks;
    const facts = new Map(new QueryStore(this.db).scoringFacts().map((f) => [f.id, f]));
    const byWeek = new Map<string, ScoringFacts[]>();
    for (const f of facts.values()) {
      const week = byWeek.get(f.week ?? '');
      if (week) week.push(f);
      else byWeek.set(f.week ?? '', [f]);
    }
    this.weeks = { facts, byWeek };
    return this.weeks;
  }

  /** Every kept query of a week with its answer on the day. */
  private goldOfWeek(week: string, day: string): WeeklyGold[] {
    const key = `${week}\u0000${day}`;
    let gold = this.weekGold.get(key);
    if (!gold) {
      gold = (this.scoringFacts().byWeek.get(week) ?? []).map((f) => {
        const answer = answerQuery(this.db, f.id, day, this.axis);
        return { id: f.id, date: day, status: answer.status, answer: answer.answer, validFrom: answer.valid_from, domain: f.domain, frequency: f.frequency, week: f.week };
      });
      this.weekGold.set(key, gold);
    }
    return gold;
  }

  private goldOfSnapshot(snapshot: string): GrowoverGold[] {
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

/** One system's weekly cases (StoreGold.weeklyCases), for a single scoring. */
export function weeklyCasesFromStore(
  db: Database,
  predictions: readonly Prediction[],
  date: string | null,
  axis: TimeAxis = 'edit',
): { cases: WeeklyCase[]; unknownIds: string[]; dates: string[] } {
  return new StoreGold(db, axis).weeklyCases(predictions, date);
}

/** One system's GrowOVER cases (StoreGold.growoverCases), for a single scoring. */
export function growoverCasesFromStore(db: Database, snapshot: string, predictions: readonly Prediction[]): { cases: GrowoverCase[]; unknownIds: string[] } {
  return new StoreGold(db).growoverCases(snapshot, predictions);
}

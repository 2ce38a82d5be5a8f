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
import { answerQuery } from '../timeline/answers.js';
import type { GrowoverCase } from './growoverScores.js';
import type { Prediction } from './predictions.js';
import type { WeeklyCase } from './weeklyScores.js';

/**
 * Weekly cases for predictions answering on `date` (or on each line's own date, which wins): every
 * kept query of the weeks predicted for that date, with its prediction or null.
 */
export function weeklyCasesFromStore(
  db: Database,
  predictions: readonly Prediction[],
  date: string | null,
): { cases: WeeklyCase[]; unknownIds: string[]; dates: string[] } {
  const facts = new Map(new QueryStore(db).scoringFacts().map((f) => [f.id, f]));
  const byWeek = new Map<string, ScoringFacts[]>();
  for (const f of facts.values()) {
    const week = byWeek.get(f.week ?? '');
    if (week) week.push(f);
    else byWeek.set(f.week ?? '', [f]);
  }
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
      for (const f of byWeek.get(week) ?? []) {
        const answer = answerQuery(db, f.id, day);
        cases.push({
          gold: {
            id: f.id,
            date: day,
            status: answer.status,
            answer: answer.answer,
            validFrom: answer.valid_from,
            domain: f.domain,
            frequency: f.frequency,
            week: f.week,
          },
          prediction: predicted.get(f.id) ?? null,
        });
      }
    }
  }
  return { cases, unknownIds: [...unknownIds], dates };
}

/** GrowOVER cases: every QA item active in the snapshot, with its prediction or null. */
export function growoverCasesFromStore(
  db: Database,
  snapshot: string,
  predictions: readonly Prediction[],
): { cases: GrowoverCase[]; unknownIds: string[] } {
  if (!new SnapshotStore(db).snapshot(snapshot)) throw new UserError(`no snapshot named "${snapshot}"`);
  const predicted = new Map(predictions.map((p) => [p.id, p.prediction]));
  const cases: GrowoverCase[] = [];
  for (const row of new GrowoverStore(db).qaAt(snapshot)) {
    if (row.now === null) continue;
    const type = PUBLISHED_TYPE[row.now.type];
    cases.push({
      gold: { id: row.id, type, answer: row.answer, oldAnswer: type === 'CHANGED' ? row.oldAnswer : null },
      prediction: predicted.get(row.id) ?? null,
    });
    predicted.delete(row.id);
  }
  return { cases, unknownIds: [...predicted.keys()] };
}

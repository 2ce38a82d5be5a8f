/**
 * A system's weekly (DailyQA / RealTimeQA) scores from predictions already paired with the stored
 * answers: EM, F1 and SM over the items whose gold is a value, with missing predictions counted as
 * wrong; gold "no value" items scored apart by the no-answer phrases; gold `unknown` excluded and
 * counted; breakdowns by domain, update frequency, days since the answer last changed and week;
 * seeded bootstrap intervals. Pure: the shell pairs predictions with gold through the store.
 */
import { bootstrapIntervals } from './bootstrap.js';
import { squadScores, subsetMatch } from './metrics.js';
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

export interface GroupScores {
  n: number;
  em: number;
  f1: number;
  sm: number;
}

export interface WeeklyReport extends GroupScores {
  /** Items with a gold value and a prediction. */
  scored: number;
  /** Items with a gold value (or a gold "no value") and no prediction; counted as wrong. */
  missing: number;
  /** Items whose gold is `unknown` (outside the history held): excluded from every score. */
  unknown: number;
  ci: { em: [number, number]; f1: [number, number]; sm: [number, number] };
  /** Gold "no value" (no_key, no_page, deleted): correct when the prediction is a no-answer phrase. */
  no_answer: { n: number; correct: number; accuracy: number };
  by_domain: Record<string, GroupScores>;
  by_frequency: Record<string, GroupScores>;
  by_days_since_change: Record<string, GroupScores>;
  by_week: Record<string, GroupScores>;
  missing_ids: string[];
  /** Prediction ids the store does not know: reported, not scored. */
  unknown_ids: string[];
}

export interface WeeklyScoreOptions {
  seed: number | string;
  resamples?: number;
  unknownIds?: readonly string[];
}

/** One item's outcome: how it counts (a value, a "no value", or excluded) and its scores. */
export interface WeeklyItemScore {
  id: string;
  date: string;
  counts: 'value' | 'no_answer' | 'excluded';
  missing: boolean;
  /** EM, F1 and SM against the value; for a "no value" gold, EM = F1 = SM = 1 when a no-answer phrase was given. */
  em: number;
  f1: number;
  sm: number;
}

/**
 * How one prediction scores against its gold.
 *
 * @example weeklyItemScore({ gold: { …, status: 'no_key' }, prediction: 'unknown' }).em === 1
 */
export function weeklyItemScore({ gold, prediction }: WeeklyCase): WeeklyItemScore {
  const base = { id: gold.id, date: gold.date, missing: prediction === null, em: 0, f1: 0, sm: 0 };
  if (gold.status === 'unknown') return { ...base, counts: 'excluded' };
  if (gold.status !== 'ok') {
    const said = prediction !== null && saysNoAnswer(prediction) ? 1 : 0;
    return { ...base, counts: 'no_answer', em: said, f1: said, sm: said };
  }
  if (prediction === null) return { ...base, counts: 'value' };
  const squad = squadScores(prediction, gold.answer ?? '');
  return { ...base, counts: 'value', em: squad.em, f1: squad.f1, sm: subsetMatch(prediction, gold.answer ?? '') };
}

const DAY_MS = 86_400_000;

/** Whole days from the start of the value in effect to the answer date's instant (D 00:00 UTC). */
export function daysSinceChange(date: string, validFrom: string | null): number | null {
  if (validFrom === null) return null;
  return Math.floor((Date.parse(`${date}T00:00:00Z`) - Date.parse(validFrom)) / DAY_MS);
}

class Accumulator {
  n = 0;
  em = 0;
  f1 = 0;
  sm = 0;
  add(em: number, f1: number, sm: number): void {
    this.n++;
    this.em += em;
    this.f1 += f1;
    this.sm += sm;
  }
  scores(): GroupScores {
    const mean = (sum: number) => (this.n === 0 ? 0 : sum / this.n);
    return { n: this.n, em: mean(this.em), f1: mean(this.f1), sm: mean(this.sm) };
  }
}

function groupsOf(groups: Map<string, Accumulator>, order: (a: string, b: string) => number): Record<string, GroupScores> {
  return Object.fromEntries([...groups].sort(([a], [b]) => order(a, b)).map(([key, acc]) => [key, acc.scores()]));
}

function accumulatorFor(groups: Map<string, Accumulator>, key: string): Accumulator {
  let acc = groups.get(key);
  if (!acc) {
    acc = new Accumulator();
    groups.set(key, acc);
  }
  return acc;
}

/**
 * Scores weekly predictions against their gold answers.
 *
 * @example
 * scoreWeekly([{ gold: { id: 'q', date: '2025-01-27', status: 'ok', answer: '3rd', validFrom: '2025-01-26T22:10:00Z',
 *   domain: 'sports', frequency: 'frequent_update', week: '2025-01-20' }, prediction: '3rd' }], { seed: 1 }).em === 1
 */
export function scoreWeekly(cases: readonly WeeklyCase[], options: WeeklyScoreOptions): WeeklyReport {
  const total = new Accumulator();
  const byDomain = new Map<string, Accumulator>();
  const byFrequency = new Map<string, Accumulator>([
    ['frequent_update', new Accumulator()],
    ['infrequent_update', new Accumulator()],
  ]);
  const byDays = new Map<string, Accumulator>();
  const byWeek = new Map<string, Accumulator>();
  const valued = cases.filter((c) => c.gold.status === 'ok');
  const columns = { em: new Float64Array(valued.length), f1: new Float64Array(valued.length), sm: new Float64Array(valued.length) };
  const missingIds: string[] = [];
  let scored = 0;
  let unknown = 0;
  const noAnswer = { n: 0, correct: 0 };

  let row = 0;
  for (const item of cases) {
    const { gold } = item;
    const { counts, missing, em, f1, sm } = weeklyItemScore(item);
    if (counts === 'excluded') {
      unknown++;
      continue;
    }
    if (missing) missingIds.push(gold.id);
    if (counts === 'no_answer') {
      noAnswer.n++;
      noAnswer.correct += em;
      continue;
    }
    if (!missing) scored++;
    columns.em[row] = em;
    columns.f1[row] = f1;
    columns.sm[row] = sm;
    row++;
    total.add(em, f1, sm);
    accumulatorFor(byDomain, gold.domain ?? 'none').add(em, f1, sm);
    accumulatorFor(byFrequency, gold.frequency ?? 'pending').add(em, f1, sm);
    accumulatorFor(byDays, String(daysSinceChange(gold.date, gold.validFrom) ?? 'unknown')).add(em, f1, sm);
    accumulatorFor(byWeek, gold.week ?? 'none').add(em, f1, sm);
  }
  const byNumber = (a: string, b: string) => (Number(a) || 0) - (Number(b) || 0) || a.localeCompare(b);
  return {
    ...total.scores(),
    scored,
    missing: missingIds.length,
    unknown,
    ci: bootstrapIntervals(columns, { seed: options.seed, resamples: options.resamples }),
    no_answer: { ...noAnswer, accuracy: noAnswer.n === 0 ? 0 : noAnswer.correct / noAnswer.n },
    by_domain: groupsOf(byDomain, (a, b) => a.localeCompare(b)),
    by_frequency: groupsOf(byFrequency, (a, b) => a.localeCompare(b)),
    by_days_since_change: groupsOf(byDays, byNumber),
    by_week: groupsOf(byWeek, (a, b) => a.localeCompare(b)),
    missing_ids: missingIds,
    unknown_ids: [...(options.unknownIds ?? [])],
  };
}

/**
 * A system's GrowOVER QA scores on one snapshot, as GrowOVER's scorer computes them: EM and F1 (its
 * normalisation, first line, 50 tokens) for ALL items, for SAME, NEW and CHANGED items against their
 * current answer, and CHANGED_DEL: CHANGED items scored against their OLD answer, i.e. how often a
 * system still gives the answer that is no longer true (lower is better). Each in percent with a 95%
 * bootstrap interval over the snapshot's items, which are independent (one snapshot holds an item
 * once; snapshots are reported apart, never pooled). Beside them, each item's verdict as the weekly
 * data has it (docs/ARCHITECTURE.md §15): `current` when the reply matches the answer, `outdated` when
 * it matches the item's old answer instead (CHANGED_DEL, generalised: also on an item made CHANGED in an
 * earlier month and kept since), `wrong` otherwise;
 * matched on the first line of the reply, the part GrowOVER's scorer reads. Pure: the shell pairs the
 * predictions with the stored items.
 */
import { bootstrapIntervals, type Interval } from './bootstrap.js';
import { growoverReply, growoverScores } from './metrics.js';
import { ScoredText } from './metrics/scoredText.js';
import { matchLevel, verdictOf, type VerdictOutcome } from './verdicts.js';
import { SAMPLE_IDS } from './weeklyScores.js';

/** A GrowOVER QA item's gold: its published type and answer (and the old answer of a CHANGED item). */
export interface GrowoverGold {
  id: string;
  type: 'SAME' | 'NEW' | 'CHANGED';
  answer: string;
  /**
   * The answer before the change: on CHANGED items, and on items made CHANGED in an earlier month and
   * kept since (SAME now), whose old answer is still one that held before.
   */
  oldAnswer: string | null;
}

/** A stored GrowOVER item's gold with what a judge reads besides: its question, and when its answer is dated. */
export interface DatedGrowoverGold extends GrowoverGold {
  question: string;
  /**
   * The day (YYYY-MM-DD) of the snapshot whose generation made the item: its answer held then, and
   * an item with an old answer held that one until then. Empty when the store cannot date it.
   */
  madeOn: string;
}

/** One GrowOVER item paired with the system's reply to it. */
export interface GrowoverCase {
  gold: GrowoverGold;
  /** Null: no prediction for this item; scored as an empty reply (0), as the scorer scores one. */
  prediction: string | null;
}

export type GrowoverGroup = 'ALL' | 'SAME' | 'NEW' | 'CHANGED' | 'CHANGED_DEL';

/** The verdicts a GrowOVER item can have: there is no later value to leak. */
export const GROWOVER_VERDICTS = ['current', 'outdated', 'wrong'] as const;
type GrowoverVerdict = (typeof GROWOVER_VERDICTS)[number];
type GrowoverMeasure = 'em' | 'f1' | GrowoverVerdict;

export type GrowoverGroupScores = Record<GrowoverMeasure, number> & {
  n: number;
  ci: Record<GrowoverMeasure, Interval>;
};

export type GrowoverReport = Record<GrowoverGroup, GrowoverGroupScores> & {
  missing: number;
  missing_sample: string[];
  outside: { n: number; sample: string[] };
};

const GROUPS: readonly GrowoverGroup[] = ['ALL', 'SAME', 'NEW', 'CHANGED', 'CHANGED_DEL'];

/**
 * Scores a GrowOVER system's replies: EM and F1 as GrowOVER's scorer counts them, and the share of
 * current, outdated and wrong verdicts, for all items and per item type, each with a 95% bootstrap
 * interval over the items.
 *
 * @param cases - each gold item with the system's reply to it (null: no reply, scored as empty and counted missing)
 * @param options - `seed` for the bootstrap (same seed, same intervals), `resamples` (default 1000),
 *   `outside`: the ids predicted that the gold does not hold, reported by count and sample
 * @returns per group (`ALL`, `SAME`, `NEW`, `CHANGED`, `CHANGED_DEL`) the rates in per cent with their n
 *   and intervals, and the missing and outside ids
 * @example
 * scoreGrowover([{ gold: { id: 'a', type: 'CHANGED', answer: '12', oldAnswer: '11' }, prediction: '11' }], { seed: 1 }).CHANGED_DEL.em === 100
 */
export function scoreGrowover(cases: readonly GrowoverCase[], options: { seed: number | string; resamples?: number; outside?: string[] }): GrowoverReport {
  const columns = new Map<GrowoverGroup, Record<GrowoverMeasure, number[]>>(GROUPS.map((group) => [group, { em: [], f1: [], current: [], outdated: [], wrong: [] }]));
  const add = (group: GrowoverGroup, scores: { em: number; f1: number }, verdict: GrowoverVerdict) => {
    const column = columns.get(group) as Record<GrowoverMeasure, number[]>;
    column.em.push(scores.em);
    column.f1.push(scores.f1);
    for (const name of GROWOVER_VERDICTS) column[name].push(name === verdict ? 1 : 0);
  };
  const missing: string[] = [];
  for (const { gold, prediction } of cases) {
    if (prediction === null) missing.push(gold.id);
    const text = prediction ?? '';
    const current = growoverScores(text, gold.answer);
    const verdict = growoverVerdict(gold, prediction).verdict as GrowoverVerdict;
    add('ALL', current, verdict);
    add(gold.type, current, verdict);
    if (gold.type === 'CHANGED') add('CHANGED_DEL', growoverScores(text, gold.oldAnswer ?? ''), verdict);
  }
  const report = Object.fromEntries(
    GROUPS.map((group) => {
      const column = columns.get(group) as Record<GrowoverMeasure, number[]>;
      const measures = Object.keys(column) as GrowoverMeasure[];
      const ci = bootstrapIntervals(
        Object.fromEntries(measures.map((name) => [name, Float64Array.from(column[name])])) as Record<GrowoverMeasure, Float64Array>,
        { seed: options.seed, resamples: options.resamples },
      );
      const mean = (values: number[]) => (values.length === 0 ? 0 : (100 * values.reduce((sum, value) => sum + value, 0)) / values.length);
      const percent = ([low, high]: Interval): Interval => [100 * low, 100 * high];
      const values = Object.fromEntries(measures.map((name) => [name, mean(column[name])]));
      return [group, { n: column.em.length, ...values, ci: Object.fromEntries(measures.map((name) => [name, percent(ci[name])])) }];
    }),
  ) as Record<GrowoverGroup, GrowoverGroupScores>;
  const outside = options.outside ?? [];
  return { ...report, missing: missing.length, missing_sample: missing.slice(0, SAMPLE_IDS), outside: { n: outside.length, sample: outside.slice(0, SAMPLE_IDS) } };
}

/**
 * An item's verdict: the reply's first line matched (as the weekly verdicts match, EM then SM) with the
 * answer, and for an item with an old answer (CHANGED now or in an earlier month) with that too, one change ago.
 *
 * @example growoverVerdict({ id: 'c', type: 'CHANGED', answer: '12', oldAnswer: '11' }, '11').verdict === 'outdated'
 */
export function growoverVerdict(gold: GrowoverGold, prediction: string | null): VerdictOutcome {
  if (prediction === null) return { verdict: 'wrong', ageDays: null, changesAgo: null };
  const reply = new ScoredText(growoverReply(prediction));
  const answer = new ScoredText(gold.answer);
  const current = { value: gold.answer, aliases: [], from: '', to: null, seen: true };
  const timeline = gold.oldAnswer !== null ? [{ value: gold.oldAnswer, aliases: [], from: '', to: null, seen: false }, current] : [current];
  return verdictOf({
    prediction: reply,
    currentLevel: matchLevel(reply, [answer]),
    timeline,
    current: timeline.length - 1,
    dateMs: 0,
    texts: (state) => (state.value === null ? [] : [new ScoredText(state.value)]),
  });
}

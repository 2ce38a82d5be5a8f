/**
 * A system's GrowOVER QA scores on one snapshot, as GrowOVER's scorer computes them: EM and F1 (its
 * normalisation, first line, 50 tokens) for ALL items, for SAME, NEW and CHANGED items against their
 * current answer, and CHANGED_DEL: CHANGED items scored against their OLD answer, i.e. how often a
 * system still gives the answer that is no longer true (lower is better). Each in percent with a 95%
 * bootstrap interval over the snapshot's items, which are independent (one snapshot holds an item
 * once; snapshots are reported apart, never pooled). Pure: the shell pairs the predictions with the
 * stored items.
 */
import { bootstrapIntervals, type Interval } from './bootstrap.js';
import { growoverScores } from './metrics.js';
import { SAMPLE_IDS } from './weeklyScores.js';

export interface GrowoverGold {
  id: string;
  type: 'SAME' | 'NEW' | 'CHANGED';
  answer: string;
  /** The answer before the change, on CHANGED items. */
  oldAnswer: string | null;
}

export interface GrowoverCase {
  gold: GrowoverGold;
  /** Null: no prediction for this item; scored as an empty reply (0), as the scorer scores one. */
  prediction: string | null;
}

export type GrowoverGroup = 'ALL' | 'SAME' | 'NEW' | 'CHANGED' | 'CHANGED_DEL';

export interface GrowoverGroupScores {
  n: number;
  em: number;
  f1: number;
  ci: { em: Interval; f1: Interval };
}

export type GrowoverReport = Record<GrowoverGroup, GrowoverGroupScores> & {
  missing: number;
  missing_sample: string[];
  outside: { n: number; sample: string[] };
};

const GROUPS: readonly GrowoverGroup[] = ['ALL', 'SAME', 'NEW', 'CHANGED', 'CHANGED_DEL'];

/**
 * @example
 * scoreGrowover([{ gold: { id: 'a', type: 'CHANGED', answer: '12', oldAnswer: '11' }, prediction: '11' }], { seed: 1 }).CHANGED_DEL.em === 100
 */
export function scoreGrowover(cases: readonly GrowoverCase[], options: { seed: number | string; resamples?: number; outside?: string[] }): GrowoverReport {
  const columns = new Map<GrowoverGroup, { em: number[]; f1: number[] }>(GROUPS.map((group) => [group, { em: [], f1: [] }]));
  const add = (group: GrowoverGroup, scores: { em: number; f1: number }) => {
    const column = columns.get(group) as { em: number[]; f1: number[] };
    column.em.push(scores.em);
    column.f1.push(scores.f1);
  };
  const missing: string[] = [];
  for (const { gold, prediction } of cases) {
    if (prediction === null) missing.push(gold.id);
    const text = prediction ?? '';
    const current = growoverScores(text, gold.answer);
    add('ALL', current);
    add(gold.type, current);
    if (gold.type === 'CHANGED') add('CHANGED_DEL', growoverScores(text, gold.oldAnswer ?? ''));
  }
  const report = Object.fromEntries(
    GROUPS.map((group) => {
      const { em, f1 } = columns.get(group) as { em: number[]; f1: number[] };
      const ci = bootstrapIntervals({ em: Float64Array.from(em), f1: Float64Array.from(f1) }, { seed: options.seed, resamples: options.resamples });
      const mean = (values: number[]) => (values.length === 0 ? 0 : (100 * values.reduce((sum, value) => sum + value, 0)) / values.length);
      const percent = ([low, high]: Interval): Interval => [100 * low, 100 * high];
      return [group, { n: em.length, em: mean(em), f1: mean(f1), ci: { em: percent(ci.em), f1: percent(ci.f1) } }];
    }),
  ) as Record<GrowoverGroup, GrowoverGroupScores>;
  const outside = options.outside ?? [];
  return { ...report, missing: missing.length, missing_sample: missing.slice(0, SAMPLE_IDS), outside: { n: outside.length, sample: outside.slice(0, SAMPLE_IDS) } };
}

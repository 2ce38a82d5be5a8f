/**
 * A system's GrowOVER QA scores, as GrowOVER's scorer computes them: EM and F1 (its normalisation,
 * first line, 50 tokens) for ALL items, for SAME, NEW and CHANGED items against their current
 * answer, and CHANGED_DEL: CHANGED items scored against their OLD answer, i.e. how often a system
 * still gives the answer that is no longer true (lower is better). Pure: the shell pairs the
 * predictions with the stored items.
 */
import { growoverScores } from './metrics.js';

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

export type GrowoverReport = Record<GrowoverGroup, { n: number; em: number; f1: number }> & {
  missing: number;
  missing_ids: string[];
  unknown_ids: string[];
};

/**
 * @example
 * scoreGrowover([{ gold: { id: 'a', type: 'CHANGED', answer: '12', oldAnswer: '11' }, prediction: '11' }]).CHANGED_DEL.em === 1
 */
export function scoreGrowover(cases: readonly GrowoverCase[], unknownIds: readonly string[] = []): GrowoverReport {
  const sums: Record<GrowoverGroup, { n: number; em: number; f1: number }> = {
    ALL: { n: 0, em: 0, f1: 0 },
    SAME: { n: 0, em: 0, f1: 0 },
    NEW: { n: 0, em: 0, f1: 0 },
    CHANGED: { n: 0, em: 0, f1: 0 },
    CHANGED_DEL: { n: 0, em: 0, f1: 0 },
  };
  const add = (group: GrowoverGroup, scores: { em: number; f1: number }) => {
    const sum = sums[group];
    sum.n++;
    sum.em += scores.em;
    sum.f1 += scores.f1;
  };
  const missingIds: string[] = [];
  for (const { gold, prediction } of cases) {
    if (prediction === null) missingIds.push(gold.id);
    const text = prediction ?? '';
    const current = growoverScores(text, gold.answer);
    add('ALL', current);
    add(gold.type, current);
    if (gold.type === 'CHANGED') add('CHANGED_DEL', growoverScores(text, gold.oldAnswer ?? ''));
  }
  const mean = ({ n, em, f1 }: { n: number; em: number; f1: number }) => ({ n, em: n === 0 ? 0 : em / n, f1: n === 0 ? 0 : f1 / n });
  return {
    ALL: mean(sums.ALL),
    SAME: mean(sums.SAME),
    NEW: mean(sums.NEW),
    CHANGED: mean(sums.CHANGED),
    CHANGED_DEL: mean(sums.CHANGED_DEL),
    missing: missingIds.length,
    missing_ids: missingIds,
    unknown_ids: [...unknownIds],
  };
}

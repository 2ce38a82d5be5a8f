/**
 * A query's answer over all the time the store holds (docs/ARCHITECTURE.md §15): the stretches in
 * which it had one value (with that value's aliases) or none, oldest first, each saying whether its
 * start is a change the store saw. What a prediction is matched against to tell a current answer from
 * an outdated one, and what "days since the answer changed" counts from. Pure: built from the intervals
 * one read of the timeline repository gives.
 */
import type { QueryOverSpan } from '../model/timelines.js';

/** One stretch of a query's answer: a value, or none (`value` null), over [from, to). */
export interface AnswerState {
  /** Null: no value then (no such key, a published null). */
  value: string | null;
  /** Other names of the value, where the store holds them. */
  aliases: readonly string[];
  /** ISO instant, or YYYY-MM-DD for imported answers. */
  from: string;
  /** Null: still in effect at the last instant known. */
  to: string | null;
  /**
   * Whether `from` is a change the store saw: false for a value already in effect when the history
   * held begins (it may be far older), so no "days since the change" is counted from it.
   */
  seen: boolean;
}

export type ValueTimeline = readonly AnswerState[];

/**
 * The timeline of a query read with whole timelines (`AnswerTimelines.span`): imported answers as
 * published (a first stretch opens the published days, so its start is no change seen), or a generated
 * query's intervals, a gap between two of them being a stretch without the key.
 */
export function valueTimeline(row: QueryOverSpan): ValueTimeline {
  if (row.origin === 'imported') {
    return merged(row.imported.map((interval, index) => ({ value: interval.answer, aliases: interval.aliases ?? [], from: interval.validFrom, to: interval.validTo, seen: index > 0 })));
  }
  const states: AnswerState[] = [];
  const createdAt = row.lifetime?.createdAt ?? null;
  const heldFrom = row.heldFrom ?? null;
  const first = row.intervals[0];
  // The key appeared after the first revision held: before it, the page had no such key.
  if (first !== undefined && heldFrom !== null && heldFrom < first.validFrom) states.push({ value: null, aliases: [], from: heldFrom, to: first.validFrom, seen: heldFrom === createdAt });
  for (const interval of row.intervals) {
    const last = states.at(-1);
    if (last !== undefined && last.to !== null && last.to < interval.validFrom) states.push({ value: null, aliases: [], from: last.to, to: interval.validFrom, seen: true });
    // A value set by the page's creation, or after the first revision held, began where the store saw it.
    const seen = states.length > 0 || interval.validFrom === createdAt || (heldFrom !== null && interval.validFrom > heldFrom);
    states.push({ value: interval.value, aliases: interval.aliases ?? [], from: interval.validFrom, to: interval.validTo, seen });
  }
  return merged(states);
}

/** Neighbouring stretches of one value are one: a replaced template restarts an interval, not the answer. */
function merged(states: AnswerState[]): AnswerState[] {
  const out: AnswerState[] = [];
  for (const state of states) {
    const last = out.at(-1);
    if (last !== undefined && last.value === state.value && last.to === state.from) {
      out[out.length - 1] = { ...last, to: state.to, aliases: [...new Set([...last.aliases, ...state.aliases])] };
    } else out.push(state);
  }
  return out;
}

/** The index of the stretch in effect at an instant (`from` ≤ instant < `to`), or -1. */
export function stateAt(timeline: ValueTimeline, instant: string): number {
  for (let i = timeline.length - 1; i >= 0; i--) {
    const state = timeline[i] as AnswerState;
    if (state.from <= instant) return state.to === null || state.to > instant ? i : -1;
  }
  return -1;
}

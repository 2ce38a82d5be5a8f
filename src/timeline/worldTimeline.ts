/**
 * The world time axis (docs/ARCHITECTURE.md §16): what held in the world on each day by the
 * time-qualified statements of an entity's latest known revision, as intervals per key. A statement
 * with a start (P580) or an end (P582) holds from its start through its end's day (month, year), or
 * until a statement of the key starts in that period (an open side reaching as far as the key is known); in a series of points in time (P585), each point's statements hold until the next
 * point. Of the statements holding at once the best-ranked (two offices, a population and a term)
 * are one value, in statement order, joined as an entity's facts are.
 */
import type { TimedFact } from '../model.js';
import type { WorldInterval } from '../model/timelines.js';

/** Where a statement with an end but no start is taken to hold from. */
const EARLIEST = '0001-01-01T00:00:00Z';

/**
 * The world-time intervals of an entity, key by key, from the timed facts of its latest known revision.
 *
 * @param facts - the revision's time-qualified statements (`ParsedRevision.entity.timed`), in statement order
 * @param revId - the revision they come from, recorded on each interval as its provenance
 * @returns per key, the intervals in time order, equal neighbours merged; `validTo` null for one still open
 * @example
 * buildWorldTimeline([{ key: 'P6', value: '{{Q1}}', rank: 'normal', start: '2014-12-01T00:00:00Z', end: null, point: null }], 7)
 * // [{ key: 'P6', value: '{{Q1}}', validFrom: '2014-12-01T00:00:00Z', validTo: null, revId: 7 }]
 */
export function buildWorldTimeline(facts: readonly TimedFact[], revId: number): WorldInterval[] {
  const byKey = new Map<string, Array<{ fact: TimedFact; order: number }>>();
  facts.forEach((fact, order) => byKey.set(fact.key, [...(byKey.get(fact.key) ?? []), { fact, order }]));
  return [...byKey].flatMap(([key, statements]) => keyTimeline(key, statements, revId));
}

function keyTimeline(key: string, statements: Array<{ fact: TimedFact; order: number }>, revId: number): WorldInterval[] {
  const ranged = handedOver(statements.filter(({ fact }) => fact.start !== null || fact.end !== null)).filter(({ fact }) => fact.start === null || fact.end === null || fact.start < fact.end);
  const points = statements.filter(({ fact }) => fact.start === null && fact.end === null && fact.point !== null);
  const bounds = new Set<string>();
  for (const { fact } of ranged) {
    bounds.add(fact.start ?? EARLIEST);
    if (fact.end !== null) bounds.add(fact.end);
  }
  for (const { fact } of points) bounds.add(fact.point as string);
  const instants = [...bounds].sort();
  const intervals: WorldInterval[] = [];
  instants.forEach((from, index) => {
    const to = instants[index + 1] ?? null;
    const value = valueAt(from, ranged, points);
    if (value === null) return;
    const last = intervals.at(-1);
    if (last && last.value === value && last.validTo === from) last.validTo = to;
    else intervals.push({ key, value, validFrom: from, validTo: to, revId });
  });
  return intervals;
}

/**
 * The ranged statements with each end where it is handed over: a statement holds through its end's
 * period unless a statement of the key starts within that period, after its own start, and takes over
 * there (a term ending on 1995-01-22 as the next starts that day leaves the day to the next one).
 */
function handedOver(ranged: Array<{ fact: TimedFact; order: number }>): Array<{ fact: TimedFact; order: number }> {
  const starts = ranged.flatMap(({ fact }) => (fact.start === null ? [] : [fact.start])).sort();
  return ranged.map((statement) => {
    const { fact } = statement;
    if (fact.end === null) return statement;
    const end = fact.end;
    const from = fact.handoverFrom ?? end;
    const taker = starts.find((start) => start >= from && start < end && (fact.start === null || start > fact.start));
    return taker === undefined ? statement : { ...statement, fact: { ...fact, end: taker } };
  });
}

/**
 * The value at an instant: of the statements holding then (the ranges around it, and those at the
 * latest point in time not after it) the best-ranked, preferred if any, else normal, as a key's value
 * is on edit time; deprecated statements never reach here (src/content/wikibaseItemFacts.ts). The
 * rank is weighed among the statements holding at the instant, not over the key: a preferred latest
 * census must not erase the series before it.
 */
function valueAt(instant: string, ranged: Array<{ fact: TimedFact; order: number }>, points: Array<{ fact: TimedFact; order: number }>): string | null {
  const holding = ranged.filter(({ fact }) => (fact.start ?? EARLIEST) <= instant && (fact.end === null || fact.end > instant));
  const latest = points.reduce<string | null>((best, { fact }) => (fact.point! <= instant && (best === null || fact.point! > best) ? fact.point : best), null);
  if (latest !== null) holding.push(...points.filter(({ fact }) => fact.point === latest));
  if (holding.length === 0) return null;
  const preferred = holding.filter(({ fact }) => fact.rank === 'preferred');
  const best = preferred.length > 0 ? preferred : holding;
  // Statements without a value ("no value") take part in the ranking but give none: a preferred one alone leaves nothing.
  const values = [...new Set(best.sort((a, b) => a.order - b.order).flatMap(({ fact }) => (fact.value === null ? [] : [fact.value])))];
  return values.length === 0 ? null : values.join('; ');
}

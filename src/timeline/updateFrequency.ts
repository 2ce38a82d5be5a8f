import type { Store } from '../store/store.js';
import { addDays, formatDate, parseDate } from '../dates.js';
import type { UpdateFrequency } from '../model/questions.js';
import type { TimeAxis } from '../model/timelines.js';
import { answersOverDays, type Answer } from './answers.js';

/**
 * DailyQA's rule (the README's `finalize`; the paper calls the queries that "do not change from day
 * 8" infrequent): frequent when the answer changes again after the change the week made, between day
 * 8 and day 21 (day 1 is the week's first day, day 8 the evaluation date after it). A day's answer is
 * the value at its 00:00 UTC, so the week's own change, up to the week's last instant, already shows
 * on day 8: the step from day 7 to day 8 is the week's and is not compared, and only days 8 … 21 are
 * read (offsets 7 to 20 from the start). A change at day 8 00:00 exactly is in day 8's answer too;
 * one after day 21 00:00 first shows on day 22.
 */
const FIRST_OFFSET = 7;
const LAST_OFFSET = 20;

/**
 * The class of one query from its answers on days 8 … 21 of its week: frequent when any day's answer
 * differs from the day before's. An unknown answer anywhere in that span means the timeline is not
 * synced far enough yet: pending.
 */
export function classifyUpdateFrequency(answers: ReadonlyArray<{ answer: string | null; known: boolean }>): UpdateFrequency {
  if (answers.some((day) => !day.known)) return 'pending';
  for (let i = 1; i < answers.length; i++) {
    if (answers[i]?.answer !== answers[i - 1]?.answer) return 'frequent_update';
  }
  return 'infrequent_update';
}

/** The dates whose answers decide the class of a week's queries: days 8 to 21 from the week's start (day 1). */
export function updateFrequencyDates(windowStart: string): string[] {
  const start = parseDate(windowStart.slice(0, 10));
  return Array.from({ length: LAST_OFFSET - FIRST_OFFSET + 1 }, (_, i) => formatDate(addDays(start, FIRST_OFFSET + i)));
}

/**
 * The class of each kept query of a week on a time axis, from its answers on days 8 to 21; what
 * the store keeps is the edit-time class, which a world-time release replaces with this.
 */
export function updateFrequenciesOf(store: Store, windowStart: string, axis: TimeAxis): Map<string, UpdateFrequency> {
  const classes = new Map<string, UpdateFrequency>();
  for (const { id, answers } of answersOverDays(store, updateFrequencyDates(windowStart), { windowStart, axis })) classes.set(id, updateFrequencyOf(answers));
  return classes;
}

/** The class of one query from its answers on the dates `updateFrequencyDates` gives, in order; an unknown answer leaves it pending. */
export function updateFrequencyOf(answers: readonly Answer[]): UpdateFrequency {
  return classifyUpdateFrequency(answers.map((answer) => ({ answer: answer.answer, known: answer.status !== 'unknown' })));
}

/**
 * Labels every kept query of a week (or of all weeks) that is still pending; returns the counts by
 * class. Each week's days 8 to 21 are one pass over its queries' intervals (answersOverDays), not
 * a lookup per query and day.
 */
export function finalizeUpdateFrequency(store: Store, options: { windowStart?: string } = {}): Record<UpdateFrequency, number> {
  const queries = store.queries;
  const counts: Record<UpdateFrequency, number> = { pending: 0, frequent_update: 0, infrequent_update: 0 };
  const labels: Array<{ id: string; frequency: Exclude<UpdateFrequency, 'pending'> }> = [];
  const pendingByWeek = new Map<string, Set<string>>();
  for (const { id, windowStart } of queries.pendingFrequency(options)) pendingByWeek.set(windowStart, (pendingByWeek.get(windowStart) ?? new Set()).add(id));
  for (const [windowStart, pending] of pendingByWeek) {
    for (const [id, label] of updateFrequenciesOf(store, windowStart, 'edit')) {
      if (!pending.has(id)) continue;
      counts[label]++;
      if (label !== 'pending') labels.push({ id, frequency: label });
    }
  }
  queries.saveUpdateFrequencies(labels);
  return counts;
}

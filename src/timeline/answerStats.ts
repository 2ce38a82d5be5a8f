import type { Store } from '../store/store.js';
import { addDays, formatDate, parseDate } from '../dates.js';
import type { TimeAxis } from '../model/timelines.js';
import { answersOverDays } from './answers.js';

/** Days observed around a week's start: the week before, the week itself and two after (29 days, as in DailyQA's release). */
const DAYS_BEFORE = 8;
const DAYS_AFTER = 20;
/** "Three weeks around its creation": the week before the query's week, its week, and the week after. */
const CHANGE_SPAN_BEFORE = 7;
const CHANGE_SPAN_AFTER = 13;

/** One week's answer-change statistics, as `stats` prints them. */
export interface WeekStats {
  week: string;
  queries: number;
  /** Per day from the second observed one: of the queries whose answer is known that day and the day before (`compared`), how many differ. */
  daily_changes: Array<{ date: string; changed: number; compared: number }>;
  /** How many queries changed answer 0, 1, 2, … times over the three weeks around their creation. */
  changes_per_query: Record<string, number>;
}

/**
 * Per week of kept queries: daily answer changes over 29 days around the week, and a histogram of
 * how often each query's answer changed in the three weeks around its creation. A week's 29 days
 * are one pass over the intervals (answersOverDays): each interval read, and its aliases parsed,
 * once, not once a day. On world time (`axis`), the changes of what held in the world. With `wiki`,
 * the weeks of that wiki's queries only (a week's window start belongs to one wiki: E_WINDOW_CONFLICT).
 */
export function answerChangeStats(store: Store, axis: TimeAxis = 'edit', lastWeek?: string, wiki?: string): WeekStats[] {
  const weeks = store.queries.keptWeeks(wiki).filter((windowStart) => lastWeek === undefined || windowStart.slice(0, 10) <= lastWeek);
  return weeks.map((windowStart) => {
    const start = parseDate(windowStart.slice(0, 10));
    const dates = Array.from({ length: DAYS_BEFORE + DAYS_AFTER + 1 }, (_, i) => formatDate(addDays(start, i - DAYS_BEFORE)));
    const queries = [...answersOverDays(store, dates, { windowStart, axis })].map(({ answers }) => answers);
    // An answer turning unknown (the history held ends) is not a change of the answer.
    const daily_changes = dates.slice(1).map((date, i) => {
      const compared = queries.filter((answers) => answers[i + 1]?.status !== 'unknown' && answers[i]?.status !== 'unknown');
      return { date, changed: compared.filter((answers) => answers[i + 1]?.answer !== answers[i]?.answer).length, compared: compared.length };
    });
    const changes_per_query: Record<string, number> = {};
    const spanStart = dates.indexOf(formatDate(addDays(start, -CHANGE_SPAN_BEFORE)));
    const spanEnd = dates.indexOf(formatDate(addDays(start, CHANGE_SPAN_AFTER)));
    for (const answers of queries) {
      const changes = answerChanges(answers, spanStart, spanEnd);
      changes_per_query[changes] = (changes_per_query[changes] ?? 0) + 1;
    }
    return { week: windowStart.slice(0, 10), queries: queries.length, daily_changes, changes_per_query };
  });
}

/**
 * How many times a query's answer changed from one day to the next, days `from` to `to` (indices):
 * as `daily_changes` counts them, a day whose answer or the day before's is unknown (outside the
 * history held) is no change.
 */
export function answerChanges(answers: ReadonlyArray<{ answer: string | null; status: string } | undefined>, from: number, to: number): number {
  let changes = 0;
  for (let i = from + 1; i <= to; i++) {
    const day = answers[i];
    const before = answers[i - 1];
    if (day === undefined || before === undefined || day.status === 'unknown' || before.status === 'unknown') continue;
    if (day.answer !== before.answer) changes++;
  }
  return changes;
}

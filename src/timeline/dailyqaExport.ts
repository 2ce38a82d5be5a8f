import type { Store } from '../store/store.js';
import type { TimeAxis } from '../model/timelines.js';
import { answersOnDate } from './answers.js';

/** DailyQA's per-date file name: qa_YYMMDD.jsonl. */
export function dailyQaFileName(date: string): string {
  return `qa_${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}.jsonl`;
}

/**
 * The JSON lines of every kept query's answer on a date, DailyQA's format, and how many queries were
 * left out because the store does not know their answer that day: DailyQA's `null` says there is no
 * value, which an unknown answer is not.
 *
 * @example dailyQaDay(store, '2025-01-20') // { lines: '{"id":"25011300-106-0","query":"…","answer":"CRN 9.4 million"}\n…', unknown: 0 }
 */
export function dailyQaDay(store: Store, date: string, options: { windowStart?: string; axis?: TimeAxis } = {}): { lines: string; unknown: number } {
  const answers = answersOnDate(store, date, options);
  const known = answers.filter((row) => row.status !== 'unknown');
  return {
    lines: known.map((row) => `${JSON.stringify({ id: row.id, query: row.query, answer: row.answer })}\n`).join(''),
    unknown: answers.length - known.length,
  };
}

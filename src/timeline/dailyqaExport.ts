import type { Store } from '../store/store.js';
import type { TimeAxis } from '../model/timelines.js';
import { answersOnDate } from './answers.js';

/** DailyQA's per-date file name: qa_YYMMDD.jsonl. */
export function dailyQaFileName(date: string): string {
  return `qa_${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}.jsonl`;
}

/** The JSON lines of every kept query's answer on a date, DailyQA's format. */
export function dailyQaLines(store: Store, date: string, options: { windowStart?: string; axis?: TimeAxis } = {}): string {
  return answersOnDate(store, date, options)
    .map((row) => JSON.stringify({ id: row.id, query: row.query, answer: row.answer }))
    .map((line) => `${line}\n`)
    .join('');
}

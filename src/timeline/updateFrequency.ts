import type { Database } from 'better-sqlite3';
import { addDays, formatDate, parseDate } from '../dates.js';
import type { UpdateFrequency } from '../model/questions.js';
import { QueryStore } from '../store/questionStore.js';
import { answerQuery } from './answers.js';

/**
 * DailyQA's rule: frequent when the answer changes again after the week, on day 8 or later, within
 * 21 days of the start (day 1 is the week's first day). Changes are seen by comparing each day with
 * the day before, so the answers needed are those of days 7 to 21: offsets 6 to 20 from the start.
 */
const FIRST_OFFSET = 6;
const LAST_OFFSET = 20;

/**
 * The class of one query from its answers on days 7 … 21 of its week. An unknown answer anywhere in
 * that span means the timeline is not synced far enough yet: pending.
 */
export function classifyUpdateFrequency(answers: ReadonlyArray<{ answer: string | null; known: boolean }>): UpdateFrequency {
  if (answers.some((day) => !day.known)) return 'pending';
  for (let i = 1; i < answers.length; i++) {
    if (answers[i]?.answer !== answers[i - 1]?.answer) return 'frequent_update';
  }
  return 'infrequent_update';
}

/** Labels every kept query of a week (or of all weeks) that is still pending; returns the counts by class. */
export function finalizeUpdateFrequency(db: Database, options: { windowStart?: string } = {}): Record<UpdateFrequency, number> {
  const queries = new QueryStore(db);
  const counts: Record<UpdateFrequency, number> = { pending: 0, frequent_update: 0, infrequent_update: 0 };
  const labels: Array<{ id: string; frequency: Exclude<UpdateFrequency, 'pending'> }> = [];
  for (const query of queries.pendingFrequency(options)) {
    const start = parseDate(query.windowStart.slice(0, 10));
    const answers = [];
    for (let day = FIRST_OFFSET; day <= LAST_OFFSET; day++) {
      const result = answerQuery(db, query.id, formatDate(addDays(start, day)));
      answers.push({ answer: result.answer, known: result.status !== 'unknown' });
    }
    const label = classifyUpdateFrequency(answers);
    counts[label]++;
    if (label !== 'pending') labels.push({ id: query.id, frequency: label });
  }
  queries.saveUpdateFrequencies(labels);
  return counts;
}

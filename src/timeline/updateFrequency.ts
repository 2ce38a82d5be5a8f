import type { Database } from 'better-sqlite3';
import { addDays, formatDate, parseDate } from '../dates.js';
import { answerQuery } from './answers.js';

export type UpdateFrequency = 'pending' | 'frequent_update' | 'infrequent_update';

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
  const queries = db
    .prepare(
      `SELECT id, window_start AS windowStart FROM queries
       WHERE kept = 1 AND window_start IS NOT NULL AND update_frequency = 'pending' AND (@windowStart IS NULL OR window_start = @windowStart)`,
    )
    .all({ windowStart: options.windowStart ?? null }) as Array<{ id: string; windowStart: string }>;
  const update = db.prepare('UPDATE queries SET update_frequency = ? WHERE id = ?');
  const counts: Record<UpdateFrequency, number> = { pending: 0, frequent_update: 0, infrequent_update: 0 };
  db.transaction(() => {
    for (const query of queries) {
      const start = parseDate(query.windowStart.slice(0, 10));
      const answers = [];
      for (let day = FIRST_OFFSET; day <= LAST_OFFSET; day++) {
        const result = answerQuery(db, query.id, formatDate(addDays(start, day)));
        answers.push({ answer: result.answer, known: result.status !== 'unknown' });
      }
      const label = classifyUpdateFrequency(answers);
      counts[label]++;
      if (label !== 'pending') update.run(label, query.id);
    }
  })();
  return counts;
}

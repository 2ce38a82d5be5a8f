/** The demo's view of the weekly release: generated questions, how many were kept, and answers by date. */
import type { Database } from 'better-sqlite3';
import { dirname } from 'node:path';
import { defaultReleaseDir } from '../../release/weeklyRelease.js';
import { addDays, formatDate } from '../../dates.js';
import { answerQuery } from '../../timeline/answers.js';

interface ShownQuery {
  id: string;
  text: string;
  kept: number;
  provider: string;
  domain: string | null;
  changedAt: string;
}

/** A few kept questions with their answers the day before their change, the day after, and two weeks on. */
export function printQuestionsAndAnswers(db: Database, wiki: string, out: (line?: string) => void, shown = 6): void {
  const queries = db
    .prepare(
      `SELECT q.id, q.text, q.kept, g.provider, d.domain, u.timestamp AS changedAt
       FROM queries q JOIN question_generations g ON g.query_id = q.id
       JOIN data_units u ON u.wiki = g.wiki AND u.window_start = g.window_start AND u.window_end = g.window_end AND u.page_id = g.page_id
       LEFT JOIN question_domains d ON d.query_id = q.id
       WHERE q.wiki = ? AND q.origin = 'generated' ORDER BY q.id`,
    )
    .all(wiki) as ShownQuery[];
  const kept = queries.filter((q) => q.kept === 1);
  const providers = [...new Set(queries.map((q) => q.provider))].join(', ');
  out(`${queries.length} questions generated (provider: ${providers || 'none'}), ${kept.length} kept after the checks and the domain cap.`);
  out(`Weekly releases (queries.jsonl, qa_YYMMDD.jsonl for each day, native.jsonl, README.md) in ${dirname(defaultReleaseDir(db.name, 'x'))}/`);
  // Spread the examples over the weeks rather than showing the first week only.
  const step = Math.max(1, Math.floor(kept.length / shown));
  for (const query of kept.filter((_, i) => i % step === 0).slice(0, shown)) {
    const day = new Date(`${query.changedAt.slice(0, 10)}T00:00:00Z`);
    const dates = [addDays(day, -1), addDays(day, 1), addDays(day, 15)].map(formatDate);
    out(`  ${query.id}  [${query.domain ?? 'no domain'}] ${query.text}`);
    out(
      `      ${dates
        .map((date) => {
          const answer = answerQuery(db, query.id, date);
          return `${date}: ${answer.status === 'ok' ? JSON.stringify(answer.answer) : `(${answer.status})`}`;
        })
        .join('   ')}`,
    );
  }
}

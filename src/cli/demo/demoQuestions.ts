/** The demo's view of the weekly release: generated questions, how many were kept, and answers by date. */
import type { Store } from '../../store/store.js';
import { dirname } from 'node:path';
import { defaultReleaseDir } from '../../release/weeklyRelease.js';
import { addDays, formatDate } from '../../dates.js';
import { answerQuery } from '../../timeline/answers.js';

/** A few kept questions with their answers the day before their change, the day after, and two weeks on. */
export function printQuestionsAndAnswers(store: Store, wiki: string, out: (line?: string) => void, shown = 6): void {
  const queries = store.questions(wiki).querySummaries();
  const kept = queries.filter((q) => q.kept);
  const providers = [...new Set(queries.map((q) => q.provider))].join(', ');
  out(`${queries.length} questions generated (provider: ${providers || 'none'}), ${kept.length} kept after the checks and the domain cap.`);
  out(`Weekly releases (queries.jsonl, qa_YYMMDD.jsonl for each day, native.jsonl, README.md) in ${dirname(defaultReleaseDir(store.path, 'x'))}/`);
  // Spread the examples over the weeks rather than showing the first week only.
  const step = Math.max(1, Math.floor(kept.length / shown));
  for (const query of kept.filter((_, i) => i % step === 0).slice(0, shown)) {
    const day = new Date(`${query.changedAt.slice(0, 10)}T00:00:00Z`);
    const dates = [addDays(day, -1), addDays(day, 1), addDays(day, 15)].map(formatDate);
    out(`  ${query.id}  [${query.domain ?? 'no domain'}] ${query.text}`);
    out(
      `      ${dates
        .map((date) => {
          const answer = answerQuery(store, query.id, date);
          return `${date}: ${answer.status === 'ok' ? JSON.stringify(answer.answer) : `(${answer.status})`}`;
        })
        .join('   ')}`,
    );
  }
}

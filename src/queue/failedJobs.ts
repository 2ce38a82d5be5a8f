/**
 * The codes of a queue's failed jobs, counted: what the owner's E_QUEUE_JOBS_FAILED line and a
 * worker's summary report. A job's failure reason carries its error's code (`CODE: line`, see
 * `carried` in src/errors.ts), as a reason is the only text of a failure BullMQ keeps.
 */
import { parseCarried, type ErrorCode } from '../errors.js';

export interface CodeCount {
  code: ErrorCode;
  count: number;
}

/** The failure reasons' codes, each with how many jobs failed with it: most first, then by code. */
export function countCodes(reasons: Iterable<string>): CodeCount[] {
  const counts = new Map<ErrorCode, number>();
  for (const reason of reasons) {
    const { code } = parseCarried(reason);
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return [...counts].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
}

/** `3 jobs failed (E_DUMP_MALFORMED 2, E_INTERNAL 1)`; `what` names the jobs (`3 parse-revisions jobs failed …`). */
export function failedJobsLine(counts: readonly CodeCount[], what = ''): string {
  const total = counts.reduce((sum, { count }) => sum + count, 0);
  return `${total} ${what ? `${what} ` : ''}job${total === 1 ? '' : 's'} failed (${counts.map(({ code, count }) => `${code} ${count}`).join(', ')})`;
}

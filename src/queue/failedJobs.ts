/**
 * The codes of a queue's failed jobs, counted: what the owner's E_QUEUE_JOBS_FAILED line and a
 * worker's summary report. A job's failure reason carries its error's code (`CODE: line`, see
 * `carried` in src/errors.ts), as a reason is the only text of a failure BullMQ keeps.
 */
import { oneLine, parseCarried, RemoteError, type ErrorCode } from '../errors.js';

export interface CodeCount {
  code: ErrorCode;
  count: number;
}

/** The failure reasons' codes, each with how many jobs failed with it: most first, then by code. */
export function countCodes(reasons: Iterable<string>): CodeCount[] {
  return tallyCodes(Array.from(reasons, (reason) => parseCarried(reason).code));
}

/** Each code with how many times it is given: most first, then by code. */
export function tallyCodes(codes: Iterable<ErrorCode>): CodeCount[] {
  const counts = new Map<ErrorCode, number>();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  return [...counts].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
}

/** `3 jobs failed (E_DUMP_MALFORMED 2, E_INTERNAL 1)`; `what` names the jobs (`3 parse-revisions jobs failed …`). */
export function failedJobsLine(counts: readonly CodeCount[], what = ''): string {
  const total = counts.reduce((sum, { count }) => sum + count, 0);
  return `${total} ${what ? `${what} ` : ''}job${total === 1 ? '' : 's'} failed (${counts.map(({ code, count }) => `${code} ${count}`).join(', ')})`;
}

/**
 * The stage's one line when its batches failed: how many, by their errors' codes, and the first
 * one's reason; `--json` lists the codes (`failed_jobs`). `stageError`: the stage job's own failure,
 * said when no batch's reason arrived.
 */
export function jobsFailed(kind: string, reasons: readonly string[], stageError: unknown): RemoteError {
  const first = reasons[0];
  if (first === undefined) return new RemoteError('E_QUEUE_JOBS_FAILED', `the queue's ${kind} jobs failed for good: ${oneLine(stageError)}`);
  const counts = countCodes(reasons);
  return new RemoteError('E_QUEUE_JOBS_FAILED', `${failedJobsLine(counts, kind)} for good; the first: ${oneLine(first)}`, {
    details: { failed_jobs: counts },
  });
}

/**
 * The line a stage ends with when its queue jobs failed: the failed jobs counted by their own
 * errors' codes, which their failure reasons carry, and the same list for `--json`.
 */
import { describe, expect, it } from 'vitest';
import { carried, InputError } from '../../../src/errors.js';
import { countCodes, failedJobsLine, jobsFailed } from '../../../src/queue/failedJobs.js';
import { withCode } from '../../support/errorCodes.js';

const truncated = carried(new InputError('E_DUMP_TRUNCATED', 'a.xml: dump is truncated'));
const malformed = carried(new InputError('E_DUMP_MALFORMED', 'b.xml: a revision without a timestamp'));
const bug = carried(new TypeError('x is undefined'));

describe('failed queue jobs', () => {
  it('are counted by code, most first, then by code; a reason without a code is internal', () => {
    const counts = countCodes([bug, malformed, truncated, malformed, 'job stalled more than allowable limit']);
    expect(counts).toEqual([
      { code: 'E_DUMP_MALFORMED', count: 2 },
      { code: 'E_INTERNAL', count: 2 },
      { code: 'E_DUMP_TRUNCATED', count: 1 },
    ]);
    expect(failedJobsLine(counts)).toBe('5 jobs failed (E_DUMP_MALFORMED 2, E_INTERNAL 2, E_DUMP_TRUNCATED 1)');
    expect(failedJobsLine(countCodes([truncated]), 'read-dump')).toBe('1 read-dump job failed (E_DUMP_TRUNCATED 1)');
  });

  it("end the stage with E_QUEUE_JOBS_FAILED in one line naming each code's count and the first reason, and list them for --json", () => {
    const error = jobsFailed('read-dump', [malformed, bug, malformed], new Error('child bull:wikidelta:x failed'));
    expect(error).toEqual(
      withCode('E_QUEUE_JOBS_FAILED', '3 read-dump jobs failed (E_DUMP_MALFORMED 2, E_INTERNAL 1) for good; the first: E_DUMP_MALFORMED: b.xml: a revision without a timestamp'),
    );
    expect(error.details).toEqual({ failed_jobs: [{ code: 'E_DUMP_MALFORMED', count: 2 }, { code: 'E_INTERNAL', count: 1 }] });
  });

  it("say the stage job's own failure when no batch's reason arrived", () => {
    const error = jobsFailed('read-dump', [], new Error('child bull:wikidelta:x failed'));
    expect(error).toEqual(withCode('E_QUEUE_JOBS_FAILED', "the queue's read-dump jobs failed for good: child bull:wikidelta:x failed"));
    expect(error.details).toBeUndefined();
  });
});

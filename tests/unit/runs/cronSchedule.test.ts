import { describe, expect, it } from 'vitest';
import { lastCompleteMonth, lastCompleteWeekStart, latestMonthBefore, monthEnd } from '../../../src/dates.js';
import { runHealth } from '../../../src/runs/health.js';
import { shownStatus } from '../../../src/runs/liveness.js';
import type { RunRecord } from '../../../src/store/runStore.js';
import { withCode } from '../../support/errorCodes.js';

describe('the last complete week', () => {
  it('is the Monday-to-Sunday week before the current one, whatever the day and hour', () => {
    // 2025-01-13 is a Monday: at 00:00 the week of 6 to 12 January has just ended.
    expect(lastCompleteWeekStart(new Date('2025-01-13T00:00:00Z'))).toBe('2025-01-06');
    expect(lastCompleteWeekStart(new Date('2025-01-13T03:00:00Z'))).toBe('2025-01-06');
    // Sunday late evening: the current week is not complete yet.
    expect(lastCompleteWeekStart(new Date('2025-01-19T23:59:59Z'))).toBe('2025-01-06');
    expect(lastCompleteWeekStart(new Date('2025-01-20T00:00:00Z'))).toBe('2025-01-13');
    // Across a year's end and a leap day.
    expect(lastCompleteWeekStart(new Date('2025-01-01T12:00:00Z'))).toBe('2024-12-23');
    expect(lastCompleteWeekStart(new Date('2024-03-04T05:00:00Z'))).toBe('2024-02-26');
  });

  it('waits for the revert horizon after the week before taking it', () => {
    // The week of 6 to 12 January ended on Monday 13th at 00:00; its 48 hours run to Wednesday 15th 00:00.
    expect(lastCompleteWeekStart(new Date('2025-01-13T03:00:00Z'), 48)).toBe('2024-12-30');
    expect(lastCompleteWeekStart(new Date('2025-01-14T23:59:59Z'), 48)).toBe('2024-12-30');
    expect(lastCompleteWeekStart(new Date('2025-01-15T00:00:00Z'), 48)).toBe('2025-01-06');
    expect(lastCompleteWeekStart(new Date('2025-01-15T03:00:00Z'), 48)).toBe('2025-01-06');
    expect(lastCompleteWeekStart(new Date('2025-01-19T23:59:59Z'), 48)).toBe('2025-01-06');
  });
});

describe('the last complete month', () => {
  it('is the calendar month before the current one, named YYYY-MM and ending on the next first', () => {
    expect(lastCompleteMonth(new Date('2025-04-01T00:00:00Z'))).toBe('2025-03');
    expect(lastCompleteMonth(new Date('2025-03-31T23:59:59Z'))).toBe('2025-02');
    expect(lastCompleteMonth(new Date('2025-01-15T00:00:00Z'))).toBe('2024-12');
    expect(monthEnd('2025-03')).toBe('2025-04-01');
    expect(monthEnd('2024-12')).toBe('2025-01-01');
    expect(() => monthEnd('2025-13')).toThrow(withCode('E_DATE_INVALID'));
  });

  it('takes the latest earlier month snapshot as the old one, bridging a missed month and ignoring other names', () => {
    expect(latestMonthBefore(['2025-01', 'test', '2025-02', '2025-03'], '2025-03')).toBe('2025-02');
    expect(latestMonthBefore(['2024-12', 'jan', '2025-04'], '2025-03')).toBe('2024-12');
    expect(latestMonthBefore(['jan', 'feb'], '2025-03')).toBeUndefined();
  });
});

function run(fields: Partial<RunRecord>): RunRecord {
  return { id: 3, pipeline: 'weekly', params: {}, status: 'done', error: null, errorCode: null, pid: null, startedAt: '2025-01-13T03:00:00.000Z', finishedAt: '2025-01-13T05:00:00.000Z', stages: [], failures: [], ...fields };
}

describe('run health for monitoring', () => {
  const now = new Date('2025-01-14T05:00:00Z');

  it('is healthy for a recent finished run and says how old it is', () => {
    const health = runHealth(run({}), 'done', now, 48);
    expect(health).toEqual({ healthy: true, line: 'ok: run 3 weekly done, finished 2025-01-13T05:00:00.000Z (24.0 h ago)' });
  });

  it('is unhealthy for a failed or interrupted run, with the error, whatever its age', () => {
    const failed = runHealth(run({ status: 'failed', error: 'collect: wiki unreachable', errorCode: 'E_WIKI_UNREACHABLE' }), 'failed', now);
    expect(failed.healthy).toBe(false);
    expect(failed.line).toMatch(/^run 3 weekly failed, .*: E_WIKI_UNREACHABLE: collect: wiki unreachable$/);
    // A failure recorded before codes were kept has none to show.
    expect(runHealth(run({ status: 'failed', error: 'wiki unreachable' }), 'failed', now).line).toMatch(/[^:]: wiki unreachable$/);
    // Recorded as running, its process gone: an earlier attempt's failure is not the reason.
    const earlier = { stage: 'collect', error: 'wiki unreachable', errorCode: 'E_WIKI_UNREACHABLE', failedAt: '2025-01-12T03:00:00.000Z' };
    const interrupted = runHealth(run({ status: 'running', finishedAt: null, pid: 4242, failures: [earlier] }), 'interrupted', now);
    expect(interrupted.healthy).toBe(false);
    expect(interrupted.line).toMatch(/^run 3 weekly interrupted, started 2025-01-13T03:00:00.000Z \(26\.0 h ago\): E_RUN_INTERRUPTED: process 4242 is gone; /);
    expect(interrupted.line).not.toContain('E_WIKI_UNREACHABLE');
  });

  it('is unhealthy for a done run whose results were cleared since, whatever its age', () => {
    const done = run({ pipeline: 'monthly' });
    expect(shownStatus(done, ['maintain', 'generate'])).toBe('cleared');
    expect(shownStatus(done)).toBe('done');
    expect(runHealth(done, shownStatus(done, ['generate']), now, 48)).toEqual({
      healthy: false,
      line: 'run 3 monthly cleared, finished 2025-01-13T05:00:00.000Z (24.0 h ago): its results were cleared since (an earlier one made again): run it again',
    });
  });

  it('is unhealthy when the newest run is older than the maximum age, or when there is none', () => {
    expect(runHealth(run({}), 'done', now, 23)).toEqual({ healthy: false, line: 'run 3 weekly done, finished 2025-01-13T05:00:00.000Z (24.0 h ago): older than --max-age 23 h' });
    expect(runHealth(run({ status: 'running', finishedAt: null }), 'running', now, 25).healthy).toBe(false);
    expect(runHealth(run({ status: 'running', finishedAt: null }), 'running', now, 27).healthy).toBe(true);
    expect(runHealth(undefined, undefined, now, 24)).toEqual({ healthy: false, line: 'no runs in this store yet' });
  });
});

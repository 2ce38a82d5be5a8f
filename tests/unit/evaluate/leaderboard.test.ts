import { describe, expect, it } from 'vitest';
import { metricValues, rankEntries, submissionOf } from '../../../src/evaluate/leaderboard.js';
import { WEEKLY_METRICS } from '../../../src/evaluate/metrics/index.js';
import { leaderboardMarkdown } from '../../../src/evaluate/leaderboardPages.js';
import { withCode } from '../../support/errorCodes.js';

describe('leaderboard', () => {
  it("gives every registered metric's value, in registry order, and nothing else of the report", () => {
    const report = { current: 40, ...Object.fromEntries(WEEKLY_METRICS.map((metric, m) => [metric.name, m + 1])) } as unknown as Parameters<typeof metricValues>[0];
    const values = metricValues(report);
    expect(Object.keys(values)).toEqual(WEEKLY_METRICS.map((metric) => metric.name));
    expect(Object.values(values)).toEqual(WEEKLY_METRICS.map((_, m) => m + 1));
  });


  it('places files by their path: a flat system file, a week, a GrowOVER snapshot', () => {
    expect(submissionOf('closed-book.jsonl')).toEqual({ system: 'closed-book', kind: { weekly: null } });
    expect(submissionOf('gpt/2025-01-20.jsonl')).toEqual({ system: 'gpt', kind: { weekly: '2025-01-20' } });
    expect(submissionOf('gpt/growover-2025-04.json')).toEqual({ system: 'gpt', kind: { growover: '2025-04' } });
    expect(() => submissionOf('gpt/week3.jsonl')).toThrow(withCode('E_PREDICTIONS_INVALID'));
    expect(() => submissionOf('gpt/2025-02-30.jsonl')).toThrow(withCode('E_DATE_INVALID'));
    expect(() => submissionOf('a/b/2025-01-20.jsonl')).toThrow(withCode('E_PREDICTIONS_INVALID'));
  });

  it('ranks by F1, then EM; equal scores share a rank and are listed by name', () => {
    const entries = [
      { system: 'b', f1: 0.5, em: 0.4 },
      { system: 'a', f1: 0.5, em: 0.4 },
      { system: 'c', f1: 0.7, em: 0.1 },
      { system: 'd', f1: 0.5, em: 0.45 },
    ];
    expect(rankEntries(entries, (e) => [e.f1, e.em]).map((e) => `${e.rank}:${e.system}`)).toEqual(['1:c', '2:d', '3:a', '3:b']);
  });

  it('writes percentages with their interval and escapes a pipe in a system name', () => {
    const interval = (low: number, high: number) => [low, high] as [number, number];
    const scores = {
      n: 2, queries: 2, em: 50, f1: 75, sm: 100, current: 50, outdated: 50, future: 0, wrong: 0,
      ci: { em: interval(0, 100), f1: interval(50, 100), sm: interval(100, 100), current: interval(0, 100), outdated: interval(0, 100), future: interval(0, 0), wrong: interval(0, 0) },
    };
    const markdown = leaderboardMarkdown(
      {
        seed: 1,
        resamples: 1000,
        dates: ['2025-01-27'],
        after: null,
        time: 'edit',
        weekly: [
          {
            rank: 1, system: 'a|b', files: ['a|b.jsonl'], ...scores, scored: 2, missing: 0, unknown: 1,
            no_answer: { n: 0, correct: 0, accuracy: 0, ci: [0, 0] },
            by_week: { '2025-01-20': scores }, by_days_since_change: { '1': scores }, outside: 0,
            cutoff: null, aliases: { items: 0, changed: 0, by_metric: { em: 0, f1: 0, sm: 0 } },
          },
        ],
        growover: [],
      },
      [],
    );
    expect(markdown).toContain('| 1 | a\\|b | 75.0 [50.0, 100.0] | 50.0 [0.0, 100.0] | 100.0 [100.0, 100.0] | 50.0 [0.0, 100.0] | 50.0 [0.0, 100.0] | 0.0 [0.0, 0.0] | – | 2 | 2 | 0 | 1 | 0 |');
    expect(markdown).toContain('| a\\|b | 75.0 [50.0, 100.0] (2) |');
    expect(markdown).toContain('on each of 2025-01-27, every kept query');
    expect(markdown).not.toContain('## GrowOVER');
  });
});

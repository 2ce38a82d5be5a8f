import { describe, expect, it } from 'vitest';
import { answerChanges } from '../../../src/timeline/answerStats.js';

/** `stats`' changes per query count what `daily_changes` counts: a day turning unknown is no change. */
describe('answerChanges', () => {
  const ok = (answer: string | null) => ({ answer, status: answer === null ? 'no_key' : 'ok' });
  const unknown = { answer: null, status: 'unknown' };

  it('counts each day whose answer differs from the day before', () => {
    expect(answerChanges([ok('a'), ok('a'), ok('b'), ok(null), ok('c')], 0, 4)).toBe(3);
  });

  it('does not count the history held ending (or starting) as a change', () => {
    // The sample's last week: one real change, then the pages' histories end.
    expect(answerChanges([ok('a'), ok('b'), ok('b'), unknown, unknown], 0, 4)).toBe(1);
    expect(answerChanges([unknown, ok('a'), ok('a'), ok('b')], 0, 3)).toBe(1);
  });

  it('counts only the days of the span asked for', () => {
    expect(answerChanges([ok('a'), ok('b'), ok('c'), ok('d')], 1, 2)).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { answerInstant } from '../../../src/timeline/answers.js';
import { classifyUpdateFrequency, updateFrequencyDates } from '../../../src/timeline/updateFrequency.js';

/**
 * DailyQA's update-frequency rule on a week starting Monday 2025-03-17 (day 1; day 8 is Monday
 * 2025-03-24, the evaluation date; day 21 is Sunday 2025-04-06), for a value that changes at given
 * instants. A day's answer is the value at its 00:00 UTC, as `answer` gives it.
 */
const WEEK = '2025-03-17T00:00:00Z';

/** The class of a key whose value changes at each of the instants. */
function classOf(changes: readonly string[], unknownOn: readonly string[] = []): string {
  return classifyUpdateFrequency(
    updateFrequencyDates(WEEK).map((date) => ({
      answer: `value ${changes.filter((change) => change <= answerInstant(date)).length}`,
      known: !unknownOn.includes(date),
    })),
  );
}

describe('update frequency', () => {
  it('reads the answers of days 8 to 21: the day after the week to three weeks from its start', () => {
    const dates = updateFrequencyDates(WEEK);
    expect(dates).toHaveLength(14);
    expect([dates[0], dates.at(-1)]).toEqual(['2025-03-24', '2025-04-06']);
  });

  it("does not count the week's own change, even at its last minute (day 7 23:59)", () => {
    expect(classOf(['2025-03-23T19:50:00Z'])).toBe('infrequent_update');
    expect(classOf(['2025-03-23T23:59:00Z'])).toBe('infrequent_update');
    expect(classOf(['2025-03-18T10:00:00Z', '2025-03-23T23:59:59Z'])).toBe('infrequent_update');
  });

  it("does not count a change at day 8 00:00, already in the evaluation date's answer, but one a second later", () => {
    expect(classOf(['2025-03-23T19:50:00Z', '2025-03-24T00:00:00Z'])).toBe('infrequent_update');
    expect(classOf(['2025-03-23T19:50:00Z', '2025-03-24T00:00:01Z'])).toBe('frequent_update');
  });

  it('counts a change up to day 21 00:00, not one later that day or on day 22', () => {
    expect(classOf(['2025-03-23T19:50:00Z', '2025-04-06T00:00:00Z'])).toBe('frequent_update');
    expect(classOf(['2025-03-23T19:50:00Z', '2025-04-06T12:00:00Z'])).toBe('infrequent_update');
    expect(classOf(['2025-03-23T19:50:00Z', '2025-04-07T09:30:00Z'])).toBe('infrequent_update');
  });

  it('is pending while any of days 8 to 21 is unknown, whatever day 7 was', () => {
    expect(classOf(['2025-03-23T19:50:00Z'], ['2025-04-06'])).toBe('pending');
    expect(classOf(['2025-03-23T19:50:00Z'], ['2025-03-23'])).toBe('infrequent_update');
  });
});

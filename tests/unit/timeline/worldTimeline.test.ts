import { describe, expect, it } from 'vitest';
import type { TimedFact } from '../../../src/model.js';
import { buildWorldTimeline } from '../../../src/timeline/worldTimeline.js';

const fact = (value: string, times: Partial<Pick<TimedFact, 'start' | 'end' | 'point'>>, rank: TimedFact['rank'] = 'normal', key = 'P1'): TimedFact => ({
  key, value, rank, start: times.start ?? null, end: times.end ?? null, point: times.point ?? null,
});
const day = (date: string) => `${date}T00:00:00Z`;
const nextDay = (date: string) => new Date(Date.parse(day(date)) + 86_400_000).toISOString().slice(0, 10);

describe('buildWorldTimeline', () => {
  it('holds each point of a P585 series until the next one, the preferred statement alone at a shared point', () => {
    const timeline = buildWorldTimeline(
      [fact('100', { point: day('2010-12-31') }), fact('120', { point: day('2020-12-31') }), fact('110', { point: day('2015-12-31') }), fact('121', { point: day('2020-12-31') }, 'preferred')],
      7,
    );
    expect(timeline.map(({ value, validFrom, validTo }) => [value, validFrom, validTo])).toEqual([
      ['100', day('2010-12-31'), day('2015-12-31')],
      ['110', day('2015-12-31'), day('2020-12-31')],
      ['121', day('2020-12-31'), null],
    ]);
    expect(timeline.every((interval) => interval.revId === 7 && interval.key === 'P1')).toBe(true);
  });

  it('holds a P580/P582 statement over [start, end), joins statements holding at once in statement order, leaves gaps empty', () => {
    const timeline = buildWorldTimeline(
      [
        fact('minister', { start: day('1978-08-30'), end: day('1979-10-26') }),
        fact('commissioner', { start: day('1985-01-06'), end: day('1995-01-22') }),
        fact('vice-president', { start: day('1985-01-06'), end: day('1989-01-05') }),
        fact('wrong way round', { start: day('2000-01-01'), end: day('1999-01-01') }),
      ],
      1,
    );
    expect(timeline.map(({ value, validFrom, validTo }) => [value, validFrom, validTo])).toEqual([
      ['minister', day('1978-08-30'), day('1979-10-26')],
      ['commissioner; vice-president', day('1985-01-06'), day('1989-01-05')],
      ['commissioner', day('1989-01-05'), day('1995-01-22')],
    ]);
  });

  it('takes the best-ranked of the statements holding on a day, ranges and points alike, and the others where no preferred one holds', () => {
    const timeline = buildWorldTimeline(
      [
        fact('Smith', { start: day('2000-01-01'), end: day('2010-01-01') }),
        fact('Smyth', { start: day('2004-01-01'), end: day('2006-01-01') }, 'preferred'),
        fact('Jones', { point: day('2008-01-01') }),
        fact('Brown', { point: day('2012-01-01') }, 'preferred'),
        fact('Green', { start: day('2012-01-01') }),
      ],
      3,
    );
    expect(timeline.map(({ value, validFrom, validTo }) => [value, validFrom, validTo])).toEqual([
      ['Smith', day('2000-01-01'), day('2004-01-01')],
      ['Smyth', day('2004-01-01'), day('2006-01-01')],
      ['Smith', day('2006-01-01'), day('2008-01-01')],
      ['Smith; Jones', day('2008-01-01'), day('2010-01-01')],
      ['Jones', day('2010-01-01'), day('2012-01-01')],
      ['Brown', day('2012-01-01'), null],
    ]);
  });

  it('lets a preferred "no value" leave nothing while it holds, and the normal values before it stand', () => {
    const vacant: TimedFact = { key: 'P1', value: null, rank: 'preferred', start: day('2024-03-08'), end: null, point: null };
    const timeline = buildWorldTimeline([fact('Alice', { start: day('2020-01-01') }), vacant], 4);
    expect(timeline.map(({ value, validFrom, validTo }) => [value, validFrom, validTo])).toEqual([['Alice', day('2020-01-01'), day('2024-03-08')]]);
    // A normal "no value" beside a normal value takes nothing away; the latest point being "no value" leaves nothing.
    const series = buildWorldTimeline([fact('7', { point: day('2020-01-01') }), { ...vacant, rank: 'normal', start: null, point: day('2022-01-01') }, fact('8', { start: day('2021-01-01'), end: day('2023-01-01') })], 4);
    expect(series.map(({ value, validFrom, validTo }) => [value, validFrom, validTo])).toEqual([
      ['7', day('2020-01-01'), day('2021-01-01')],
      ['7; 8', day('2021-01-01'), day('2022-01-01')],
      ['8', day('2022-01-01'), day('2023-01-01')],
    ]);
  });

  it("holds a statement through its end's day, a statement of the key starting within that period taking over: Bielefeld's countries", () => {
    // As this reading stores them: an end of 1949-05-23 holds that day, until 05-24, unless handed over.
    const through = (value: string, start: string | null, lastDay: string): TimedFact => ({ ...fact(value, { start: start && day(start), end: day(nextDay(lastDay)) }), handoverFrom: day(lastDay) });
    const timeline = buildWorldTimeline([through('German Reich', '1871-01-18', '1949-05-23'), through('West Germany', '1949-05-23', '1990-10-02'), fact('Germany', { start: day('1990-10-03') })], 5);
    expect(timeline.map(({ value, validFrom, validTo }) => [value, validFrom, validTo])).toEqual([
      ['German Reich', day('1871-01-18'), day('1949-05-23')],
      // West Germany held on 2 October 1990, its last day: no day without a country.
      ['West Germany', day('1949-05-23'), day('1990-10-03')],
      ['Germany', day('1990-10-03'), null],
    ]);
  });

  it('hands a year-precision end over where the next statement starts in that year, and holds it through the year without one', () => {
    const term2020: TimedFact = { ...fact('first', { start: day('2016-01-01'), end: day('2021-01-01') }), handoverFrom: day('2020-01-01') };
    const ends = (...others: TimedFact[]) => buildWorldTimeline([term2020, ...others], 1).map(({ value, validTo }) => [value, validTo]);
    expect(ends(fact('next', { start: day('2020-01-01') }))).toEqual([['first', day('2020-01-01')], ['next', null]]);
    expect(ends(fact('next', { start: day('2020-06-01') }))).toEqual([['first', day('2020-06-01')], ['next', null]]);
    expect(ends()).toEqual([['first', day('2021-01-01')]]);
    // A statement starting before the end's period is no successor: the two hold together, then the first alone.
    expect(ends(fact('beside', { start: day('2018-01-01'), end: day('2019-01-01') }))).toEqual([['first', day('2018-01-01')], ['first; beside', day('2019-01-01')], ['first', day('2021-01-01')]]);
  });

  it('keeps an open start or end open, and keys apart', () => {
    const timeline = buildWorldTimeline([fact('old county', { end: day('1968-06-30') }, 'normal', 'P131'), fact('Taipei', { start: day('1968-07-01') }, 'normal', 'P131'), fact('5', { point: day('2001-01-01') }, 'normal', 'P1082')], 2);
    expect(timeline.map(({ key, value, validFrom, validTo }) => [key, value, validFrom, validTo])).toEqual([
      ['P131', 'old county', '0001-01-01T00:00:00Z', day('1968-06-30')],
      ['P131', 'Taipei', day('1968-07-01'), null],
      ['P1082', '5', day('2001-01-01'), null],
    ]);
  });
});

/**
 * The figures of the datasets and of a leaderboard as Vega-Lite specs: pure functions of plain
 * numbers, so the store reads and the scoring stay elsewhere and a test can check a spec's data.
 * What a reader can trust (docs/ARCHITECTURE.md §15): one scale, percent, for every rate; each
 * point with its n and a 95% interval drawn as a bar; dates ticked by whole days; lines that
 * coincide still told apart by their dash and a small offset; legends at the bottom, never cut; a
 * week or month with nothing drawn at zero rather than left off the axis. Every mark carries its
 * values in its ARIA label, so tests read the figures back.
 */
import type { ChartSpec } from './render.js';

const WIDTH = 560;
const HEIGHT = 260;
const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
/** Legends below the plot, as wide as their labels: a long domain or system name is never cut. */
const LEGEND = { orient: 'bottom', direction: 'horizontal', columns: 3, labelLimit: 0, titleLimit: 0 } as const;
/** Dash patterns cycled over the lines, so that two lines on the same values both stay visible. */
const DASHES = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3], [4, 4], [1, 3]];

/** A rate in percent with the number it is taken over and its 95% interval. */
export interface Rate {
  value: number;
  n: number;
  low: number;
  high: number;
}

/**
 * The 95% Wilson interval of a share, in percent: it stays inside [0, 100] and says something for
 * 0 of 5 as for 50 of 100 (a plain ±1.96·SE would not).
 */
export function shareWithInterval(count: number, n: number): Rate {
  if (n === 0) return { value: 0, n: 0, low: 0, high: 0 };
  const z = 1.959964;
  const p = count / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return { value: 100 * p, n, low: 100 * Math.max(0, centre - half), high: 100 * Math.min(1, centre + half) };
}

/** Per weekly update (its window start), the share of its queries whose answer changed on each day against the day before. */
export interface DailyChanges {
  week: string;
  daily_changes: ReadonlyArray<{ date: string; changed: number; compared: number }>;
}

/**
 * DailyQA's figure: the share of each weekly update's answers that changed on each day against the
 * day before, one small panel per update (twelve lines with their intervals on one plot hide each other).
 */
export function answerChangesChart(weeks: readonly DailyChanges[]): ChartSpec {
  // A day with no query known on it and the day before has no share: drawn as 0 it would read as one.
  const values = weeks.flatMap((week) =>
    week.daily_changes
      .filter((day) => day.compared > 0)
      .map((day) => {
        const rate = shareWithInterval(day.changed, day.compared);
        return { week: week.week, date: day.date, changed: round(rate.value), n: rate.n, low: round(rate.low), high: round(rate.high) };
      }),
  );
  const x = {
    field: 'date',
    type: 'temporal',
    title: null,
    axis: { format: '%m-%d', labelAngle: -40, tickCount: { interval: 'day', step: 7 }, grid: false },
  } as const;
  return {
    $schema: SCHEMA,
    title: { text: 'Answers changed per day, relative to the previous day', subtitle: 'percent of the weekly update\'s queries known both days, with the 95% interval (band) and n per point' },
    data: { values },
    facet: { field: 'week', type: 'ordinal', title: 'weekly update', header: { labelFontWeight: 'bold' } },
    columns: 4,
    // Each panel spans its own update's 29 days, and has its own percent axis: with one axis per row, a
    // panel whose points reach 100 % was placed lower than the axis it was read against.
    resolve: { scale: { x: 'independent' }, axis: { x: 'independent', y: 'independent' } },
    spec: {
      width: 150,
      height: 90,
      encoding: { x },
      layer: [
        { mark: { type: 'area', opacity: 0.2, color: '#4c78a8' }, encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } } },
        {
          mark: { type: 'line', point: true, color: '#4c78a8' },
          encoding: {
            y: { field: 'changed', type: 'quantitative', title: '% changed', scale: { domain: [0, 100] }, axis: { tickCount: 3 } },
            tooltip: [{ field: 'date', type: 'temporal' }, { field: 'week' }, { field: 'changed', title: '%' }, { field: 'n', title: 'n' }],
          },
        },
      ],
    },
  };
}

/** Kept queries of one week and domain (a week with none is given with no domain and 0). */
export interface DomainCount {
  week: string;
  domain: string;
  queries: number;
}

export function queriesPerDomainChart(counts: readonly DomainCount[], weeks: readonly string[]): ChartSpec {
  return {
    $schema: SCHEMA,
    title: 'Queries per domain per week',
    width: WIDTH,
    height: HEIGHT,
    data: { values: counts.map((count) => ({ ...count })) },
    mark: 'bar',
    encoding: {
      // Every week is on the axis, a week that kept no query at zero.
      x: { field: 'week', type: 'ordinal', title: 'week of queries', scale: { domain: [...weeks] }, axis: { labelAngle: -40 } },
      y: { field: 'queries', type: 'quantitative', title: 'queries', stack: 'zero', axis: { tickMinStep: 1, format: 'd' } },
      color: { field: 'domain', type: 'nominal', title: 'domain', legend: LEGEND },
      tooltip: [{ field: 'week' }, { field: 'domain' }, { field: 'queries' }],
    },
  };
}

/** A count of one kind (a sentence label, an item type) in one month. */
export interface MonthCount {
  month: string;
  kind: string;
  n: number;
}

/**
 * One colour per kind of change on every GrowOVER figure: a sentence labeled new and a NEW item (made
 * from new sentences) share it, as do changed and CHANGED, unchanged and SAME.
 */
const KIND_COLOURS: Readonly<Record<string, string>> = {
  unchanged: '#4c78a8',
  SAME: '#4c78a8',
  changed: '#f58518',
  CHANGED: '#f58518',
  new: '#e45756',
  NEW: '#e45756',
  undecided: '#72b7b2',
  deleted: '#54a24b',
};

function kindScale(kinds: readonly string[]): { domain: string[]; range: string[] } {
  return { domain: [...kinds], range: kinds.map((kind) => KIND_COLOURS[kind] ?? '#9d755d') };
}

/** GrowOVER's QA items per month by type (SAME, NEW, CHANGED, as the evaluation names them); stacked bars. */
export function monthlyCountsChart(title: string, kindTitle: string, counts: readonly MonthCount[], kinds: readonly string[]): ChartSpec {
  return {
    $schema: SCHEMA,
    title,
    width: WIDTH,
    height: HEIGHT,
    data: { values: counts.map((count) => ({ ...count, rank: kinds.indexOf(count.kind) })) },
    mark: 'bar',
    encoding: {
      x: { field: 'month', type: 'ordinal', title: 'month', axis: { labelAngle: 0 } },
      y: { field: 'n', type: 'quantitative', title: 'count', stack: 'zero', axis: { tickMinStep: 1, format: 'd' } },
      color: { field: 'kind', type: 'nominal', title: kindTitle, scale: kindScale(kinds), legend: LEGEND },
      order: { field: 'rank' },
      tooltip: [{ field: 'month' }, { field: 'kind', title: kindTitle }, { field: 'n' }],
    },
  };
}

/**
 * GrowOVER's sentence labels per month: the new snapshot's sentences stacked above the axis, the old
 * snapshot's deleted sentences below it, so a deleted sentence never adds to the new article's count.
 */
export function sentenceLabelsChart(counts: readonly MonthCount[], labels: readonly string[]): ChartSpec {
  const values = counts.map((count) => ({
    ...count,
    rank: labels.indexOf(count.kind),
    signed: count.kind === 'deleted' ? -count.n : count.n,
    side: count.kind === 'deleted' ? 'old snapshot' : 'new snapshot',
  }));
  return {
    $schema: SCHEMA,
    title: { text: 'Sentence labels per month', subtitle: "the new snapshot's sentences above the axis, the old snapshot's deleted ones below" },
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    mark: 'bar',
    encoding: {
      x: { field: 'month', type: 'ordinal', title: 'month (new snapshot)', axis: { labelAngle: 0 } },
      y: { field: 'signed', type: 'quantitative', title: 'sentences', stack: 'zero', axis: { tickMinStep: 1, format: 'd' } },
      color: { field: 'kind', type: 'nominal', title: 'label', scale: kindScale(labels), legend: LEGEND },
      order: { field: 'rank' },
      tooltip: [{ field: 'month' }, { field: 'kind', title: 'label' }, { field: 'n' }, { field: 'side' }],
    },
  };
}

/** A system's rates per bin of days since the answer last changed, in percent with n and interval. */
export interface SystemByDays {
  system: string;
  by_days_since_change: Readonly<Record<string, { n: number; ci: Readonly<Record<string, readonly [number, number]>> } & Readonly<Record<string, unknown>>>>;
}

/** What a days-since-change figure draws: one rate of the report's groups. */
export interface DaysMeasure {
  /** The rate's key in each group, e.g. `f1`, `outdated`. */
  key: string;
  /** Its name on the axis and in the title, e.g. `F1`, `outdated rate`. */
  name: string;
  /** The figure's title and subtitle. */
  title: string;
  subtitle: string;
}

/** F1 by days since the change: the leaderboard's figure of how well systems follow recent changes. */
export const F1_BY_DAYS: DaysMeasure = {
  key: 'f1',
  name: 'F1',
  title: 'F1 by days since the answer last changed',
  subtitle: 'percent; bars: 95% intervals by query; systems side by side in each bin',
};

/**
 * The knowledge decay curve: the share of a system's answers that gave a value the answer had before
 * (outdated), by days since the answer changed. A system that learned the world once is outdated on
 * what changed since, most of all on the newest changes.
 */
export const OUTDATED_BY_DAYS: DaysMeasure = {
  key: 'outdated',
  name: 'outdated (%)',
  title: 'Knowledge decay: outdated answers by days since the answer changed',
  subtitle: 'percent of answers giving a value that held before; bars: 95% intervals by query',
};

/**
 * A rate by days since the answer changed: one line per system over the bins in `order` (the bin
 * "unknown", where no change was seen, is left out), each point with its interval; systems offset a
 * little apart and dashed differently, so equal scores stay visible.
 */
export function scoreByDaysChart(systems: readonly SystemByDays[], order: readonly string[], measure: DaysMeasure = F1_BY_DAYS): ChartSpec {
  // Each bin named with how many answers it holds (the systems of one board share their expected items).
  const named = order
    .filter((bin) => bin !== 'unknown')
    .map((bin) => ({ bin, n: Math.max(0, ...systems.map((system) => system.by_days_since_change[bin]?.n ?? 0)) }))
    .map(({ bin, n }) => ({ bin, label: `${bin} (${n})` }));
  const values = systems.flatMap((system) =>
    named.flatMap(({ bin, label }) => {
      const scores = system.by_days_since_change[bin];
      const value = scores?.[measure.key];
      const ci = scores?.ci[measure.key];
      return scores && typeof value === 'number' && ci ? [{ system: system.system, days: label, rate: round(value), n: scores.n, low: round(ci[0]), high: round(ci[1]) }] : [];
    }),
  );
  const bins = named.map(({ label }) => label);
  // Each bin's label on two lines, the days over their count: nine bins' labels side by side overlap at this width.
  const x = {
    field: 'days',
    type: 'ordinal',
    title: 'days since the answer changed (answers scored)',
    sort: bins,
    scale: { domain: bins },
    axis: { labelAngle: 0, labelExpr: "split(datum.label, ' ')", labelLineHeight: 13 },
  } as const;
  const color = { field: 'system', type: 'nominal', title: 'system', legend: LEGEND } as const;
  return {
    $schema: SCHEMA,
    title: { text: measure.title, subtitle: measure.subtitle },
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    encoding: { x, xOffset: { field: 'system', type: 'nominal', scale: { paddingOuter: 2 } }, color },
    layer: [
      { mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } } },
      {
        mark: { type: 'line', point: true },
        encoding: {
          y: { field: 'rate', type: 'quantitative', title: measure.name === 'F1' ? 'F1 (%)' : measure.name, scale: { domain: [0, 100] } },
          strokeDash: { field: 'system', type: 'nominal', scale: { range: DASHES }, legend: null },
          tooltip: [{ field: 'system' }, { field: 'days' }, { field: 'rate', title: `${measure.name}` }, { field: 'n' }, { field: 'low', title: '95% low' }, { field: 'high', title: '95% high' }],
        },
      },
    ],
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

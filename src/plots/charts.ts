/**
 * The figures of the datasets and of a leaderboard as Vega-Lite specs (issue 11): pure functions of
 * plain numbers, so the store reads and the scoring stay elsewhere and a test can check a spec's
 * data. Lines carry a point per value so every value is a mark of its own in the SVG.
 */
import type { ChartSpec } from './render.js';

const WIDTH = 560;
const HEIGHT = 260;

/** Per weekly update (its window start), how many of its answers changed on each day against the day before. */
export interface DailyChanges {
  week: string;
  daily_changes: ReadonlyArray<{ date: string; changed: number }>;
}

/** DailyQA's figure: answers changed per day relative to the previous day, one line per weekly update. */
export function answerChangesChart(weeks: readonly DailyChanges[]): ChartSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Answers changed per day, relative to the previous day',
    width: WIDTH,
    height: HEIGHT,
    data: { values: weeks.flatMap((week) => week.daily_changes.map((day) => ({ week: week.week, date: day.date, changed: day.changed }))) },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'date', type: 'temporal', title: 'date', axis: { format: '%Y-%m-%d' } },
      y: { field: 'changed', type: 'quantitative', title: 'answers changed', axis: { tickMinStep: 1, format: 'd' } },
      // A year of weekly updates is more lines than ten colours tell apart.
      color: { field: 'week', type: 'nominal', title: 'weekly update', scale: { scheme: 'category20' } },
    },
  };
}

/** Kept queries of one week and domain. */
export interface DomainCount {
  week: string;
  domain: string;
  queries: number;
}

export function queriesPerDomainChart(counts: readonly DomainCount[]): ChartSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Queries per domain per week',
    width: WIDTH,
    height: HEIGHT,
    data: { values: counts.map((count) => ({ ...count })) },
    mark: 'bar',
    encoding: {
      x: { field: 'week', type: 'ordinal', title: 'week of queries' },
      y: { field: 'queries', type: 'quantitative', title: 'queries', stack: 'zero' },
      color: { field: 'domain', type: 'nominal', title: 'domain' },
    },
  };
}

/** A count of one kind (a sentence label, an item type) in one month. */
export interface MonthCount {
  month: string;
  kind: string;
  n: number;
}

/** GrowOVER's figures: sentence labels per month, or QA items per month by type; stacked bars. */
export function monthlyCountsChart(title: string, kindTitle: string, counts: readonly MonthCount[]): ChartSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: WIDTH,
    height: HEIGHT,
    data: { values: counts.map((count) => ({ ...count })) },
    mark: 'bar',
    encoding: {
      x: { field: 'month', type: 'ordinal', title: 'month' },
      y: { field: 'n', type: 'quantitative', title: 'count', stack: 'zero' },
      color: { field: 'kind', type: 'nominal', title: kindTitle },
    },
  };
}

/** A system's F1 and item count per days since the answer last changed (the key "unknown" is left out). */
export interface SystemByDays {
  system: string;
  by_days_since_change: Readonly<Record<string, { n: number; f1: number }>>;
}

/** A system's score by days since the answer changed: one line per system. */
export function scoreByDaysChart(systems: readonly SystemByDays[]): ChartSpec {
  const values = systems.flatMap((system) =>
    Object.entries(system.by_days_since_change)
      .filter(([days]) => /^-?\d+$/.test(days))
      .map(([days, scores]) => ({ system: system.system, days: Number(days), f1: scores.f1, n: scores.n })),
  );
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'F1 by days since the answer last changed',
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'days', type: 'quantitative', title: 'days since the answer changed' },
      y: { field: 'f1', type: 'quantitative', title: 'F1', scale: { domain: [0, 1] } },
      color: { field: 'system', type: 'nominal', title: 'system' },
    },
  };
}

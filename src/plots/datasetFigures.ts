/**
 * The datasets' figures from the store: DailyQA's answer changes per day (one line per weekly
 * update), queries per domain per week, GrowOVER's sentence labels and QA items per month. Each is a
 * named spec; `renderFigures` draws them as `NAME.svg` files for `stats --plot` and the leaderboard
 * page, `withFigures` adds them to a release beside its card, which shows them.
 */
import type { Store } from '../store/store.js';
import { answerChangeStats } from '../timeline/answerStats.js';
import type { TimeAxis } from '../model/timelines.js';
import { PUBLISHED_TYPE } from '../release/growoverRelease.js';
import { addDays, formatDate, parseDate } from '../dates.js';
import { answerChangesChart, monthlyCountsChart, queriesPerDomainChart, sentenceLabelsChart, type DomainCount, type MonthCount } from './charts.js';
import { renderSvg, type ChartSpec } from './render.js';

export interface Figure {
  /** The file's name without `.svg`. */
  name: string;
  /** What the figure shows, for alt text and captions. */
  title: string;
  spec: ChartSpec;
}

/**
 * The weekly dataset's figures, of every week or of the weeks up to `lastWeek` (YYYY-MM-DD), of every
 * wiki or of `wiki`'s weeks only (a release's: another wiki's weeks in the store are no part of its
 * series); none without kept queries. The answer changes are on the time axis of the release they go with.
 */
export function weeklyFigures(store: Store, lastWeek?: string, axis: TimeAxis = 'edit', wiki?: string): Figure[] {
  const weeks = answerChangeStats(store, axis, lastWeek, wiki);
  if (weeks.length === 0) return [];
  const shown = new Set(weeks.map((week) => week.week));
  const counts = new Map<string, DomainCount>();
  for (const facts of store.queries.scoringFacts()) {
    if (facts.week === null || !shown.has(facts.week)) continue;
    const domain = facts.domain ?? 'unclassified';
    const key = `${facts.week}\u0000${domain}`;
    const count = counts.get(key) ?? { week: facts.week, domain, queries: 0 };
    count.queries++;
    counts.set(key, count);
  }
  return [
    {
      name: 'answer-changes',
      title: `Answers changed per day${axis === 'world' ? ' on world time (what held in the world)' : ''}, relative to the previous day, one line per weekly update`,
      spec: answerChangesChart(weeks),
    },
    { name: 'queries-per-domain', title: 'Queries per domain per week', spec: queriesPerDomainChart([...counts.values()], everyWeek(weeks.map((week) => week.week))) },
  ];
}

/**
 * GrowOVER's figures: labels of each labeled snapshot pair (by the new snapshot's month) and QA items
 * active per month by type; of every snapshot with items, or of those dated up to `lastDate`.
 */
export function growoverFigures(store: Store, lastDate = '9999-12-31'): Figure[] {
  const snapshots = store.snapshots;
  const growover = store.growover;
  const names = growover.snapshotsWithItems(lastDate);
  const monthOf = (name: string) => growover.month(name) || name;
  const labels: MonthCount[] = [];
  const items: MonthCount[] = [];
  names.forEach((name, i) => {
    const previous = names[i - 1];
    if (previous !== undefined) {
      for (const [kind, n] of Object.entries(snapshots.labelCounts(previous, name))) if (n > 0) labels.push({ month: monthOf(name), kind, n });
    }
    const byType = new Map<string, number>();
    for (const { type, n } of growover.evidenceTypeCounts(name, 'qa')) byType.set(PUBLISHED_TYPE[type], (byType.get(PUBLISHED_TYPE[type]) ?? 0) + n);
    for (const [kind, n] of byType) if (n > 0) items.push({ month: monthOf(name), kind, n });
  });
  return [
    ...(labels.length > 0 ? [{ name: 'growover-labels', title: 'GrowOVER sentence labels per month', spec: sentenceLabelsChart(labels, ['unchanged', 'changed', 'new', 'undecided', 'deleted']) }] : []),
    ...(items.length > 0 ? [{ name: 'growover-items', title: 'GrowOVER QA items per month by type', spec: monthlyCountsChart('QA items per month', 'type', items, ['SAME', 'NEW', 'CHANGED']) }] : []),
  ];
}

/** Every week from the first to the last given, a week apart: the weeks that kept nothing stay on the axis. */
function everyWeek(weeks: readonly string[]): string[] {
  const sorted = [...weeks].sort();
  const [first, last] = [sorted[0], sorted.at(-1)];
  if (first === undefined || last === undefined) return [];
  const all: string[] = [];
  for (let week = parseDate(first); formatDate(week) <= last; week = addDays(week, 7)) all.push(formatDate(week));
  return all;
}

/** Each figure drawn: `NAME.svg` → SVG text. */
export async function renderFigures(figures: readonly Figure[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const figure of figures) files.set(`${figure.name}.svg`, await renderSvg(figure.spec));
  return files;
}

/** A Markdown section showing the figures (files beside the page). */
export function figuresMarkdown(figures: readonly Figure[]): string {
  if (figures.length === 0) return '';
  return `## Figures\n\n${figures.map((figure) => `![${figure.title}](${figure.name}.svg)`).join('\n\n')}\n`;
}

/** A release's files with the figures drawn beside them and shown at the end of its card (README.md). */
export async function withFigures(files: ReadonlyMap<string, string | Uint8Array>, figures: readonly Figure[]): Promise<Map<string, string | Uint8Array>> {
  const result = new Map(files);
  if (figures.length === 0) return result;
  for (const [name, svg] of await renderFigures(figures)) result.set(name, svg);
  const card = files.get('README.md');
  result.set('README.md', `${typeof card === 'string' ? card : ''}\n${figuresMarkdown(figures)}`);
  return result;
}

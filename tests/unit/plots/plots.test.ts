import { describe, expect, it } from 'vitest';
import { answerChangesChart, monthlyCountsChart, scoreByDaysChart, sentenceLabelsChart, shareWithInterval, type SystemByDays } from '../../../src/plots/charts.js';
import { renderSvg } from '../../../src/plots/render.js';

/** The marks of a rendered chart, read back from the SVG: their ARIA role and label (Vega writes the values there). */
function marks(svg: string, role: string): string[] {
  return [...svg.matchAll(/<\w+ aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="([^"]*)"/g)].filter((m) => m[2] === role).map((m) => m[1] as string);
}

describe('charts drawn as SVG in Node', () => {
  it('answer changes: a panel per weekly update, a point per day in percent with n and an interval band', async () => {
    const days = (start: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ date: `2025-01-${String(start + i).padStart(2, '0')}`, changed: (i * 7) % 5, compared: 10 }));
    const weeks = [
      { week: '2025-01-06', daily_changes: days(1, 5) },
      { week: '2025-01-13', daily_changes: days(8, 6) },
      { week: '2025-01-20', daily_changes: days(15, 4) },
    ];
    const svg = await renderSvg(answerChangesChart(weeks));
    expect(svg.startsWith('<svg')).toBe(true);
    expect(marks(svg, 'line mark')).toHaveLength(3);
    expect(marks(svg, 'area mark')).toHaveLength(3);
    const points = marks(svg, 'point');
    expect(points).toHaveLength(15);
    expect(points.filter((label) => label.includes('week: 2025-01-13'))).toHaveLength(6);
    // 2 of 10 changed on the 9th: 20 %.
    expect(points).toContainEqual(expect.stringMatching(/^date: 01-09; % changed: 20; week: 2025-01-13; .*n: 10$/));
  });

  it('a share in percent with its Wilson interval, inside 0 to 100 even at the ends', () => {
    expect(shareWithInterval(0, 0)).toEqual({ value: 0, n: 0, low: 0, high: 0 });
    const none = shareWithInterval(0, 5);
    expect(none).toMatchObject({ value: 0, n: 5, low: 0 });
    expect(none.high).toBeCloseTo(43.45, 1);
    const half = shareWithInterval(50, 100);
    expect(half.low).toBeCloseTo(40.38, 1);
    expect(half.high).toBeCloseTo(59.62, 1);
  });

  it('score by days since the change: one line per system over the bins, each point with its interval, equal systems side by side', async () => {
    const bin = (n: number, f1: number, low: number, high: number) => ({ n, f1, ci: { f1: [low, high] as const } });
    const systems: SystemByDays[] = [
      { system: 'golden-doc', by_days_since_change: { '0': bin(2, 100, 100, 100), '2-3': bin(1, 50, 0, 100), unknown: bin(4, 0, 0, 0) } },
      { system: 'twin', by_days_since_change: { '0': bin(2, 100, 100, 100), '2-3': bin(1, 50, 0, 100) } },
      { system: 'closed-book', by_days_since_change: { '0': bin(2, 0, 0, 0), '2-3': bin(1, 25, 0, 75), '8-14': bin(1, 0, 0, 0) } },
    ];
    const svg = await renderSvg(scoreByDaysChart(systems, ['0', '1', '2-3', '4-7', '8-14', 'unknown']));
    expect(marks(svg, 'line mark')).toHaveLength(3);
    const points = marks(svg, 'point');
    expect(points).toHaveLength(7);
    expect(points).toContainEqual(expect.stringMatching(/: 2-3 \(1\); F1 \(%\): 25; system: closed-book; .*n: 1; 95% low: 0; 95% high: 75$/));
    expect(marks(svg, 'rule mark')).toHaveLength(7);
    // The twins' points are drawn apart: their x positions differ.
    const x = (system: string) => new RegExp(`aria-label="[^"]*: 0 \\(2\\); F1 \\(%\\): 100; system: ${system};[^"]*" role="graphics-symbol" aria-roledescription="point" transform="translate\\(([\\d.]+),`).exec(svg)?.[1];
    expect(x('golden-doc')).toBeDefined();
    expect(x('golden-doc')).not.toBe(x('twin'));
  });

  it('monthly counts: one bar per month and kind, the kinds in the order given', async () => {
    const counts = [
      { month: '2025-03', kind: 'SAME', n: 40 },
      { month: '2025-03', kind: 'NEW', n: 4 },
      { month: '2025-04', kind: 'SAME', n: 41 },
    ];
    const bars = marks(await renderSvg(monthlyCountsChart('QA items per month', 'type', counts, ['SAME', 'NEW', 'CHANGED'])), 'bar');
    expect(bars).toHaveLength(3);
    expect(bars.some((label) => label.includes('2025-04') && label.includes('41'))).toBe(true);
  });

  it("sentence labels: the old snapshot's deleted sentences below the axis, never stacked onto the new snapshot's", async () => {
    const counts = [
      { month: '2025-03', kind: 'unchanged', n: 40 },
      { month: '2025-03', kind: 'new', n: 4 },
      { month: '2025-03', kind: 'deleted', n: 3 },
    ];
    const bars = marks(await renderSvg(sentenceLabelsChart(counts, ['unchanged', 'changed', 'new', 'undecided', 'deleted'])), 'bar');
    expect(bars).toContainEqual(expect.stringMatching(/sentences: [−-]3; label: deleted; .*side: old snapshot/));
    expect(bars).toContainEqual(expect.stringMatching(/sentences: 40; label: unchanged; .*side: new snapshot/));
  });

  it('colours a kind of change alike on both GrowOVER figures: new and NEW, changed and CHANGED, unchanged and SAME', async () => {
    /** The fill of each bar by the kind its label names. */
    const fills = (svg: string) => new Map([...svg.matchAll(/<path aria-label="[^"]*(?:type|label): (\w+);[^"]*"[^>]*fill="(#[0-9a-f]{6})"/g)].map((match) => [match[1], match[2]]));
    const month = (kinds: string[]) => kinds.map((kind) => ({ month: '2025-03', kind, n: 5 }));
    const labels = fills(await renderSvg(sentenceLabelsChart(month(['unchanged', 'changed', 'new']), ['unchanged', 'changed', 'new', 'undecided', 'deleted'])));
    const items = fills(await renderSvg(monthlyCountsChart('QA items per month', 'type', month(['SAME', 'NEW', 'CHANGED']), ['SAME', 'NEW', 'CHANGED'])));
    expect([items.get('SAME'), items.get('CHANGED'), items.get('NEW')]).toEqual([labels.get('unchanged'), labels.get('changed'), labels.get('new')]);
    expect(new Set(labels.values()).size).toBe(3);
  });
});

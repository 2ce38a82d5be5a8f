import { describe, expect, it } from 'vitest';
import { answerChangesChart, monthlyCountsChart, scoreByDaysChart, type SystemByDays } from '../../src/plots/charts.js';
import { renderSvg } from '../../src/plots/render.js';

/** The marks of a rendered chart, read back from the SVG: their ARIA role and label (Vega writes the values there). */
function marks(svg: string, role: string): string[] {
  return [...svg.matchAll(/<path aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="([^"]*)"/g)].filter((m) => m[2] === role).map((m) => m[1] as string);
}

describe('charts drawn as SVG in Node', () => {
  it('answer changes: one line per weekly update and one point per day', async () => {
    const days = (start: number, n: number) => Array.from({ length: n }, (_, i) => ({ date: `2025-01-${String(start + i).padStart(2, '0')}`, changed: (i * 7) % 5 }));
    const weeks = [
      { week: '2025-01-06', daily_changes: days(1, 5) },
      { week: '2025-01-13', daily_changes: days(8, 6) },
      { week: '2025-01-20', daily_changes: days(15, 4) },
    ];
    const svg = await renderSvg(answerChangesChart(weeks));
    expect(svg.startsWith('<svg')).toBe(true);
    expect(marks(svg, 'line mark')).toHaveLength(3);
    const points = marks(svg, 'point');
    expect(points).toHaveLength(15);
    expect(points.filter((label) => label.includes('weekly update: 2025-01-13'))).toHaveLength(6);
    expect(points).toContain('date: 2025-01-09; answers changed: 2; weekly update: 2025-01-13');
  });

  it('score by days since the change: one line per system, the days with a number only', async () => {
    const systems: SystemByDays[] = [
      { system: 'golden-doc', by_days_since_change: { '0': { n: 2, f1: 1 }, '3': { n: 1, f1: 0.5 }, unknown: { n: 4, f1: 0 } } },
      { system: 'closed-book', by_days_since_change: { '0': { n: 2, f1: 0 }, '3': { n: 1, f1: 0.25 }, '12': { n: 1, f1: 0 } } },
    ];
    const svg = await renderSvg(scoreByDaysChart(systems));
    expect(marks(svg, 'line mark')).toHaveLength(2);
    const points = marks(svg, 'point');
    expect(points).toHaveLength(5);
    expect(points).toContain('days since the answer changed: 3; F1: 0.25; system: closed-book');
  });

  it('monthly counts: one bar per month and kind', async () => {
    const counts = [
      { month: '2025-03', kind: 'unchanged', n: 40 },
      { month: '2025-03', kind: 'new', n: 4 },
      { month: '2025-04', kind: 'unchanged', n: 41 },
    ];
    const bars = marks(await renderSvg(monthlyCountsChart('Sentence labels per month', 'label', counts)), 'bar');
    expect(bars).toHaveLength(3);
    expect(bars.some((label) => label.includes('2025-04') && label.includes('41'))).toBe(true);
  });
});

/**
 * Charts as SVG text, drawn in Node without a browser or a canvas: a Vega-Lite spec compiled to
 * Vega and rendered by a headless view (renderer "none"; text is measured by Vega's estimate, so
 * no native canvas package is needed). Vega is loaded on first use, never at start-up
 * (docs/ARCHITECTURE.md §12).
 */
import type { TopLevelSpec } from 'vega-lite';

export type ChartSpec = TopLevelSpec;

/**
 * The chart as a standalone SVG document. Marks carry ARIA labels with their values, so the SVG can
 * be read back (tests count the line and point marks).
 *
 * Example: await renderSvg({ data: { values: [{ x: 1, y: 2 }] }, mark: 'point', encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } })
 */
export async function renderSvg(spec: ChartSpec): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: 'none' });
  try {
    return `${await view.toSVG()}\n`;
  } finally {
    view.finalize();
  }
}

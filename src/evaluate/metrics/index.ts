/**
 * The weekly metrics, in report order: the registry a new metric joins (docs/ARCHITECTURE.md §15).
 * Everything that reports, averages, bootstraps or draws a metric reads this list.
 */
import { exactMatch } from './exactMatch.js';
import type { Metric } from './metric.js';
import { subsetMatch } from './subsetMatch.js';
import { tokenF1 } from './tokenF1.js';

/**
 * The registry: a new metric is a file exporting an object `satisfies Metric` and one entry here, in
 * the report order wanted; its `name` becomes its key in reports and item files.
 *
 * @example WEEKLY_METRICS.map((metric) => metric.score(new ScoredText('3rd'), new ScoredText('3rd'))) // [1, 1, 1]
 */
export const WEEKLY_METRICS = [exactMatch, tokenF1, subsetMatch] as const satisfies readonly Metric[];

/** A weekly metric's key: `em`, `f1`, `sm`. */
export type MetricName = (typeof WEEKLY_METRICS)[number]['name'];

export { scoreBest, type Metric } from './metric.js';
export { ScoredText } from './scoredText.js';
export { tokenOverlapF1 } from './tokenF1.js';

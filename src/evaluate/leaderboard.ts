/**
 * A RealTimeQA-style leaderboard (issue 11): every system's submitted predictions scored with the
 * one scorer of this folder, ranked by F1 with 95% bootstrap intervals, rendered as Markdown, HTML
 * and JSON. A submission is one file per system, or one per system and week:
 *
 * - `SYSTEM.jsonl`: weekly predictions; each line's `date`, else the leaderboard's `--date`;
 * - `SYSTEM/YYYY-MM-DD.jsonl`: the predictions for the week starting that day, answered (unless a
 *   line says otherwise) on the day after the week, DailyQA's evaluation date;
 * - `SYSTEM/growover-SNAPSHOT.jsonl` (or `.json`, GrowOVER's results format): GrowOVER predictions
 *   for the QA items active in SNAPSHOT;
 * - `SYSTEM.json`: weekly predictions as SQuAD's `{id: answer}` JSON, answered on `--date`;
 * - `SYSTEM.meta.json` beside any of them: `{"cutoff": "YYYY-MM-DD"}`, the system's training cutoff,
 *   by which its weekly scores split into the answers set before and after it (read by the shell).
 *
 * Example: buildLeaderboard(store, [{ system: 'closed-book', name: 'closed-book/2025-01-20.jsonl', kind: { weekly: '2025-01-20' }, path }], { seed: 1, date: null })
 */
import { parseDate, weekEvaluationDate } from '../dates.js';
import { UserError } from '../errors.js';
import { readPredictionFile, type PredictionSink } from './predictions.js';
import { ThreadedPredictionFile } from './threadedPredictions.js';
import { StoreGold, type EvaluationScope } from './storeCases.js';
import { scoreGrowover, type GrowoverReport } from './growoverScores.js';
import { datedSink, evaluateWeekly, type DatedSink } from './weeklyEvaluation.js';
import type { GroupScores, MetricValues, WeeklyReport } from './weeklyScores.js';
import { WEEKLY_METRICS } from './metrics/index.js';
import type { VerdictRate } from './verdicts.js';
import type { Store } from '../store/store.js';
import type { TimeAxis } from '../model/timelines.js';

/** Which dataset a file predicts for: weekly (of one week, or null: dates from the lines), or a GrowOVER snapshot. */
export type SubmissionKind = { weekly: string | null } | { growover: string };

/** One file of the submissions directory: its system, kind, where it is, and the system's cutoff. */
export interface SubmissionFile {
  system: string;
  /** The file's path inside the submissions directory, as the board names it. */
  name: string;
  kind: SubmissionKind;
  /** Where it is read from: a weekly file twice (its dates, then its scores), never held whole. */
  path: string;
  /** The system's training cutoff (YYYY-MM-DD), from its `SYSTEM.meta.json`. */
  cutoff?: string | null;
}

export type WeeklyEntry = Record<VerdictRate, number> & MetricValues & {
  rank: number;
  system: string;
  files: string[];
  n: number;
  queries: number;
  scored: number;
  missing: number;
  unknown: number;
  ci: WeeklyReport['ci'];
  no_answer: WeeklyReport['no_answer'];
  by_week: Record<string, GroupScores>;
  by_days_since_change: Record<string, GroupScores>;
  /** The system's training cutoff, and its scores on the answers set before it and after it. */
  cutoff: string | null;
  by_cutoff?: WeeklyReport['by_cutoff'];
  aliases: WeeklyReport['aliases'];
  /** Predictions the board did not expect (ids the store does not know, or dates it does not score). */
  outside: number;
};

/**
 * Every registered metric's value in a report, in registry order (docs/ARCHITECTURE.md §15), so a
 * metric added to `WEEKLY_METRICS` is on the board with no change here.
 *
 * @example metricValues({ em: 50, f1: 75, sm: 50, current: 50 }) // { em: 50, f1: 75, sm: 50 }
 */
export function metricValues(report: MetricValues): MetricValues {
  return Object.fromEntries(WEEKLY_METRICS.map((metric) => [metric.name, report[metric.name]])) as MetricValues;
}

/** One system's GrowOVER scores on one snapshot, with its rank. */
export interface GrowoverEntry extends Pick<GrowoverReport, 'ALL' | 'SAME' | 'NEW' | 'CHANGED' | 'CHANGED_DEL' | 'missing'> {
  rank: number;
  system: string;
  files: string[];
  outside: number;
}

/** Every system ranked on the same items: what `buildLeaderboard` gives and the leaderboard pages show. */
export interface Leaderboard {
  seed: number;
  resamples: number;
  /** The dates every weekly system is scored on: the union of what any system's files answer, and --date. */
  dates: string[];
  /** Only the answers that changed on or after this date are scored (`--after`). */
  after: string | null;
  /** The time axis of the weekly gold (`--time`). */
  time: TimeAxis;
  weekly: WeeklyEntry[];
  /** One ranking per snapshot: the same item in two months is two items, never pooled. */
  growover: Array<{ snapshot: string; entries: GrowoverEntry[] }>;
}

const RESAMPLES = 1000;
/** A system's file of one week's predictions, named by the week's start (`SYSTEM/YYYY-MM-DD.jsonl`). */
export const WEEK_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
const GROWOVER_FILE = /^growover-(.+)\.jsonl?$/;

/**
 * What a file of the submissions directory is, from its path (`SYSTEM.jsonl`, `SYSTEM/WEEK.jsonl`,
 * `SYSTEM/growover-SNAPSHOT.jsonl`); a file inside a system's folder named otherwise is an error,
 * since leaving it out would rank the system on part of its predictions.
 */
export function submissionOf(path: string): { system: string; kind: SubmissionKind } {
  const parts = path.split('/');
  if (parts.length === 1 && /^[^.][^/]*\.jsonl$/.test(path)) return { system: path.replace(/\.jsonl$/, ''), kind: { weekly: null } };
  if (parts.length === 1 && /^[^.][^/]*\.json$/.test(path) && !path.endsWith('.meta.json')) return { system: path.replace(/\.json$/, ''), kind: { weekly: null } };
  if (parts.length === 2) {
    const [system, file] = parts as [string, string];
    const week = WEEK_FILE.exec(file)?.[1];
    if (week !== undefined) {
      parseDate(week, `${path}: week`);
      return { system, kind: { weekly: week } };
    }
    const snapshot = GROWOVER_FILE.exec(file)?.[1];
    if (snapshot !== undefined) return { system, kind: { growover: snapshot } };
  }
  throw new UserError('E_PREDICTIONS_INVALID', `${path}: not a submission file: expected SYSTEM.jsonl, SYSTEM.json (SQuAD's {id: answer}), SYSTEM/YYYY-MM-DD.jsonl (a week's start) or SYSTEM/growover-SNAPSHOT.jsonl`);
}

/**
 * Every system scored and ranked on the same expected items: the weekly systems on every date any
 * of them answers (and `date`), each date expecting every kept query whose answer that day is known;
 * the GrowOVER systems on every snapshot any of them answers. A system that leaves out a week or a
 * snapshot has those items missing, counted wrong.
 *
 * @param store - the store whose gold the systems are scored on
 * @param files - the submission files read (`submissionOf` tells each file's system and kind)
 * @param options - `seed` for the bootstrap, `date` an answer date scored even if no system names it,
 *   `after` to score only the items whose answer changed on or after it, `axis` the weekly gold's time axis (edit time when absent)
 * @returns the ranked weekly and GrowOVER entries, and the dates and snapshots scored
 * @throws UserError for no files, an id a system predicts in two files, or a prediction file refused
 * @example leaderboardMarkdown(buildLeaderboard(store, files, { seed: 1, date: null }), [])
 */
export function buildLeaderboard(
  store: Store,
  files: readonly SubmissionFile[],
  options: { seed: number; date: string | null; after?: string | null; axis?: TimeAxis },
): Leaderboard {
  if (files.length === 0) throw new UserError('E_PREDICTIONS_INVALID', 'no submission files: expected SYSTEM.jsonl, SYSTEM/YYYY-MM-DD.jsonl or SYSTEM/growover-SNAPSHOT.jsonl');
  const weekly = new Map<string, WeeklySystem>();
  const growover = new Map<string, Map<string, { files: string[]; predictions: Map<string, string> }>>();
  for (const file of files) {
    if ('growover' in file.kind) {
      const snapshots = growover.get(file.system) ?? new Map<string, { files: string[]; predictions: Map<string, string> }>();
      const entry = snapshots.get(file.kind.growover) ?? { files: [], predictions: new Map<string, string>() };
      entry.files.push(file.name);
      readPredictionFile(file.path, (p) => {
        if (entry.predictions.has(p.id)) throw new UserError('E_PREDICTION_DUPLICATE', `system "${file.system}": id "${p.id}" is predicted twice (${entry.files.join(', ')})`);
        entry.predictions.set(p.id, p.prediction);
      });
      snapshots.set(file.kind.growover, entry);
      growover.set(file.system, snapshots);
      continue;
    }
    const entry = weekly.get(file.system) ?? { files: [], dates: new Set<string>(), cutoff: file.cutoff ?? null };
    entry.files.push(file);
    // A first pass takes only the dates: every system is scored on all of them, so they are known before any is scored.
    readPredictionFile(file.path, weeklyFileSink(file, options.date, (prediction) => entry.dates.add(prediction.date)));
    weekly.set(file.system, entry);
  }
  const gold = new StoreGold(store);
  const dates = [...new Set([...(options.date === null ? [] : [options.date]), ...[...weekly.values()].flatMap((entry) => [...entry.dates])])].sort();
  const after = options.after ?? null;
  const time = options.axis ?? 'edit';
  const scope: EvaluationScope = { dates, week: null, axis: time, ...(after === null ? {} : { after }) };
  const weeklyEntries = [...weekly].map(([system, entry]) => weeklyEntry(gold, system, entry, scope, options));
  const snapshots = [...new Set([...growover.values()].flatMap((entry) => [...entry.keys()]))].sort();
  return {
    seed: options.seed,
    resamples: RESAMPLES,
    dates: weekly.size > 0 ? dates : [],
    after,
    time,
    weekly: rankEntries(weeklyEntries, (e) => [e.f1, e.em]),
    growover: snapshots.map((snapshot) => ({
      snapshot,
      entries: rankEntries(
        [...growover].map(([system, entries]) => growoverEntry(gold, system, snapshot, entries.get(snapshot), options.seed)),
        (e) => [e.ALL.f1, e.ALL.em],
      ),
    })),
  };
}

/**
 * A weekly system's submission files and the dates they answer. Its predictions are read again from
 * the files as it is scored, never held: a system's million lines held whole took 600 MB each.
 */
interface WeeklySystem {
  files: SubmissionFile[];
  dates: Set<string>;
  cutoff: string | null;
}

/** A sink giving each prediction of a weekly file its date: the line's, else the day after the file's week, else `date`. */
function weeklyFileSink(file: SubmissionFile, date: string | null, sink: DatedSink): PredictionSink {
  const defaultDate = 'weekly' in file.kind && file.kind.weekly !== null ? weekEvaluationDate(file.kind.weekly) : date;
  return datedSink(defaultDate, sink, 'give --date D, a "date" on each line, or name the file SYSTEM/YYYY-MM-DD.jsonl after its week');
}

/** Every prediction of a system's weekly files, in turn, read on a second core while they are scored. */
function readWeeklySystem(files: readonly SubmissionFile[], date: string | null, sink: DatedSink): void {
  const sinks = new Map(files.map((file) => [file.path, weeklyFileSink(file, date, sink)]));
  const reader = new ThreadedPredictionFile(files.map((file) => file.path));
  try {
    reader.read((prediction, source, line) => (sinks.get(source) as PredictionSink)(prediction, source, line));
  } finally {
    void reader.close();
  }
}

function weeklyEntry(gold: StoreGold, system: string, entry: WeeklySystem, scope: EvaluationScope, options: { seed: number; date: string | null }): Omit<WeeklyEntry, 'rank'> {
  const feed = (sink: DatedSink) => readWeeklySystem(entry.files, options.date, sink);
  const report = evaluateWeekly(gold, feed, scope, { seed: options.seed, resamples: RESAMPLES, cutoff: entry.cutoff });
  return {
    system,
    files: entry.files.map((file) => file.name).sort(),
    n: report.n,
    queries: report.queries,
    scored: report.scored,
    missing: report.missing,
    unknown: report.unknown,
    ...metricValues(report),
    current: report.current,
    outdated: report.outdated,
    future: report.future,
    wrong: report.wrong,
    ci: report.ci,
    no_answer: report.no_answer,
    by_week: report.by_week,
    by_days_since_change: report.by_days_since_change,
    cutoff: entry.cutoff,
    ...(report.by_cutoff ? { by_cutoff: report.by_cutoff } : {}),
    aliases: report.aliases,
    outside: report.outside.n,
  };
}

function growoverEntry(
  gold: StoreGold,
  system: string,
  snapshot: string,
  entry: { files: string[]; predictions: Map<string, string> } | undefined,
  seed: number,
): Omit<GrowoverEntry, 'rank'> {
  const predicted = new Map(entry?.predictions ?? []);
  const cases = gold.growoverGold(snapshot).map((item) => {
    const prediction = predicted.get(item.id) ?? null;
    predicted.delete(item.id);
    return { gold: item, prediction };
  });
  const report = scoreGrowover(cases, { seed, resamples: RESAMPLES, outside: [...predicted.keys()] });
  return {
    system,
    files: (entry?.files ?? []).sort(),
    ALL: report.ALL,
    SAME: report.SAME,
    NEW: report.NEW,
    CHANGED: report.CHANGED,
    CHANGED_DEL: report.CHANGED_DEL,
    missing: report.missing,
    outside: report.outside.n,
  };
}

/** Best first by the keys, then by name; equal keys share a rank (1, 1, 3). */
export function rankEntries<T extends { system: string }>(entries: T[], keys: (entry: T) => number[]): Array<T & { rank: number }> {
  const compare = (a: T, b: T) => {
    const [ka, kb] = [keys(a), keys(b)];
    for (let i = 0; i < ka.length; i++) if ((kb[i] as number) !== (ka[i] as number)) return (kb[i] as number) - (ka[i] as number);
    return 0;
  };
  const sorted = [...entries].sort((a, b) => compare(a, b) || a.system.localeCompare(b.system));
  return sorted.map((entry) => ({ ...entry, rank: 1 + sorted.filter((other) => compare(other, entry) < 0).length }));
}

/**
 * A RealTimeQA-style leaderboard (issue 11): every system's submitted predictions scored with the
 * one scorer of this folder, ranked by F1 with 95% bootstrap intervals, rendered as Markdown, HTML
 * and JSON. A submission is one file per system, or one per system and week:
 *
 * - `SYSTEM.jsonl`: weekly predictions; each line's `date`, else the leaderboard's `--date`;
 * - `SYSTEM/YYYY-MM-DD.jsonl`: the predictions for the week starting that day, answered (unless a
 *   line says otherwise) on the day after the week, DailyQA's evaluation date;
 * - `SYSTEM/growover-SNAPSHOT.jsonl` (or `.json`, GrowOVER's results format): GrowOVER predictions
 *   for the QA items active in SNAPSHOT.
 *
 * Example: buildLeaderboard(db, [{ system: 'closed-book', name: 'closed-book/2025-01-20.jsonl', kind: { weekly: '2025-01-20' }, content }], { seed: 1, date: null })
 */
import type { Database } from 'better-sqlite3';
import { parseDate, weekEvaluationDate } from '../dates.js';
import { UserError } from '../errors.js';
import { bootstrapIntervals } from './bootstrap.js';
import { growoverScores } from './metrics.js';
import { parsePredictions, type Prediction } from './predictions.js';
import { StoreGold } from './storeCases.js';
import { scoreGrowover, type GrowoverCase, type GrowoverReport } from './growoverScores.js';
import { scoreWeekly, type GroupScores, type WeeklyReport } from './weeklyScores.js';

/** Which dataset a file predicts for: weekly (of one week, or null: dates from the lines), or a GrowOVER snapshot. */
export type SubmissionKind = { weekly: string | null } | { growover: string };

export interface SubmissionFile {
  system: string;
  /** The file's path inside the submissions directory, as errors and the board name it. */
  name: string;
  kind: SubmissionKind;
  content: string;
}

export interface WeeklyEntry {
  rank: number;
  system: string;
  files: string[];
  /** The dates the predictions answered for. */
  dates: string[];
  n: number;
  scored: number;
  missing: number;
  unknown: number;
  em: number;
  f1: number;
  sm: number;
  ci: WeeklyReport['ci'];
  no_answer: WeeklyReport['no_answer'];
  by_week: Record<string, GroupScores>;
  by_days_since_change: Record<string, GroupScores>;
  unknown_ids: number;
}

export interface GrowoverEntry extends Pick<GrowoverReport, 'ALL' | 'SAME' | 'NEW' | 'CHANGED' | 'CHANGED_DEL' | 'missing'> {
  rank: number;
  system: string;
  files: string[];
  snapshots: string[];
  ci: { em: [number, number]; f1: [number, number] };
  unknown_ids: number;
}

export interface Leaderboard {
  seed: number;
  resamples: number;
  weekly: WeeklyEntry[];
  growover: GrowoverEntry[];
}

const RESAMPLES = 1000;
const WEEK_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
const GROWOVER_FILE = /^growover-(.+)\.jsonl?$/;

/**
 * What a file of the submissions directory is, from its path (`SYSTEM.jsonl`, `SYSTEM/WEEK.jsonl`,
 * `SYSTEM/growover-SNAPSHOT.jsonl`); a file inside a system's folder named otherwise is an error,
 * since leaving it out would rank the system on part of its predictions.
 */
export function submissionOf(path: string): { system: string; kind: SubmissionKind } {
  const parts = path.split('/');
  if (parts.length === 1 && /^[^.][^/]*\.jsonl$/.test(path)) return { system: path.replace(/\.jsonl$/, ''), kind: { weekly: null } };
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
  throw new UserError(`${path}: not a submission file: expected SYSTEM.jsonl, SYSTEM/YYYY-MM-DD.jsonl (a week's start) or SYSTEM/growover-SNAPSHOT.jsonl`);
}

/** Every system scored and ranked; `date` answers the flat files' lines that name none. */
export function buildLeaderboard(db: Database, files: readonly SubmissionFile[], options: { seed: number; date: string | null }): Leaderboard {
  if (files.length === 0) throw new UserError('no submission files: expected SYSTEM.jsonl, SYSTEM/YYYY-MM-DD.jsonl or SYSTEM/growover-SNAPSHOT.jsonl');
  const weekly = new Map<string, { files: string[]; predictions: Prediction[] }>();
  const growover = new Map<string, Map<string, { files: string[]; predictions: Prediction[] }>>();
  for (const file of files) {
    const predictions = parsePredictions(file.content, file.name);
    if ('growover' in file.kind) {
      const snapshots = growover.get(file.system) ?? new Map<string, { files: string[]; predictions: Prediction[] }>();
      const entry = snapshots.get(file.kind.growover) ?? { files: [], predictions: [] };
      entry.files.push(file.name);
      entry.predictions.push(...predictions);
      snapshots.set(file.kind.growover, entry);
      growover.set(file.system, snapshots);
      continue;
    }
    const entry = weekly.get(file.system) ?? { files: [], predictions: [] };
    entry.files.push(file.name);
    entry.predictions.push(...predictions.map((p) => ({ ...p, date: p.date ?? answerDate(file, p, options.date) })));
    weekly.set(file.system, entry);
  }
  const gold = new StoreGold(db);
  const weeklyEntries = [...weekly].map(([system, entry]) => weeklyEntry(gold, system, entry, options.seed));
  const growoverEntries = [...growover].map(([system, snapshots]) => growoverEntry(gold, system, snapshots, options.seed));
  return { seed: options.seed, resamples: RESAMPLES, weekly: rankEntries(weeklyEntries, (e) => [e.f1, e.em]), growover: rankEntries(growoverEntries, (e) => [e.ALL.f1, e.ALL.em]) };
}

/** The day after a week file's week (DailyQA's evaluation date), else the leaderboard's date. */
function answerDate(file: SubmissionFile, prediction: Prediction, date: string | null): string {
  const week = 'weekly' in file.kind ? file.kind.weekly : null;
  if (week !== null) return weekEvaluationDate(week);
  if (date !== null) return date;
  throw new UserError(`${file.name}: the prediction for "${prediction.id}" names no date: give --date D, a "date" on each line, or name the file SYSTEM/YYYY-MM-DD.jsonl after its week`);
}

function weeklyEntry(gold: StoreGold, system: string, entry: { files: string[]; predictions: Prediction[] }, seed: number): Omit<WeeklyEntry, 'rank'> {
  const seen = new Set<string>();
  for (const p of entry.predictions) {
    const key = `${p.id}\u0000${p.date}`;
    if (seen.has(key)) throw new UserError(`system "${system}": id "${p.id}" for ${p.date} is predicted in more than one file (${entry.files.join(', ')})`);
    seen.add(key);
  }
  const { cases, unknownIds, dates } = gold.weeklyCases(entry.predictions, null);
  const report = scoreWeekly(cases, { seed, resamples: RESAMPLES, unknownIds });
  return {
    system,
    files: entry.files.sort(),
    dates,
    n: report.n,
    scored: report.scored,
    missing: report.missing,
    unknown: report.unknown,
    em: report.em,
    f1: report.f1,
    sm: report.sm,
    ci: report.ci,
    no_answer: report.no_answer,
    by_week: report.by_week,
    by_days_since_change: report.by_days_since_change,
    unknown_ids: report.unknown_ids.length,
  };
}

function growoverEntry(gold: StoreGold, system: string, snapshots: Map<string, { files: string[]; predictions: Prediction[] }>, seed: number): Omit<GrowoverEntry, 'rank'> {
  const cases: GrowoverCase[] = [];
  let unknown = 0;
  for (const [snapshot, entry] of snapshots) {
    const paired = gold.growoverCases(snapshot, entry.predictions);
    cases.push(...paired.cases);
    unknown += paired.unknownIds.length;
  }
  const report = scoreGrowover(cases);
  // Intervals over ALL items, from the same per-item scores the scorer averages.
  const columns = { em: new Float64Array(cases.length), f1: new Float64Array(cases.length) };
  cases.forEach((item, i) => {
    const scores = growoverScores(item.prediction ?? '', item.gold.answer);
    columns.em[i] = scores.em;
    columns.f1[i] = scores.f1;
  });
  return {
    system,
    files: [...snapshots.values()].flatMap((entry) => entry.files).sort(),
    snapshots: [...snapshots.keys()].sort(),
    ALL: report.ALL,
    SAME: report.SAME,
    NEW: report.NEW,
    CHANGED: report.CHANGED,
    CHANGED_DEL: report.CHANGED_DEL,
    missing: report.missing,
    ci: bootstrapIntervals(columns, { seed, resamples: RESAMPLES }),
    unknown_ids: unknown,
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

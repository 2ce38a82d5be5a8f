/**
 * A verdict per prediction (docs/ARCHITECTURE.md §15), beside the metrics: `current` when it matches
 * the value in effect on the date, `outdated` when it matches a value that held earlier (how many days
 * since that value last held, and how many changes ago), `future` when it matches a value that held
 * only later (a leak or a guess), `wrong` otherwise; `no_value` for an item whose gold has no value,
 * scored apart by the no-answer phrases as before. Matching is the metrics' own: an exact match (EM's
 * normal form) beats a contained one (SM's), over a value and its aliases; on equal terms the current
 * value wins, then the latest earlier one, then the nearest later one. Pure.
 */
import { exactMatch } from './metrics/exactMatch.js';
import type { ScoredText } from './metrics/scoredText.js';
import { subsetMatch } from './metrics/subsetMatch.js';
import type { AnswerState, ValueTimeline } from '../timeline/valueTimeline.js';

/** Every verdict an item can have, in report order (docs/ARCHITECTURE.md §15). */
export const VERDICTS = ['current', 'outdated', 'future', 'no_value', 'wrong'] as const;
export type VerdictName = (typeof VERDICTS)[number];

/** The verdicts of an item whose gold is a value, each a rate of every report group, in report order. */
export const VERDICT_RATES = ['current', 'outdated', 'future', 'wrong'] as const satisfies readonly VerdictName[];
export type VerdictRate = (typeof VERDICT_RATES)[number];

/** An item's verdict, and for an outdated one how old the value it gave is. */
export interface VerdictOutcome {
  verdict: VerdictName;
  /** Outdated: whole days from the last day the matched value held to the date (1: it held the day before). */
  ageDays: number | null;
  /** Outdated: how many changes of the answer lie between the matched value and the date's. */
  changesAgo: number | null;
}

/** How a prediction matches a value: 2 exact (EM), 1 contained (SM), 0 not at all. */
export type MatchLevel = 0 | 1 | 2;

const DAY_MS = 86_400_000;

/**
 * The best match of a prediction with any of the texts (a value and its aliases); only exact ones
 * count with `exactOnly`. A text with nothing left once normalised (DailyQA's "-") matches nothing: an
 * empty reply would otherwise give it exactly.
 */
export function matchLevel(prediction: ScoredText, texts: readonly ScoredText[], exactOnly = false): MatchLevel {
  let level: MatchLevel = 0;
  for (const text of texts) {
    if (text.squad === '') continue;
    if (exactMatch.score(prediction, text) === 1) return 2;
    if (!exactOnly && level === 0 && subsetMatch.score(prediction, text) === 1) level = 1;
  }
  return level;
}

/** A value no system can match (none, or the empty string) is no value. */
export function isValue(value: string | null): value is string {
  return value !== null && value !== '';
}

/** What `verdictOf` compares: the prediction, its match with the current value, and the item's timeline. */
export interface VerdictInput {
  prediction: ScoredText;
  /** How the prediction matches the value in effect on the date (and its aliases). */
  currentLevel: MatchLevel;
  timeline: ValueTimeline;
  /** The index in `timeline` of the stretch in effect on the date. */
  current: number;
  /** The answer date's instant (D 00:00 UTC), in milliseconds. */
  dateMs: number;
  /** The scored forms of a stretch's value and aliases (the stretch, and its index in `timeline`). */
  texts: (state: AnswerState, index: number) => readonly ScoredText[];
  exactOnly?: boolean;
}

/**
 * The verdict of a prediction of an item whose gold is a value. Only what the current match leaves
 * open is compared with the other values, so an exact current answer costs nothing more.
 *
 * @example verdictOf({ prediction: new ScoredText('4th'), currentLevel: 0, timeline, current: 2, dateMs, texts }) // { verdict: 'outdated', ageDays: 3, changesAgo: 1 }
 */
export function verdictOf(input: VerdictInput): VerdictOutcome {
  const { timeline, current, currentLevel } = input;
  if (currentLevel === 2) return CURRENT;
  const here = timeline[current];
  let best: { level: MatchLevel; index: number } = { level: currentLevel, index: current };
  // The latest earlier value first: on equal terms the most recent past is the likelier source.
  for (let i = current - 1; i >= 0 && best.level < 2; i--) {
    const level = levelOf(input, i, here);
    if (level > best.level) best = { level, index: i };
  }
  for (let i = current + 1; i < timeline.length && best.level < 2; i++) {
    const level = levelOf(input, i, here);
    if (level > best.level) best = { level, index: i };
  }
  if (best.level === 0) return WRONG;
  if (best.index === current) return CURRENT;
  if (best.index > current) return FUTURE;
  const matched = timeline[best.index] as AnswerState;
  return { verdict: 'outdated', ageDays: ageInDays(matched, input.dateMs), changesAgo: changesBetween(timeline, best.index, current) };
}

const CURRENT: VerdictOutcome = Object.freeze({ verdict: 'current', ageDays: null, changesAgo: null });
const FUTURE: VerdictOutcome = Object.freeze({ verdict: 'future', ageDays: null, changesAgo: null });
const WRONG: VerdictOutcome = Object.freeze({ verdict: 'wrong', ageDays: null, changesAgo: null });
/** The outcome of an item whose gold is no value (the key or page absent that day). */
export const NO_VALUE: VerdictOutcome = Object.freeze({ verdict: 'no_value', ageDays: null, changesAgo: null });

/** The match with another stretch (its index); none for a stretch without a value or with the date's own value. */
function levelOf(input: VerdictInput, index: number, here: AnswerState | undefined): MatchLevel {
  const state = input.timeline[index] as AnswerState;
  if (!isValue(state.value) || state.value === here?.value) return 0;
  return matchLevel(input.prediction, input.texts(state, index), input.exactOnly);
}

/** Days from the last UTC day on which the stretch held (the day of the instant before `to`) to the date. */
function ageInDays(state: AnswerState, dateMs: number): number | null {
  if (state.to === null) return null;
  const lastDay = Math.floor((Date.parse(state.to) - 1) / DAY_MS);
  return Math.floor(dateMs / DAY_MS) - lastDay;
}

/** The changes of the answer after stretch `from` up to stretch `to`: each stretch whose value differs from the one before. */
function changesBetween(timeline: ValueTimeline, from: number, to: number): number {
  let changes = 0;
  for (let i = from + 1; i <= to; i++) if (valueKey(timeline[i] as AnswerState) !== valueKey(timeline[i - 1] as AnswerState)) changes++;
  return changes;
}

function valueKey(state: AnswerState): string | null {
  return isValue(state.value) ? state.value : null;
}

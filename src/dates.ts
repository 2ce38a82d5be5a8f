import { UserError } from './errors.js';
import type { Window } from './model.js';

const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD` as midnight UTC; rejects anything else (including impossible dates) by name. */
export function parseDate(text: string, what = 'date'): Date {
  const date = calendarDate(text);
  if (date) return date;
  throw new UserError('E_DATE_INVALID', `invalid ${what} "${text}": expected a real calendar date as YYYY-MM-DD`);
}

/** Whether the text is a real calendar date as YYYY-MM-DD (for parsers that report their own errors). */
export function isCalendarDate(text: string): boolean {
  return calendarDate(text) !== undefined;
}

function calendarDate(text: string): Date | undefined {
  const match = DATE_RE.exec(text);
  if (!match) return undefined;
  const [, y, m, d] = match;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d) ? date : undefined;
}

/** ISO-8601 UTC without milliseconds, the form MediaWiki uses: 2021-03-04T05:06:07Z. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** The longest window: a century holds every wiki's history and keeps every date a calendar date. */
const MAX_WINDOW_DAYS = 36525;

/** The window `[start, start + days)` with both ends as ISO timestamps. */
/** DailyQA's evaluation date of a week: the day after it (the week starting 2025-01-12 is scored on 2025-01-19). */
export function weekEvaluationDate(week: string): string {
  return formatDate(addDays(parseDate(week, 'week'), 7));
}

export function windowFrom(start: string, days: number): Window {
  if (!Number.isInteger(days) || days < 1) throw new UserError('E_DATE_RANGE_INVALID', `invalid --days ${days}: expected a whole number of days ≥ 1`);
  if (days > MAX_WINDOW_DAYS) throw new UserError('E_DATE_RANGE_INVALID', `invalid --days ${days}: expected at most ${MAX_WINDOW_DAYS} (a century)`);
  const from = parseDate(start, '--start date');
  return { start: isoSeconds(from), end: isoSeconds(addDays(from, days)) };
}

/** Whether a timestamp falls inside the half-open window (the revisions whose first paragraph is rendered and whose changes are diffed). */
export function inWindow(timestamp: string, window: Window): boolean {
  return timestamp >= window.start && timestamp < window.end;
}

/** MediaWiki's timestamp form: ISO 8601 in UTC, to the second, with or without a fraction. */
const TIMESTAMP_RE = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.\d+)?Z$/;

/**
 * Normalises a timestamp a source gives (with or without milliseconds) to isoSeconds form. Only
 * MediaWiki's form is taken: `Date.parse` would roll 30 February over into March and read a time
 * without a zone in the machine's zone, so the same dump would give another store on another machine.
 */
export function normaliseTimestamp(text: string): string {
  const match = TIMESTAMP_RE.exec(text);
  const day = match ? calendarDate(match[1]!) : undefined;
  if (!match || !day) throw new UserError('E_DATE_INVALID', `invalid timestamp "${text}": expected a real UTC instant as YYYY-MM-DDTHH:MM:SSZ`);
  const [, , hours, minutes, seconds] = match;
  return isoSeconds(new Date(day.getTime() + ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000));
}

export function hoursBetween(a: string, b: string): number {
  return (Date.parse(b) - Date.parse(a)) / 3_600_000;
}

/**
 * The Monday (YYYY-MM-DD) that starts the last complete Monday-to-Sunday week before `now`, UTC:
 * on a Monday, the week that ended at midnight; with `settleHours`, the last one that ended at least
 * that long before `now` (a week's changes reverted within the revert horizon after it are known only
 * once the horizon has passed). `now` is passed in so cron dates are testable.
 */
export function lastCompleteWeekStart(now: Date, settleHours = 0): string {
  now = new Date(now.getTime() - settleHours * 3_600_000);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysSinceMonday = (now.getUTCDay() + 6) % 7;
  return formatDate(new Date(today - (daysSinceMonday + 7) * DAY_MS));
}

const MONTH_RE = /^(\d{4})-(\d{2})$/;

/** The last complete calendar month before `now` (UTC) as YYYY-MM: on 1 April, March. */
export function lastCompleteMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

/** Whether a text names a calendar month as YYYY-MM (the names month snapshots take). */
export function isMonthName(text: string): boolean {
  const match = MONTH_RE.exec(text);
  return match !== null && Number(match[2]) >= 1 && Number(match[2]) <= 12;
}

/** The end of month YYYY-MM: the first day of the following month (YYYY-MM-DD, 00:00 UTC). */
export function monthEnd(month: string): string {
  const match = MONTH_RE.exec(month);
  if (!match || !isMonthName(month)) throw new UserError('E_DATE_INVALID', `invalid month "${month}": expected YYYY-MM`);
  return formatDate(new Date(Date.UTC(Number(match[1]), Number(match[2]), 1)));
}

/** The latest of `names` that is a month (YYYY-MM) before `month`, if any. */
export function latestMonthBefore(names: string[], month: string): string | undefined {
  return names.filter((name) => isMonthName(name) && name < month).sort().at(-1);
}

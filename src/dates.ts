import { UserError } from './errors.js';
import type { Window } from './model.js';

const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD` as midnight UTC; rejects anything else (including impossible dates) by name. */
export function parseDate(text: string, what = 'date'): Date {
  const match = DATE_RE.exec(text);
  if (match) {
    const [, y, m, d] = match;
    const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
    if (date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d)) {
      return date;
    }
  }
  throw new UserError(`invalid ${what} "${text}": expected a real calendar date as YYYY-MM-DD`);
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
export function windowFrom(start: string, days: number): Window {
  if (!Number.isInteger(days) || days < 1) throw new UserError(`invalid --days ${days}: expected a whole number of days ≥ 1`);
  if (days > MAX_WINDOW_DAYS) throw new UserError(`invalid --days ${days}: expected at most ${MAX_WINDOW_DAYS} (a century)`);
  const from = parseDate(start, '--start date');
  return { start: isoSeconds(from), end: isoSeconds(addDays(from, days)) };
}

/** Normalises any timestamp a source gives (with or without milliseconds) to isoSeconds form. */
export function normaliseTimestamp(text: string): string {
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new UserError(`invalid timestamp "${text}"`);
  return isoSeconds(new Date(time));
}

export function hoursBetween(a: string, b: string): number {
  return (Date.parse(b) - Date.parse(a)) / 3_600_000;
}

/**
 * Answers for any date (docs/ARCHITECTURE.md §5): the status rules that turn a page's lifetime and
 * value intervals, or an imported query's intervals, into an answer. The reads come from the
 * timeline repository, one per database so its prepared statements serve every lookup.
 */
import type { Database } from 'better-sqlite3';
import { parseDate } from '../dates.js';
import { UserError } from '../errors.js';
import type { DailyAnswer } from '../model/timelines.js';
import { AnswerTimelines } from '../store/timelineStore.js';

/**
 * - ok: a value was in effect;
 * - no_key: the page existed but had no such key (or the imported answer was null);
 * - no_page: the page did not exist yet;
 * - deleted: the page had been deleted;
 * - unknown: the date lies outside the history the store holds for this page or query (before the
 *   first known revision of a page whose creation is not known, or after its sync mark, the last
 *   instant whose revisions are all stored: run `sync` to extend it).
 */
export type AnswerStatus = 'ok' | 'no_key' | 'no_page' | 'deleted' | 'unknown';

export interface Answer {
  answer: string | null;
  status: AnswerStatus;
  rev_id: number | null;
  valid_from: string | null;
  valid_to: string | null;
}

export interface Subject {
  wiki: string;
  pageId: number;
  key: string;
  /** Prefer the infobox with this template (a page may have several infoboxes with the key). */
  template?: string;
}

const checkedDates = new Set<string>();

/** The instant whose value is the answer on a date: D 00:00:00 UTC (DailyQA's convention). */
export function answerInstant(date: string): string {
  // Lookups come by the hundred thousand for a handful of dates: validate each date once.
  if (!checkedDates.has(date)) {
    parseDate(date, 'answer date');
    checkedDates.add(date);
  }
  return `${date}T00:00:00Z`;
}

const repositories = new WeakMap<Database, AnswerTimelines>();

function timelinesOf(db: Database): AnswerTimelines {
  let timelines = repositories.get(db);
  if (!timelines) {
    timelines = new AnswerTimelines(db);
    repositories.set(db, timelines);
  }
  return timelines;
}

/** The value of a page's infobox key in effect at an instant, with its provenance. */
export function answerSubject(db: Database, subject: Subject & { slot?: string | null }, instant: string): Answer {
  const timelines = timelinesOf(db);
  const none = (status: AnswerStatus): Answer => ({ answer: null, status, rev_id: null, valid_from: null, valid_to: null });
  const life = timelines.lifetime(subject.wiki, subject.pageId);
  // Every revision up to and including the sync mark is stored (docs/ARCHITECTURE.md §2); after it the value is not known.
  if (!life || life.syncedUntil === null || instant > life.syncedUntil) return none('unknown');
  if (life.deletedAt !== null && instant >= life.deletedAt) return none('deleted');
  if (life.createdAt !== null && instant < life.createdAt) return none('no_page');
  if (life.createdAt === null && (life.knownFrom === null || instant < life.knownFrom)) return none('unknown');
  const slot = timelines.slotOf(subject.wiki, subject.pageId, subject.key, { template: subject.template ?? '', slot: subject.slot ?? '' });
  if (slot === undefined) return none('no_key');
  const interval = timelines.intervalAt(subject.wiki, subject.pageId, slot, subject.key, instant);
  if (!interval || (interval.validTo !== null && interval.validTo <= instant)) return none('no_key');
  return { answer: interval.value, status: 'ok', rev_id: interval.revId, valid_from: interval.validFrom, valid_to: interval.validTo };
}

/** The answer of a stored query (generated or imported) on a date. */
export function answerQuery(db: Database, queryId: string, date: string): Answer {
  const instant = answerInstant(date);
  const query = timelinesOf(db).query(queryId, instant);
  if (!query) throw new UserError(`no query with id "${queryId}" in the store`);
  if (query.origin === 'imported') {
    if (query.validFrom === null || (query.validTo !== null && query.validTo <= instant)) {
      return { answer: null, status: 'unknown', rev_id: null, valid_from: null, valid_to: null };
    }
    return { answer: query.answer, status: query.answer === null ? 'no_key' : 'ok', rev_id: null, valid_from: query.validFrom, valid_to: query.validTo };
  }
  return answerSubject(
    db,
    { wiki: query.wiki ?? '', pageId: query.pageId ?? -1, key: query.key ?? '', template: query.template ?? undefined, slot: query.slot },
    instant,
  );
}

/** DailyQA's per-date rows for every kept query (of one week, or all), in one statement. */
export function answersOnDate(db: Database, date: string, options: { windowStart?: string } = {}): DailyAnswer[] {
  return timelinesOf(db).day(answerInstant(date), options);
}

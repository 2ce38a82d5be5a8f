/**
 * Answers for any date (docs/ARCHITECTURE.md §5): the status rules that turn a page's lifetime and
 * value intervals, or an imported query's intervals, into an answer. The reads come from the
 * timeline repository, one per database so its prepared statements serve every lookup.
 */
import type { Database } from 'better-sqlite3';
import { parseDate } from '../dates.js';
import { UserError } from '../errors.js';
import type { PageAtInstant, QueryAtInstant, StoredInterval } from '../model/timelines.js';
import { AnswerTimelines, type TimeAxis } from '../store/timelineStore.js';

export type { TimeAxis } from '../store/timelineStore.js';

/**
 * On edit time (the default):
 * - ok: a value was in effect;
 * - no_key: the page existed but had no such key (or the imported answer was null);
 * - no_page: the page did not exist yet;
 * - deleted: the page had been deleted;
 * - unknown: the date lies outside the history the store holds whole for this page or query (no
 *   collected window or sync reached it: run `sync` to extend a page's history forward).
 */
/**
 * On world time (docs/ARCHITECTURE.md §16), from the time-qualified statements of the entity's latest
 * known revision: ok when one held at the instant, no_key when none did (before the first point in
 * time, between two terms), unknown when the key has no time-qualified statement at all (a fact
 * without dates, a wikitext infobox, an imported query).
 */
export type AnswerStatus = 'ok' | 'no_key' | 'no_page' | 'deleted' | 'unknown';

export interface Answer {
  answer: string | null;
  status: AnswerStatus;
  rev_id: number | null;
  valid_from: string | null;
  valid_to: string | null;
  /** Other names of the answer (the link targets it was written with, a named entity's aliases). */
  aliases: string[];
}

/** A kept query's answer on a date, as DailyQA's files and a release's native records give it. */
export type DatedAnswer = { id: string; query: string } & Answer;

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

/** The value of a page's infobox key in effect at an instant on a time axis (edit time by default), with its provenance. */
export function answerSubject(db: Database, subject: Subject & { slot?: string | null }, instant: string, axis: TimeAxis = 'edit'): Answer {
  const timelines = timelinesOf(db);
  if (axis === 'world') {
    if (!timelines.hasWorldTimeline(subject.wiki, subject.pageId, subject.key)) return none('unknown');
    return intervalAnswer(timelines.worldIntervalAt(subject.wiki, subject.pageId, subject.key, instant), instant);
  }
  const unanswered = pageStatus(timelines.page(subject.wiki, subject.pageId, instant), instant);
  if (unanswered !== undefined) return none(unanswered);
  const slot = timelines.slotOf(subject.wiki, subject.pageId, subject.key, { template: subject.template ?? '', slot: subject.slot ?? '' });
  if (slot === undefined) return none('no_key');
  return intervalAnswer(timelines.intervalAt(subject.wiki, subject.pageId, slot, subject.key, instant), instant);
}

/** The answer of a stored query (generated or imported) on a date, on a time axis (edit time by default). */
export function answerQuery(db: Database, queryId: string, date: string, axis: TimeAxis = 'edit'): Answer {
  const instant = answerInstant(date);
  const query = timelinesOf(db).query(queryId, instant);
  if (!query) throw new UserError(`no query with id "${queryId}" in the store`);
  if (query.origin === 'imported') return axis === 'world' ? none('unknown') : importedAnswer(query, instant);
  return answerSubject(
    db,
    { wiki: query.wiki ?? '', pageId: query.pageId ?? -1, key: query.key ?? '', template: query.template ?? undefined, slot: query.slot },
    instant,
    axis,
  );
}

/** Every kept query's answer (of one week, or all) on a date, under the rules above, from one statement. */
export function answersOnDate(db: Database, date: string, options: { windowStart?: string; axis?: TimeAxis } = {}): DatedAnswer[] {
  const instant = answerInstant(date);
  return timelinesOf(db)
    .day(instant, options)
    .map((row) => {
      if (options.axis === 'world') return { id: row.id, query: row.query, ...(row.timed ? intervalAnswer(row.interval, instant) : none('unknown')) };
      const unanswered = row.origin === 'generated' ? pageStatus(row.page, instant) : undefined;
      const answer =
        row.origin === 'imported' ? importedAnswer(row.imported, instant) : unanswered !== undefined ? none(unanswered) : intervalAnswer(row.interval, instant);
      return { id: row.id, query: row.query, ...answer };
    });
}

function none(status: AnswerStatus): Answer {
  return { answer: null, status, rev_id: null, valid_from: null, valid_to: null, aliases: [] };
}

/** Why a page has no value at an instant, from what the store knows of the page alone; undefined when its keys decide. */
function pageStatus(page: PageAtInstant | undefined, instant: string): AnswerStatus | undefined {
  if (!page) return 'unknown';
  // A stored first revision tells the page did not exist before it, whatever else is held.
  if (page.createdAt !== null && instant < page.createdAt) return 'no_page';
  // Outside every stretch of history held whole, a revision the store lacks may have set any value.
  if (!page.covered) return 'unknown';
  if (page.deletedAt !== null && instant >= page.deletedAt) return 'deleted';
  return undefined;
}

/** The answer from the latest interval of a key starting at or before the instant. */
function intervalAnswer(interval: StoredInterval | undefined, instant: string): Answer {
  if (!interval || (interval.validTo !== null && interval.validTo <= instant)) return none('no_key');
  return { answer: interval.value, status: 'ok', rev_id: interval.revId, valid_from: interval.validFrom, valid_to: interval.validTo, aliases: interval.aliases };
}

function importedAnswer(query: Pick<QueryAtInstant, 'answer' | 'validFrom' | 'validTo'>, instant: string): Answer {
  if (query.validFrom === null || (query.validTo !== null && query.validTo <= instant)) return none('unknown');
  return { answer: query.answer, status: query.answer === null ? 'no_key' : 'ok', rev_id: null, valid_from: query.validFrom, valid_to: query.validTo, aliases: [] };
}

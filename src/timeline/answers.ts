/**
 * Answers for any date (docs/ARCHITECTURE.md §5): the status rules that turn a page's lifetime and
 * value intervals, or an imported query's intervals, into an answer. The reads come from the
 * session's answer-timeline repository (`store.answers`), whose prepared statements serve every lookup.
 */
import { parseDate } from '../dates.js';
import { UserError } from '../errors.js';
import { infoboxTemplateName, normaliseKey } from '../parse/infobox.js';
import { NO_ALIASES, type PageLifetime, type QueryAtInstant, type QueryOverSpan, type StoredInterval, type TimeAxis } from '../model/timelines.js';
import type { Store } from '../store/store.js';
import { valueTimeline, type ValueTimeline } from './valueTimeline.js';

/**
 * On edit time (the default):
 * - ok: a value was in effect;
 * - no_key: the page existed but had no such key (or the imported answer was null);
 * - no_page: the page did not exist yet;
 * - deleted: the page had been deleted;
 * - unknown: the date lies outside the history the store holds whole for this page or query (no
 *   collected window or sync reached it: run `sync` to extend a page's history forward).
 *
 * On world time (docs/ARCHITECTURE.md §16), from the time-qualified statements of the entity's latest
 * known revision: ok when one held at the instant, no_key when none did (before the first point in
 * time, between two terms), unknown when the key has no time-qualified statement at all (a fact
 * without dates, a wikitext infobox, an imported query).
 */
export type AnswerStatus = 'ok' | 'no_key' | 'no_page' | 'deleted' | 'unknown';

/** An answer on a date: its status, the value in effect (null without one), the revision that set it, the interval it held over and its aliases. */
export interface Answer {
  answer: string | null;
  status: AnswerStatus;
  rev_id: number | null;
  valid_from: string | null;
  valid_to: string | null;
  /** Other names of the answer (the link targets it was written with, a named entity's aliases). */
  aliases: readonly string[];
}

/** A kept query's answer on a date, as DailyQA's files and a release's native records give it. */
export type DatedAnswer = { id: string; query: string } & Answer;

/** What a generated query asks: a page's infobox key. */
export interface Subject {
  wiki: string;
  pageId: number;
  key: string;
  /** Prefer the infobox with this template (a page may have several infoboxes with the key). */
  template?: string;
}

const checkedDates = new Set<string>();

/**
 * The instant whose value is the answer on a date: D 00:00:00 UTC (DailyQA's convention).
 *
 * @throws UserError for a date that is not YYYY-MM-DD
 * @example answerInstant('2025-01-20') === '2025-01-20T00:00:00Z'
 */
export function answerInstant(date: string): string {
  // Lookups come by the hundred thousand for a handful of dates: validate each date once.
  if (!checkedDates.has(date)) {
    parseDate(date, 'answer date');
    checkedDates.add(date);
  }
  return `${date}T00:00:00Z`;
}

/**
 * The value of a page's infobox key in effect at an instant on a time axis (edit time by default), with its provenance.
 *
 * @param subject - the page (wiki and page id), the key, and the infobox template and slot it is in
 * @param instant - an ISO timestamp (`answerInstant(date)` for a date's answer)
 * @returns the answer: its status (`ok`, `no_key`, `no_page`, `deleted`, `unknown`), the value and its aliases,
 *   the revision that set it and the interval it held over
 * @example answerSubject(store, { wiki: 'enwiki', pageId: 736, key: 'population_total', template: 'Infobox settlement' }, answerInstant('2025-01-20')).status // 'ok'
 */
export function answerSubject(store: Store, subject: Subject & { slot?: string | null }, instant: string, axis: TimeAxis = 'edit'): Answer {
  const timelines = store.answers;
  if (axis === 'world') {
    const world = timelines.worldIntervalAt(subject.wiki, subject.pageId, subject.key, instant);
    return world.timed ? intervalAnswer(world.interval, instant) : none('unknown');
  }
  return answerInSlot(store, subject, instant, () => timelines.slotOf(subject.wiki, subject.pageId, subject.key, { template: subject.template ?? '', slot: subject.slot ?? '' }));
}

/**
 * The answer for a page's key as a user writes it (`answer --title T --key K [--template X]`): the key
 * and the template are read as the parser reads stored ones (`League result` is `league_result`,
 * `Infobox file format` is `file format`), and a template names the one infobox to answer from: a key
 * it lacks is `no_key`, never another infobox's value.
 *
 * @param asked - the page (wiki and page id, and its title for the refusal's line), the key and the template as the user wrote them
 * @throws UserError (`E_FLAG_INVALID`) for a template none of the page's infoboxes has had, naming those it has
 * @example answerAskedSubject(store, { ...findPageByTitle(store, 'Quillstone'), title: 'Quillstone', key: 'Latest release version', template: 'Infobox file format' }, answerInstant('2025-02-28')).answer // '4'
 */
export function answerAskedSubject(store: Store, asked: Subject & { title: string }, instant: string, axis: TimeAxis = 'edit'): Answer {
  const held = store.answers.infoboxKeys(asked.wiki, asked.pageId);
  let candidates = held;
  if (asked.template !== undefined) {
    const template = infoboxTemplateName(asked.template);
    candidates = held.filter((row) => infoboxTemplateName(row.template) === template);
    if (candidates.length === 0) {
      const templates = [...new Set(held.map((row) => row.template))];
      throw new UserError(
        'E_FLAG_INVALID',
        `--template "${asked.template}": page "${asked.title}" has no such infobox (${templates.length === 0 ? 'it has none' : `its infoboxes: ${templates.join(', ')}`})`,
      );
    }
  }
  const key = normaliseKey(asked.key);
  // Wikidata's keys are properties (`P1082`), stored as written: compared under the normaliser, not replaced by it.
  const found = candidates.find((row) => normaliseKey(row.key) === key) ?? byPropertyLabel(store, candidates, key);
  const subject = { wiki: asked.wiki, pageId: asked.pageId, key: found?.key ?? asked.key };
  // World time reads a key's qualified statements, whatever infobox holds it.
  if (axis === 'world') return answerSubject(store, subject, instant, axis);
  return answerInSlot(store, subject, instant, () => found?.slot);
}

/** The entity fact whose property's English label is `key` (`population` for P1082), as `changes` shows it beside the id. */
function byPropertyLabel<Row extends { key: string }>(store: Store, rows: readonly Row[], key: string): Row | undefined {
  const properties = rows.filter((row) => /^P\d+$/.test(row.key));
  if (properties.length === 0) return undefined;
  const names = store.entities.names(properties.map((row) => row.key));
  return properties.find((row) => {
    const label = names.get(row.key)?.label;
    return label !== undefined && label !== null && normaliseKey(label) === key;
  });
}

/** The edit-time answer from the slot `slotOfKey` finds for the key (undefined: no infobox has it), once the page's lifetime allows one. */
function answerInSlot(store: Store, subject: { wiki: string; pageId: number; key: string }, instant: string, slotOfKey: () => string | undefined): Answer {
  const timelines = store.answers;
  const life = timelines.lifetime(subject.wiki, subject.pageId, instant);
  const unanswered = lifetimeStatus(life, instant);
  if (unanswered !== undefined) return none(unanswered);
  const slot = slotOfKey();
  if (slot === undefined) return none('no_key');
  return intervalAnswer(timelines.intervalAt(subject.wiki, subject.pageId, slot, subject.key, instant), instant, life?.deletedAt);
}

/**
 * The answer of a stored query (generated or imported) on a date, on a time axis (edit time by default).
 *
 * @param queryId - the query's id, as released
 * @param date - YYYY-MM-DD; the answer is the value in effect at its 00:00 UTC
 * @throws UserError for an id the store does not hold, or a date that is not YYYY-MM-DD
 * @example answerQuery(store, query.id, '2025-01-20').status // 'ok' (or 'no_key', 'no_page', 'deleted', 'unknown')
 */
export function answerQuery(store: Store, queryId: string, date: string, axis: TimeAxis = 'edit'): Answer {
  const instant = answerInstant(date);
  const query = store.answers.query(queryId, instant);
  if (!query) throw new UserError('E_QUERY_NOT_FOUND', `no query with id "${queryId}" in the store`);
  if (query.origin === 'imported') return axis === 'world' ? none('unknown') : importedAnswer(query, instant);
  return answerSubject(
    store,
    { wiki: query.wiki ?? '', pageId: query.pageId ?? -1, key: query.key ?? '', template: query.template ?? undefined, slot: query.slot },
    instant,
    axis,
  );
}

/**
 * Every kept query's answer (of one week, or all) on a date, on a time axis (edit time by default), under the rules above, from one statement.
 *
 * @param options - `windowStart`: only the queries of the week starting then; `axis`: edit or world time
 * @returns one answer per kept query, with its id and question, in id order
 * @throws UserError for a date that is not YYYY-MM-DD
 * @example answersOnDate(store, '2025-01-20').filter((answer) => answer.status === 'ok').length
 */
export function answersOnDate(store: Store, date: string, options: { windowStart?: string; axis?: TimeAxis } = {}): DatedAnswer[] {
  return [...answersOverDays(store, [date], options)].map(({ id, query, answers }) => ({ id, query, ...(answers[0] as Answer) }));
}

/**
 * Every kept query's answers (of one week, or all) on each of the dates, ascending, under the same
 * rules as `answersOnDate`, from one statement read query by query: a range of days costs one pass
 * over the intervals, not one statement per day. With `timelines`, each query also comes with its
 * whole value timeline (`valueTimeline`), read in the same pass.
 */
export function answersOverDays(store: Store, dates: readonly string[], options: { windowStart?: string; axis?: TimeAxis; timelines: true }): Generator<QueryAnswers & { timeline: ValueTimeline }>;
export function answersOverDays(store: Store, dates: readonly string[], options?: { windowStart?: string; axis?: TimeAxis; timelines?: false }): Generator<QueryAnswers>;
export function* answersOverDays(
  store: Store,
  dates: readonly string[],
  options: { windowStart?: string; axis?: TimeAxis; timelines?: boolean } = {},
): Generator<QueryAnswers & { timeline?: ValueTimeline }> {
  const instants = dates.map(answerInstant);
  const [first, last] = [instants[0], instants.at(-1)];
  if (first === undefined || last === undefined) return;
  const axis = options.axis ?? 'edit';
  const span = { ...(options.windowStart === undefined ? {} : { windowStart: options.windowStart }), wholeTimelines: options.timelines === true, axis };
  for (const row of store.answers.span(first, last, span)) {
    // An interval in effect on many of the dates gives them one answer, not one each: a million answers were read per evaluation.
    const made = new Map<object, Answer>();
    const answers = instants.map((instant) => answerOverSpan(row, instant, axis, made));
    yield options.timelines ? { id: row.id, query: row.query, answers, timeline: valueTimeline(row) } : { id: row.id, query: row.query, answers };
  }
}

/** A kept query's answers on each date of a range. */
export interface QueryAnswers {
  id: string;
  query: string;
  answers: Answer[];
}

/** The answer at the instant from the row's intervals; `made` keeps the answer of each interval in effect, which depends on nothing else. */
function answerOverSpan(row: QueryOverSpan, instant: string, axis: TimeAxis, made: Map<object, Answer>): Answer {
  if (axis === 'world' && !(row.origin === 'generated' && row.timed === true)) return none('unknown');
  const imported = axis !== 'world' && row.origin === 'imported';
  if (axis !== 'world' && !imported) {
    const unanswered = lifetimeStatus(row.lifetime, instant);
    if (unanswered !== undefined) return none(unanswered);
  }
  const interval = imported ? inEffectAt(row.imported, instant) : inEffectAt(row.intervals, instant);
  if (interval === undefined) return none(imported ? 'unknown' : 'no_key');
  let answer = made.get(interval);
  if (answer === undefined) {
    answer = imported ? importedAnswer(interval as QueryOverSpan['imported'][number], instant) : intervalAnswer(interval as StoredInterval, instant, row.lifetime?.deletedAt);
    made.set(interval, answer);
  }
  return answer;
}

/** The first of the intervals in effect at the instant. */
function inEffectAt<T extends { validFrom: string; validTo: string | null }>(intervals: readonly T[], instant: string): T | undefined {
  for (const interval of intervals) if (interval.validFrom <= instant && (interval.validTo === null || interval.validTo > instant)) return interval;
  return undefined;
}

/** An answer without a value; its aliases the one shared empty list, not one allocated per answer. */
function none(status: AnswerStatus): Answer {
  return { answer: null, status, rev_id: null, valid_from: null, valid_to: null, aliases: NO_ALIASES };
}

/** Why a page has no value at an instant, from what the store knows of the page alone; undefined when its keys decide. */
function lifetimeStatus(life: PageLifetime | undefined, instant: string): AnswerStatus | undefined {
  if (!life) return 'unknown';
  // A stored first revision tells the page did not exist before it, whatever else is held.
  if (life.createdAt !== null && instant < life.createdAt) return 'no_page';
  // Outside every stretch of history held whole, a revision the store lacks may have set any value.
  if (!life.coverage.some((range) => range.from <= instant && instant <= range.until)) return 'unknown';
  if (life.deletedAt !== null && instant >= life.deletedAt) return 'deleted';
  return undefined;
}

/**
 * The answer from the latest interval of a key starting at or before the instant. A value still in
 * effect when its page was deleted held until the deletion, as one ends where a page became a redirect.
 */
function intervalAnswer(interval: StoredInterval | undefined, instant: string, deletedAt: string | null = null): Answer {
  if (!interval || (interval.validTo !== null && interval.validTo <= instant)) return none('no_key');
  const validTo = deletedAt !== null && deletedAt > interval.validFrom && (interval.validTo === null || deletedAt < interval.validTo) ? deletedAt : interval.validTo;
  return { answer: interval.value, status: 'ok', rev_id: interval.revId, valid_from: interval.validFrom, valid_to: validTo, aliases: interval.aliases ?? NO_ALIASES };
}

function importedAnswer(query: Pick<QueryAtInstant, 'answer' | 'validFrom' | 'validTo'>, instant: string): Answer {
  if (query.validFrom === null || (query.validTo !== null && query.validTo <= instant)) return none('unknown');
  return { answer: query.answer, status: query.answer === null ? 'no_key' : 'ok', rev_id: null, valid_from: query.validFrom, valid_to: query.validTo, aliases: NO_ALIASES };
}

import type { Database, Statement } from 'better-sqlite3';
import { parseDate } from '../dates.js';
import { UserError } from '../errors.js';

/**
 * - ok: a value was in effect;
 * - no_key: the page existed but had no such key (or the imported answer was null);
 * - no_page: the page did not exist yet;
 * - deleted: the page had been deleted;
 * - unknown: the date lies outside the history the store holds for this page or query (before the
 *   first known revision of a page whose creation is not known, or at or after its sync mark:
 *   run `sync` to extend it).
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

type AnswerStatements = Record<'lifetime' | 'slot' | 'interval' | 'query', Statement<unknown[]>>;

const statements = new WeakMap<Database, AnswerStatements>();

function prepare(db: Database): AnswerStatements {
  return {
    lifetime: db.prepare(
      `SELECT created_at AS createdAt, deleted_at AS deletedAt, known_from AS knownFrom, synced_until AS syncedUntil
       FROM page_lifetimes WHERE wiki = ? AND page_id = ?`,
    ),
    slot: db.prepare(
      `SELECT slot FROM infobox_intervals WHERE wiki = ? AND page_id = ? AND key = ?
       ORDER BY (template = ?) DESC, (slot = ?) DESC, valid_from DESC LIMIT 1`,
    ),
    interval: db.prepare(
      `SELECT value, rev_id AS revId, valid_from AS validFrom, valid_to AS validTo FROM infobox_intervals
       WHERE wiki = ? AND page_id = ? AND slot = ? AND key = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
    ),
    // One round trip per lookup: the query and, for an imported one, its interval at the instant.
    query: db.prepare(
      `SELECT q.origin, q.wiki, q.page_id AS pageId, q.template, q.key, q.slot, a.answer, a.valid_from AS validFrom, a.valid_to AS validTo
       FROM queries q
       LEFT JOIN query_answer_intervals a ON q.origin = 'imported' AND a.query_id = q.id
         AND a.valid_from = (SELECT MAX(valid_from) FROM query_answer_intervals WHERE query_id = q.id AND valid_from <= @instant)
       WHERE q.id = @id`,
    ),
  };
}

function statementsFor(db: Database): AnswerStatements {
  let prepared = statements.get(db);
  if (!prepared) {
    prepared = prepare(db);
    statements.set(db, prepared);
  }
  return prepared;
}

/** The value of a page's infobox key in effect at an instant, with its provenance. */
export function answerSubject(db: Database, subject: Subject & { slot?: string | null }, instant: string): Answer {
  const sql = statementsFor(db);
  const none = (status: AnswerStatus): Answer => ({ answer: null, status, rev_id: null, valid_from: null, valid_to: null });
  const life = sql.lifetime.get(subject.wiki, subject.pageId) as
    | { createdAt: string | null; deletedAt: string | null; knownFrom: string | null; syncedUntil: string | null }
    | undefined;
  // Revisions at or after the sync mark are not in the store yet: the value there is not known.
  if (!life || life.syncedUntil === null || instant >= life.syncedUntil) return none('unknown');
  if (life.deletedAt !== null && instant >= life.deletedAt) return none('deleted');
  if (life.createdAt !== null && instant < life.createdAt) return none('no_page');
  if (life.createdAt === null && (life.knownFrom === null || instant < life.knownFrom)) return none('unknown');
  const slot = sql.slot.pluck().get(subject.wiki, subject.pageId, subject.key, subject.template ?? '', subject.slot ?? '') as string | undefined;
  if (slot === undefined) return none('no_key');
  const interval = sql.interval.get(subject.wiki, subject.pageId, slot, subject.key, instant) as
    | { value: string; revId: number; validFrom: string; validTo: string | null }
    | undefined;
  if (!interval || (interval.validTo !== null && interval.validTo <= instant)) return none('no_key');
  return { answer: interval.value, status: 'ok', rev_id: interval.revId, valid_from: interval.validFrom, valid_to: interval.validTo };
}

/** The answer of a stored query (generated or imported) on a date. */
export function answerQuery(db: Database, queryId: string, date: string): Answer {
  const sql = statementsFor(db);
  const instant = answerInstant(date);
  const query = sql.query.get({ id: queryId, instant }) as
    | {
        origin: string; wiki: string | null; pageId: number | null; template: string | null; key: string | null; slot: string | null;
        answer: string | null; validFrom: string | null; validTo: string | null;
      }
    | undefined;
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

/**
 * DailyQA's per-date rows for every kept query, in one statement: imported queries from their
 * answer intervals, generated ones from the value timeline of their page, infobox and key.
 */
export function answersOnDate(db: Database, date: string, options: { windowStart?: string } = {}): Array<{ id: string; query: string; answer: string | null }> {
  const instant = answerInstant(date);
  return db
    .prepare(
      `WITH kept AS (
         SELECT q.id, q.text, q.origin, q.wiki, q.page_id, q.key,
                COALESCE((SELECT i.slot FROM infobox_intervals i
                          WHERE i.wiki = q.wiki AND i.page_id = q.page_id AND i.key = q.key AND i.template = q.template
                          ORDER BY i.valid_from DESC LIMIT 1), q.slot) AS slot
         FROM queries q WHERE q.kept = 1 AND (@windowStart IS NULL OR q.window_start = @windowStart)
       )
       SELECT k.id, k.text AS query,
              CASE WHEN k.origin = 'imported' THEN a.answer
                   WHEN l.synced_until IS NULL OR l.synced_until <= @instant THEN NULL
                   WHEN l.deleted_at IS NOT NULL AND l.deleted_at <= @instant THEN NULL
                   ELSE v.value END AS answer
       FROM kept k
       LEFT JOIN query_answer_intervals a
         ON k.origin = 'imported' AND a.query_id = k.id AND a.valid_from <= @instant AND (a.valid_to IS NULL OR a.valid_to > @instant)
       LEFT JOIN infobox_intervals v
         ON k.origin = 'generated' AND v.wiki = k.wiki AND v.page_id = k.page_id AND v.slot = k.slot AND v.key = k.key
        AND v.valid_from <= @instant AND (v.valid_to IS NULL OR v.valid_to > @instant)
       LEFT JOIN page_lifetimes l ON l.wiki = k.wiki AND l.page_id = k.page_id
       ORDER BY k.id`,
    )
    .all({ instant, windowStart: options.windowStart ?? null }) as Array<{ id: string; query: string; answer: string | null }>;
}

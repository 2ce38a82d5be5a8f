/**
 * Value timelines in the store (docs/ARCHITECTURE.md §5): the intervals of every infobox value, page
 * lifetimes and the stretches of history held whole (coverage), written by the timeline and sync stages and read by the answers for any
 * date. Statements are prepared once per repository; rows come back parsed.
 */
import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import { type Infobox, type Window } from '../model.js';
import { NO_ALIASES, type PageLifetime, type PageTimeline, type QueryAtInstant, type QueryOverSpan, type TimeAxis, type TimelineRevision, type WorldInterval } from '../model/timelines.js';
import { FieldsColumn, flag, jsonColumn } from './rows.js';
import { Statements } from './statements.js';
import { currentReading } from './readingVersion.js';

const RevisionRow = z.object({
  revId: z.number().int(),
  parentId: z.number().int().nullable(),
  timestamp: z.string(),
  sha1: z.string().nullable(),
  metadataOnly: flag,
  parsed: flag,
  currentReading: flag,
});
const AliasesColumn = jsonColumn(z.array(z.string()));
const InfoboxRow = z.object({
  revId: z.number().int(),
  template: z.string(),
  fields: FieldsColumn,
  aliases: jsonColumn(z.record(z.string(), z.array(z.string()))).nullable(),
});

const TrackedPageRow = z.object({ pageId: z.number().int() });

/**
 * Rebuilds the value timelines of pages from every revision the store holds for them, in one
 * transaction per batch. Rebuilding (rather than patching) keeps the result a pure function of the
 * stored revisions, so a replayed or extended sync can never leave a stale interval behind.
 */
export class TimelineStore {
  private readonly selectRevisions;
  private readonly selectInfoboxes;
  private readonly deleteIntervals;
  private readonly insertInterval;
  private readonly upsertLifetime;
  private readonly coverCollected;
  private readonly extendCoverage;
  private readonly selectCoverage;
  private readonly selectTrackedPages;
  private readonly upsertDeletion;
  private readonly clearDeletion;
  private readonly deleteWorld;
  private readonly insertWorld;

  constructor(private readonly db: Database, readonly wiki: string) {
    this.selectRevisions = db.prepare(
      `SELECT rev_id AS revId, parent_id AS parentId, timestamp, sha1, metadata_only AS metadataOnly, parsed, parse_version IS ${currentReading('content_model')} AS currentReading
       FROM revisions WHERE wiki = ? AND page_id = ? ORDER BY timestamp, rev_id`,
    );
    this.selectInfoboxes = db.prepare(
      `SELECT i.rev_id AS revId, i.template, i.fields, i.aliases FROM infoboxes i JOIN revisions r ON r.wiki = i.wiki AND r.page_id = i.page_id AND r.rev_id = i.rev_id
       WHERE r.wiki = ? AND r.page_id = ? ORDER BY i.rev_id, i.position`,
    );
    this.deleteIntervals = db.prepare('DELETE FROM infobox_intervals WHERE wiki = ? AND page_id = ?');
    this.insertInterval = db.prepare(
      `INSERT INTO infobox_intervals (wiki, page_id, slot, key, template, value, valid_from, valid_to, rev_id, aliases)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.deleteWorld = db.prepare('DELETE FROM world_intervals WHERE wiki = ? AND page_id = ?');
    this.insertWorld = db.prepare(
      'INSERT INTO world_intervals (wiki, page_id, key, value, aliases, valid_from, valid_to, rev_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.upsertLifetime = db.prepare(
      `INSERT INTO page_lifetimes (wiki, page_id, created_at) VALUES (@wiki, @pageId, @createdAt)
       ON CONFLICT (wiki, page_id) DO UPDATE SET created_at = COALESCE(excluded.created_at, page_lifetimes.created_at)`,
    );
    // A collection of the window fetched the last revision before it and every one up to its end: the
    // history is whole from that revision (or the page's first in the window) to the end.
    this.coverCollected = db.prepare(
      `INSERT OR IGNORE INTO page_coverage (wiki, page_id, covered_from, covered_until)
       SELECT @wiki, @pageId, covered_from, @end FROM (SELECT COALESCE(
         (SELECT MAX(timestamp) FROM revisions WHERE wiki = @wiki AND page_id = @pageId AND metadata_only = 0 AND timestamp < @start),
         (SELECT MIN(timestamp) FROM revisions WHERE wiki = @wiki AND page_id = @pageId AND metadata_only = 0 AND timestamp >= @start)) AS covered_from)
       WHERE covered_from IS NOT NULL AND covered_from <= @end`,
    );
    // A page no source listed as changed in [start, end] kept the value it had at start: the end of
    // the history it holds whole (`heldUntil`), when that is not before start, reaches on to the end.
    this.extendCoverage = db.prepare('INSERT OR IGNORE INTO page_coverage (wiki, page_id, covered_from, covered_until) VALUES (@wiki, @pageId, @mark, @end)');
    this.selectCoverage = db.prepare('SELECT covered_from AS "from", covered_until AS until FROM page_coverage WHERE wiki = ? AND page_id = ? ORDER BY covered_from');
    this.selectTrackedPages = db.prepare(
      `WITH tracked AS (
         SELECT page_id FROM queries WHERE origin = 'generated' AND kept = 1 AND wiki = @wiki
         UNION
         SELECT d.page_id FROM data_units d WHERE d.wiki = @wiki AND NOT EXISTS (
           SELECT 1 FROM queries q WHERE q.origin = 'generated' AND q.wiki = d.wiki AND q.page_id = d.page_id AND q.window_start = d.window_start)
       )
       SELECT t.page_id AS pageId FROM tracked t ORDER BY t.page_id`,
    );
    this.upsertDeletion = db.prepare(
      `INSERT INTO page_lifetimes (wiki, page_id, deleted_at) VALUES (?, ?, ?)
       ON CONFLICT (wiki, page_id) DO UPDATE SET deleted_at = excluded.deleted_at`,
    );
    this.clearDeletion = db.prepare('UPDATE page_lifetimes SET deleted_at = NULL WHERE wiki = ? AND page_id = ? AND deleted_at <= ?');
  }

  /**
   * Rebuilds these pages' timelines with `build` (the timeline logic, docs/ARCHITECTURE.md §5) from
   * their stored revisions; returns how many intervals they now have.
   */
  rebuild(pageIds: readonly number[], build: (revisions: TimelineRevision[]) => PageTimeline): number {
    let intervals = 0;
    this.db.transaction(() => {
      for (const pageId of pageIds) {
        const timeline = build(this.pageRevisions(pageId));
        this.save(pageId, timeline);
        intervals += timeline.intervals.length;
      }
    })();
    return intervals;
  }

  /**
   * Replaces these pages' world-time intervals by what `build` makes of each (docs/ARCHITECTURE.md §16),
   * in one transaction; returns how many there now are.
   */
  rebuildWorld(pageIds: readonly number[], build: (pageId: number) => WorldInterval[]): number {
    let intervals = 0;
    this.db.transaction(() => {
      for (const pageId of pageIds) {
        this.deleteWorld.run(this.wiki, pageId);
        for (const interval of build(pageId)) {
          this.insertWorld.run(this.wiki, pageId, interval.key, interval.value, aliasesJson(interval.aliases), interval.validFrom, interval.validTo, interval.revId);
          intervals++;
        }
      }
    })();
    return intervals;
  }

  /**
   * Records that these pages, collected for `window`, have their history held whole from the last
   * revision before the window up to and including the instant `window.end` (collection reaches it,
   * docs/ARCHITECTURE.md §2), whatever else the store holds of them.
   */
  markCollected(pageIds: readonly number[], window: Window): void {
    this.db.transaction(() => {
      for (const pageId of pageIds) this.coverCollected.run({ ...window, wiki: this.wiki, pageId });
    })();
  }

  /**
   * Records that these pages, which the source did not list as changed in `window`, held still
   * through it: each page whose history is held up to an instant inside the window is held to its end.
   * A page held only up to an instant before the window gains nothing (the revisions between are missing).
   */
  markUnchanged(pageIds: readonly number[], window: Window): void {
    this.db.transaction(() => {
      for (const pageId of pageIds) {
        const mark = this.heldUntil(pageId);
        if (mark !== null && mark >= window.start && mark < window.end) this.extendCoverage.run({ wiki: this.wiki, pageId, mark, end: window.end });
      }
    })();
  }

  /**
   * Pages behind kept generated queries, and behind data units that have no query yet, each with the
   * end of the history it holds whole from its earliest held instant: where its sync starts. Not its
   * latest instant held: a page collected by two weeks apart holds neither the gap between them.
   */
  trackedPages(): Array<{ pageId: number; syncedUntil: string | null }> {
    return this.selectTrackedPages.all({ wiki: this.wiki }).map((row) => {
      const { pageId } = TrackedPageRow.parse(row);
      return { pageId, syncedUntil: this.heldUntil(pageId) };
    });
  }

  /** The end of the page's first run of coverage ranges that meet or overlap; null for a page with none. */
  private heldUntil(pageId: number): string | null {
    let until: string | null = null;
    for (const raw of this.selectCoverage.all(this.wiki, pageId)) {
      const range = CoverageRow.parse(raw);
      if (until !== null && range.from > until) break;
      if (until === null || range.until > until) until = range.until;
    }
    return until;
  }

  /** Records that the page was deleted at `deletedAt` (its answers are `deleted` from then on). */
  markDeleted(pageId: number, deletedAt: string): void {
    this.upsertDeletion.run(this.wiki, pageId, deletedAt);
  }

  /** Records that the page was restored at `restoredAt`: a deletion recorded before then no longer holds. */
  markRestored(pageId: number, restoredAt: string): void {
    this.clearDeletion.run(this.wiki, pageId, restoredAt);
  }

  private pageRevisions(pageId: number): TimelineRevision[] {
    const infoboxes = new Map<number, Infobox[]>();
    for (const raw of this.selectInfoboxes.all(this.wiki, pageId)) {
      const row = InfoboxRow.parse(raw);
      const list = infoboxes.get(row.revId) ?? [];
      list.push({ template: row.template, fields: row.fields, ...(row.aliases ? { aliases: row.aliases } : {}) });
      infoboxes.set(row.revId, list);
    }
    return this.selectRevisions.all(this.wiki, pageId).map((raw) => {
      const row = RevisionRow.parse(raw);
      const read = !row.metadataOnly && row.parsed;
      return {
        revId: row.revId,
        parentId: row.parentId,
        timestamp: row.timestamp,
        sha1: row.sha1,
        infoboxes: read ? (infoboxes.get(row.revId) ?? []) : null,
        ...(read && !row.currentReading ? { olderReading: true } : {}),
      };
    });
  }

  private save(pageId: number, timeline: PageTimeline): void {
    this.deleteIntervals.run(this.wiki, pageId);
    for (const interval of timeline.intervals) {
      this.insertInterval.run(
        this.wiki, pageId, interval.slot, interval.key, interval.template, interval.value, interval.validFrom, interval.validTo, interval.revId,
        aliasesJson(interval.aliases),
      );
    }
    this.upsertLifetime.run({ wiki: this.wiki, pageId, createdAt: timeline.createdAt });
  }
}

/** Aliases as stored: JSON, or NULL for none. */
function aliasesJson(aliases: readonly string[] | undefined): string | null {
  return aliases && aliases.length > 0 ? JSON.stringify(aliases) : null;
}

const LifetimeRow = z.object({ createdAt: z.string().nullable(), deletedAt: z.string().nullable() });
const CoverageRow = z.object({ from: z.string(), until: z.string() });
const HeldSpansRow = z.object({
  historyFrom: z.string().nullable(),
  historyFirstEnd: z.string().nullable(),
  historyUntil: z.string().nullable(),
  importedFrom: z.string().nullable(),
  importedUntil: z.string().nullable(),
});

/** From one instant to another (ISO 8601, UTC), both included. */
export interface HeldSpan {
  from: string;
  until: string;
}
const StoredAliases = AliasesColumn.nullable().transform((aliases): readonly string[] => aliases ?? NO_ALIASES);
const IntervalRow = z.object({ value: z.string(), revId: z.number().int(), validFrom: z.string(), validTo: z.string().nullable(), aliases: StoredAliases });
const QueryRow = z.object({
  origin: z.enum(['generated', 'imported']),
  wiki: z.string().nullable(),
  pageId: z.number().int().nullable(),
  template: z.string().nullable(),
  key: z.string().nullable(),
  slot: z.string().nullable(),
  answer: z.string().nullable(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
});
const SpanRow = z.object({
  id: z.string(),
  query: z.string(),
  origin: z.enum(['generated', 'imported']),
  wiki: z.string().nullable(),
  pageId: z.number().int().nullable(),
  /** An imported query's intervals in the span, oldest first, as [answer, valid_from, valid_to]. */
  imported: jsonColumn(z.array(z.tuple([z.string().nullable(), z.string(), z.string().nullable()]))).nullable(),
  hasLifetime: z.number().int(),
  ...LifetimeRow.shape,
  value: z.string().nullable(),
  revId: z.number().int().nullable(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  aliases: StoredAliases,
  heldFrom: z.string().nullable(),
  timed: flag,
});
/** A span row as the statement gives it, before parsing (the interval's aliases still JSON text). */
type RawSpanRow = z.input<typeof SpanRow>;
/** A span row as the statement gives it in raw mode: its columns' values in the statement's order. */
type RawSpanArray = ReadonlyArray<RawSpanRow[keyof RawSpanRow]>;
const OptionalSlot = z.string().optional();
const InfoboxKeyRow = z.object({ slot: z.string(), template: z.string(), key: z.string() });

/** The kept queries (of one week when @windowStart is set), a generated one with the slot of its key. */
const KEPT_QUERIES = `
  SELECT q.id, q.text, q.origin, q.wiki, q.page_id, q.key,
         COALESCE((SELECT i.slot FROM infobox_intervals i
                   WHERE i.wiki = q.wiki AND i.page_id = q.page_id AND i.key = q.key AND i.template = q.template
                   ORDER BY i.valid_from DESC LIMIT 1), q.slot) AS slot
  FROM queries q WHERE q.kept = 1 AND (@windowStart IS NULL OR q.window_start = @windowStart)`;

/**
 * The reads behind answers for any date, across wikis: a page's lifetime and the stretches of its
 * history held over a span, the interval of a key in effect at an instant on either time axis, a
 * stored query, and every kept query over a span of days in one statement. Lookups come by the
 * hundred thousand, so each statement is prepared once per repository and each row parsed once.
 */
export class AnswerTimelines {
  private readonly selectLifetime;
  private readonly selectCoverage;
  private readonly selectSlot;
  private readonly selectInfoboxKeys;
  private readonly selectInterval;
  private readonly selectWorldInterval;
  private readonly selectQuery;
  private readonly selectHeldSpans;
  private readonly statements: Statements;

  constructor(db: Database) {
    this.statements = new Statements(db);
    this.selectLifetime = db.prepare('SELECT created_at AS createdAt, deleted_at AS deletedAt FROM page_lifetimes WHERE wiki = ? AND page_id = ?');
    // The ranges holding some instant of [@first, @last] (docs/ARCHITECTURE.md §5).
    this.selectCoverage = db.prepare(
      `SELECT covered_from AS "from", covered_until AS until FROM page_coverage
       WHERE wiki = @wiki AND page_id = @pageId AND covered_from <= @last AND covered_until >= @first ORDER BY covered_from`,
    );
    this.selectSlot = db
      .prepare(
        `SELECT slot FROM infobox_intervals WHERE wiki = ? AND page_id = ? AND key = ?
         ORDER BY (template = ?) DESC, (slot = ?) DESC, valid_from DESC LIMIT 1`,
      )
      .pluck();
    this.selectInfoboxKeys = db.prepare(
      `SELECT slot, template, key FROM infobox_intervals WHERE wiki = ? AND page_id = ?
       GROUP BY slot, template, key ORDER BY MAX(valid_from) DESC, slot, template, key`,
    );
    this.selectInterval = db.prepare(
      `SELECT value, rev_id AS revId, valid_from AS validFrom, valid_to AS validTo, aliases FROM infobox_intervals
       WHERE wiki = ? AND page_id = ? AND slot = ? AND key = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
    );
    // The latest interval of the key starting at or before the instant, else any later one: a row says
    // the key has a world timeline at all, in the same read.
    this.selectWorldInterval = db.prepare(
      `SELECT value, rev_id AS revId, valid_from AS validFrom, valid_to AS validTo, aliases FROM world_intervals
       WHERE wiki = @wiki AND page_id = @pageId AND key = @key ORDER BY valid_from <= @instant DESC, valid_from DESC LIMIT 1`,
    );
    // One round trip per lookup: the query and, for an imported one, its interval at the instant.
    this.selectQuery = db.prepare(
      `SELECT q.origin, q.wiki, q.page_id AS pageId, q.template, q.key, q.slot, a.answer, a.valid_from AS validFrom, a.valid_to AS validTo
       FROM queries q
       LEFT JOIN query_answer_intervals a ON q.origin = 'imported' AND a.query_id = q.id
         AND a.valid_from = (SELECT MAX(valid_from) FROM query_answer_intervals WHERE query_id = q.id AND valid_from <= @instant)
       WHERE q.id = @id`,
    );
    this.selectHeldSpans = db.prepare(
      `WITH kept AS (
         SELECT id, origin, wiki, page_id FROM queries
         WHERE CASE WHEN @queryId IS NULL THEN kept = 1 AND (@windowStart IS NULL OR window_start = @windowStart) ELSE id = @queryId END),
       pages AS (
         SELECT MIN(c.covered_from) AS heldFrom, MAX(c.covered_until) AS heldUntil
         FROM page_coverage c JOIN (SELECT DISTINCT wiki, page_id FROM kept WHERE origin = 'generated') g ON c.wiki = g.wiki AND c.page_id = g.page_id
         GROUP BY c.wiki, c.page_id)
       SELECT MIN(heldFrom) AS historyFrom, MIN(heldUntil) AS historyFirstEnd, MAX(heldUntil) AS historyUntil,
              (SELECT MIN(a.valid_from) FROM query_answer_intervals a JOIN kept i ON i.origin = 'imported' AND a.query_id = i.id) AS importedFrom,
              (SELECT MAX(a.valid_to) FROM query_answer_intervals a JOIN kept i ON i.origin = 'imported' AND a.query_id = i.id) AS importedUntil
       FROM pages`,
    );
  }

  /**
   * Where the answers of the kept queries (of one week, or all; or of one query, kept or not) can be known at all: from the
   * earliest to the latest instant their pages' histories are held (`firstEnd`: where the first of
   * them ends), and from the first to the end of the days of the published files imported; a side
   * the store holds nothing of is absent.
   */
  heldSpans(of: { windowStart?: string; queryId?: string } = {}): { histories?: HeldSpan & { firstEnd: string }; imported?: HeldSpan } {
    const row = HeldSpansRow.parse(this.selectHeldSpans.get({ windowStart: of.windowStart ?? null, queryId: of.queryId ?? null }));
    const { historyFrom: from, historyFirstEnd: firstEnd, historyUntil: until } = row;
    return {
      ...(from !== null && firstEnd !== null && until !== null ? { histories: { from, firstEnd, until } } : {}),
      ...(row.importedFrom !== null && row.importedUntil !== null ? { imported: { from: row.importedFrom, until: row.importedUntil } } : {}),
    };
  }

  /**
   * The page's lifetime and the stretches of its history held that reach into [first, last] (one
   * instant: both the same); undefined when its timeline was never built.
   */
  lifetime(wiki: string, pageId: number, first: string, last = first): PageLifetime | undefined {
    const row = this.selectLifetime.get(wiki, pageId);
    if (row === undefined) return undefined;
    return { ...LifetimeRow.parse(row), coverage: this.coverage(wiki, pageId, first, last) };
  }

  /** The slot of the page's infobox that has the key, preferring the template and then the slot given. */
  slotOf(wiki: string, pageId: number, key: string, prefer: { template: string; slot: string }): string | undefined {
    return OptionalSlot.parse(this.selectSlot.get(wiki, pageId, key, prefer.template, prefer.slot));
  }

  /**
   * Every key the page's infoboxes have had, with the slot and the template it was held under, the
   * most recently set first: what a key and template a user names are matched against.
   */
  infoboxKeys(wiki: string, pageId: number): Array<z.infer<typeof InfoboxKeyRow>> {
    return this.selectInfoboxKeys.all(wiki, pageId).map((row) => InfoboxKeyRow.parse(row));
  }

  /** The latest interval of the slot's key that starts at or before the instant. */
  intervalAt(wiki: string, pageId: number, slot: string, key: string, instant: string): z.infer<typeof IntervalRow> | undefined {
    const row = this.selectInterval.get(wiki, pageId, slot, key, instant);
    return row === undefined ? undefined : IntervalRow.parse(row);
  }

  /**
   * Whether the page's key has time-qualified statements (a world timeline) at all and, if so, its
   * latest world-time interval that starts at or before the instant, in one read.
   */
  worldIntervalAt(wiki: string, pageId: number, key: string, instant: string): { timed: boolean; interval?: z.infer<typeof IntervalRow> } {
    const row = this.selectWorldInterval.get({ wiki, pageId, key, instant });
    if (row === undefined) return { timed: false };
    const interval = IntervalRow.parse(row);
    return interval.validFrom <= instant ? { timed: true, interval } : { timed: true };
  }

  /** The stored query, with an imported one's answer interval at the instant. */
  query(id: string, instant: string): QueryAtInstant | undefined {
    const row = this.selectQuery.get({ id, instant });
    return row === undefined ? undefined : QueryRow.parse(row);
  }

  /**
   * Every kept query (of one week, or all) over the instants from `first` to `last`, in one
   * statement read row by row: each query once, with every imported interval or every interval of
   * its key in effect at some instant of the span, oldest first, and its page's coverage there.
   * With `wholeTimelines`, every interval the store holds of each query whatever its time, with the
   * value's aliases and the first instant of the page's history held: the timeline a prediction is
   * matched against (docs/ARCHITECTURE.md §15), read in the same single pass.
   */
  *span(first: string, last: string, options: { windowStart?: string; wholeTimelines?: boolean; axis?: TimeAxis } = {}): Generator<QueryOverSpan> {
    let current: QueryOverSpan | undefined;
    // Rows come as arrays: an object of 16 named columns per row was half the read's time.
    const statement = this.spanStatement({ whole: options.wholeTimelines === true, world: options.axis === 'world' }).raw(true);
    const names = statement.columns().map((column) => column.name);
    const column = (name: keyof RawSpanRow): number => names.indexOf(name);
    const [id, value, revId, validFrom, validTo, aliasesAt] = (['id', 'value', 'revId', 'validFrom', 'validTo', 'aliases'] as const).map(column) as [
      number, number, number, number, number, number,
    ];
    // A timestamp is read once per interval, and a span's intervals share few of them (an imported
    // release's are its days): one string each, not one per row, was a tenth of an evaluation's gold.
    const instants = new Map<string, string>();
    const instant = (text: string): string => {
      const known = instants.get(text);
      if (known !== undefined) return known;
      instants.set(text, text);
      return text;
    };
    for (const raw of statement.iterate({ first, last, windowStart: options.windowStart ?? null }) as Iterable<unknown[]>) {
      // A query's first row is parsed whole: it checks the shape of the statement's rows and gives the
      // query's own columns and an imported query's intervals. The rows after it differ only in an
      // interval's columns and are read as that shape, their aliases' JSON parsed: a zod parse of every
      // row was a tenth of an evaluation.
      let aliases: readonly string[];
      if (current === undefined || current.id !== raw[id]) {
        if (current) yield current;
        const row = SpanRow.parse(Object.fromEntries(names.map((name, at) => [name, raw[at]])));
        const { createdAt, deletedAt } = row;
        const held = row.hasLifetime && row.wiki !== null && row.pageId !== null;
        current = {
          id: row.id,
          query: row.query,
          origin: row.origin,
          imported: (row.imported ?? []).map(([answer, from, to]) => ({ answer, validFrom: instant(from), validTo: to === null ? null : instant(to), aliases: NO_ALIASES })),
          lifetime: held ? { createdAt, deletedAt, coverage: this.coverage(row.wiki as string, row.pageId as number, first, last) } : undefined,
          intervals: [],
          ...(options.wholeTimelines ? { heldFrom: row.heldFrom } : {}),
          ...(options.axis === 'world' ? { timed: row.timed } : {}),
        };
        aliases = row.aliases;
      } else aliases = raw[aliasesAt] === null ? NO_ALIASES : StoredAliases.parse(raw[aliasesAt]);
      const row = raw as RawSpanArray;
      if (row[value] !== null && row[revId] !== null && row[validFrom] !== null)
        current.intervals.push({
          value: row[value] as string,
          revId: row[revId] as number,
          validFrom: instant(row[validFrom] as string),
          validTo: row[validTo] === null ? null : instant(row[validTo] as string),
          aliases,
        });
    }
    if (current) yield current;
  }

  /** The span statement of these options, prepared the first time it is asked for. */
  private spanStatement(options: { whole: boolean; world: boolean }): Statement {
    return this.statements.get(spanSql(options));
  }

  private coverage(wiki: string, pageId: number, first: string, last: string): Array<{ from: string; until: string }> {
    return this.selectCoverage.all({ wiki, pageId, first, last }).map((row) => CoverageRow.parse(row));
  }
}

/**
 * Every kept query with its intervals, in order: those in effect at some instant from @first to @last
 * (a day: both the same), or with `whole` every interval of the query and the first instant the
 * page's history is held from. On world time (`world`), the intervals of the key's time-qualified
 * statements (docs/ARCHITECTURE.md §16): no page lifetime or coverage decides, only whether the key
 * has such statements at all (`timed`); an imported query has none. An interval found answers that
 * by itself, so the look for any interval of the key runs only on the one row of a query that found
 * none in the span: at most once per query, not once per interval.
 */
function spanSql({ whole, world }: { whole: boolean; world: boolean }): string {
  const inSpan = (table: string) => (whole ? '' : `AND ${table}.valid_from <= @last AND (${table}.valid_to IS NULL OR ${table}.valid_to > @first)`);
  const heldFrom = whole && !world ? '(SELECT MIN(c.covered_from) FROM page_coverage c WHERE c.wiki = k.wiki AND c.page_id = k.page_id)' : 'NULL';
  if (world) {
    return `WITH kept AS (${KEPT_QUERIES})
       SELECT k.id, k.text AS query, k.origin, k.wiki, k.page_id AS pageId,
              NULL AS imported, 0 AS hasLifetime, NULL AS createdAt, NULL AS deletedAt,
              w.value, w.rev_id AS revId, w.valid_from AS validFrom, w.valid_to AS validTo, w.aliases, ${heldFrom} AS heldFrom,
              CASE WHEN w.wiki IS NOT NULL THEN 1
                   WHEN k.origin = 'generated' THEN EXISTS (SELECT 1 FROM world_intervals x WHERE x.wiki = k.wiki AND x.page_id = k.page_id AND x.key = k.key)
                   ELSE 0 END AS timed
       FROM kept k
       LEFT JOIN world_intervals w ON k.origin = 'generated' AND w.wiki = k.wiki AND w.page_id = k.page_id AND w.key = k.key ${inSpan('w')}
       ORDER BY k.id, w.valid_from`;
  }
  // An imported query's intervals come as one JSON list on its one row: a row per interval, with the
  // generated columns all NULL, was half of a million-prediction evaluation's gold read.
  return `WITH kept AS (${KEPT_QUERIES})
       SELECT k.id, k.text AS query, k.origin, k.wiki, k.page_id AS pageId,
              CASE WHEN k.origin = 'imported' THEN
                (SELECT json_group_array(json_array(a.answer, a.valid_from, a.valid_to) ORDER BY a.valid_from)
                 FROM query_answer_intervals a WHERE a.query_id = k.id ${inSpan('a')}) END AS imported,
              l.wiki IS NOT NULL AS hasLifetime, l.created_at AS createdAt, l.deleted_at AS deletedAt,
              v.value, v.rev_id AS revId, v.valid_from AS validFrom, v.valid_to AS validTo,
              v.aliases, ${heldFrom} AS heldFrom, 1 AS timed
       FROM kept k
       LEFT JOIN infobox_intervals v
         ON k.origin = 'generated' AND v.wiki = k.wiki AND v.page_id = k.page_id AND v.slot = k.slot AND v.key = k.key ${inSpan('v')}
       LEFT JOIN page_lifetimes l ON l.wiki = k.wiki AND l.page_id = k.page_id
       ORDER BY k.id, v.valid_from`;
}

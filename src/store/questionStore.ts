/**
 * Generated questions and what happened to them: the `queries` rows of the weekly pipeline and their
 * provenance, check results and domains (schema v3). Every write is keyed by the query id, so a
 * replayed batch rewrites the same rows.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { Statements } from './statements.js';
import type { Window } from '../model.js';
import type { CheckResult, DomainResult, GeneratedItem, Generation, KeptQuery, Question, QuerySummary, StoredCheck, UpdateFrequency } from '../model/questions.js';
import type { AnswerInterval } from '../model/timelines.js';
import { DataUnitRow } from './changeStore.js';
import { Count, flag, InfoboxColumn, jsonColumn, Texts } from './rows.js';

const GeneratedFromRow = z.object({ id: z.string(), revId: z.number().int(), key: z.string(), gold: z.string(), reason: z.string().nullable(), provider: z.string(), model: z.string(), seed: z.string() });
export type GeneratedFrom = z.infer<typeof GeneratedFromRow>;
const QuestionRow = DataUnitRow.extend({ id: z.string(), text: z.string() });
const GeneratedItemRow = z.object({
  id: z.string(),
  status: z.enum(['ok', 'failed']),
  reason: z.string().nullable(),
  text: z.string().nullable(),
  kept: flag.nullable(),
  updateFrequency: z.string().nullable(),
  wiki: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  pageId: z.number().int(),
  revId: z.number().int(),
  prevRevId: z.number().int(),
  gold: z.string(),
  prompt: z.string(),
  promptVersion: z.string(),
  provider: z.string(),
  model: z.string(),
  seed: z.string(),
  title: z.string(),
  url: z.string(),
  timestamp: z.string(),
  template: z.string(),
  key: z.string(),
  old: z.string(),
  infobox: InfoboxColumn,
  keyLabels: InfoboxColumn,
  firstParagraph: z.string(),
  domain: z.string().nullable(),
  domainProvider: z.string().nullable(),
  domainModel: z.string().nullable(),
  domainPrompt: z.string().nullable(),
  domainPromptVersion: z.string().nullable(),
  domainReason: z.string().nullable(),
  capped: flag.nullable(),
});
const CheckedRow = z.object({ queryId: z.string(), reasons: jsonColumn(z.array(z.string())) });
const StoredCheckRow = z.object({
  queryId: z.string(),
  check: z.string(),
  passed: flag,
  reason: z.string(),
  detail: z.string().nullable(),
  backend: z.string(),
  prompt: z.string().nullable(),
  promptVersion: z.string().nullable(),
});
const QuerySummaryRow = z.object({
  id: z.string(),
  text: z.string(),
  kept: flag,
  provider: z.string(),
  domain: z.string().nullable(),
  changedAt: z.string(),
});
const PendingRow = z.object({ id: z.string(), windowStart: z.string() });
const ScoringFactsRow = z.object({
  id: z.string(),
  week: z.string().nullable(),
  domain: z.string().nullable(),
  frequency: z.enum(['pending', 'frequent_update', 'infrequent_update']),
});
export type ScoringFacts = z.infer<typeof ScoringFactsRow>;
const KeptQueryRow = z.object({
  id: z.string(),
  query: z.string(),
  origin: z.enum(['generated', 'imported']),
  week: z.string().nullable(),
  wiki: z.string().nullable(),
  pageId: z.number().int().nullable(),
  title: z.string().nullable(),
  url: z.string().nullable(),
  key: z.string().nullable(),
  domain: z.string().nullable(),
  updateFrequency: z.string(),
  changedAt: z.string().nullable(),
  template: z.string().nullable(),
});
const ImportedIntervalRow = z.object({ validFrom: z.string(), validTo: z.string(), answer: z.string().nullable() });

/** DailyQA's id: YYMMDD of the window's first day, "00", the page id, the question's number on the page. */
export function queryIdFor(window: Window, pageId: number): string {
  return `${window.start.slice(2, 10).replace(/-/g, '')}00-${pageId}-0`;
}

/** Generated questions (the weekly pipeline's `queries` rows) with their provenance, check results and domains, written by query id. */
export class QuestionStore {
  private readonly statements: Statements;

  constructor(private readonly db: Database, readonly wiki: string) {
    this.statements = new Statements(db);
  }

  /** What each query of the window was generated from and by whom, failed generations included with their reason. */
  generatedFrom(window: Window): GeneratedFrom[] {
    return this.statements.get(
        `SELECT query_id AS id, rev_id AS revId, target_key AS key, gold, reason, provider, model, seed FROM question_generations
         WHERE wiki = ? AND window_start = ? AND window_end = ?`,
      )
      .all(this.wiki, window.start, window.end)
      .map((row) => GeneratedFromRow.parse(row));
  }

  /**
   * Another window whose generated query ids this one's would take over: one starting on the same day
   * with another end, or of another wiki (a query id is DailyQA's, the first day and the page id).
   */
  windowSharingIds(window: Window): { wiki: string; start: string; end: string } | undefined {
    const row = this.statements.get(
        `SELECT wiki, window_start AS start, window_end AS end FROM question_generations
         WHERE window_start = @start AND NOT (window_end = @end AND (@wiki = '' OR wiki = @wiki)) LIMIT 1`,
      )
      .get({ start: window.start, end: window.end, wiki: this.wiki });
    return row === undefined ? undefined : z.object({ wiki: z.string(), start: z.string(), end: z.string() }).parse(row);
  }

  /**
   * Forgets the window's questions whose page has no data unit any more (a collect redone since
   * found their change reverted, or the page gone): their generation, query, checks and domain, so
   * the week holds the questions a run of it alone makes. Returns how many were dropped.
   */
  dropWithoutDataUnit(window: Window): number {
    const unitless = `SELECT g.query_id FROM question_generations g
       WHERE g.wiki = @wiki AND g.window_start = @start AND g.window_end = @end AND NOT EXISTS (
         SELECT 1 FROM data_units u WHERE u.wiki = g.wiki AND u.window_start = g.window_start AND u.window_end = g.window_end AND u.page_id = g.page_id)`;
    const params = { wiki: this.wiki, start: window.start, end: window.end };
    return this.db.transaction(() => {
      this.statements.get(`DELETE FROM question_checks WHERE query_id IN (${unitless})`).run(params);
      this.statements.get(`DELETE FROM question_domains WHERE query_id IN (${unitless})`).run(params);
      this.statements.get(`DELETE FROM queries WHERE origin = 'generated' AND id IN (${unitless})`).run(params);
      return this.statements.get(`DELETE FROM question_generations WHERE query_id IN (${unitless})`).run(params).changes;
    })();
  }

  /**
   * Stores a batch of generations in one transaction; a successful one also becomes a query, kept once
   * checked, its earlier checks dropped, and its update frequency pending again when it asks about
   * another value than the question it replaces (a week made again with another seed picks another key).
   */
  saveGenerations(generations: Generation[]): void {
    const now = new Date().toISOString();
    const provenance = this.statements.get(
      `INSERT OR REPLACE INTO question_generations (query_id, wiki, window_start, window_end, page_id, rev_id, prev_rev_id, target_key,
         gold, status, reason, prompt, prompt_version, provider, model, seed, created_at)
       VALUES (@queryId, @wiki, @windowStart, @windowEnd, @pageId, @revId, @prevRevId, @key, @gold, @status, @reason,
         @prompt, @promptVersion, @provider, @model, @seed, @createdAt)`,
    );
    const query = this.statements.get(
      `INSERT INTO queries (id, text, origin, wiki, page_id, slot, template, key, window_start, window_end, created_at, kept)
       VALUES (@id, @text, 'generated', @wiki, @pageId, @template, @template, @key, @windowStart, @windowEnd, @createdAt, 0)
       ON CONFLICT (id) DO UPDATE SET text = excluded.text, wiki = excluded.wiki, page_id = excluded.page_id, slot = excluded.slot,
         template = excluded.template, key = excluded.key, window_start = excluded.window_start, window_end = excluded.window_end,
         created_at = excluded.created_at, kept = 0,
         update_frequency = CASE WHEN queries.wiki IS excluded.wiki AND queries.page_id IS excluded.page_id AND queries.slot IS excluded.slot
           AND queries.key IS excluded.key AND queries.window_start IS excluded.window_start AND queries.window_end IS excluded.window_end
           THEN queries.update_frequency ELSE 'pending' END`,
    );
    const dropQuery = this.statements.get("DELETE FROM queries WHERE id = ? AND origin = 'generated'");
    // The checks of an earlier question of the same id judged its text, not this one's: checked again.
    const dropChecks = this.statements.get('DELETE FROM question_checks WHERE query_id = ?');
    this.db.transaction(() => {
      for (const generation of generations) {
        const { unit } = generation;
        dropChecks.run(generation.queryId);
        provenance.run({
          queryId: generation.queryId,
          wiki: unit.wiki,
          windowStart: unit.windowStart,
          windowEnd: unit.windowEnd,
          pageId: unit.pageId,
          revId: unit.revId,
          prevRevId: unit.prevRevId,
          key: unit.key,
          gold: unit.new,
          status: generation.question.ok ? 'ok' : 'failed',
          reason: generation.question.ok ? null : generation.question.reason,
          ...generation.provenance,
          createdAt: now,
        });
        if (generation.question.ok) {
          query.run({
            id: generation.queryId,
            text: generation.question.value,
            wiki: unit.wiki,
            pageId: unit.pageId,
            template: unit.template,
            key: unit.key,
            windowStart: unit.windowStart,
            windowEnd: unit.windowEnd,
            createdAt: now,
          });
        } else {
          dropQuery.run(generation.queryId);
        }
      }
    })();
  }

  /** The window's successfully generated questions with their data units, by id. */
  questions(window: Window): Question[] {
    const rows = this.statements.get(
        `SELECT q.id, q.text, u.wiki, u.window_start AS windowStart, u.window_end AS windowEnd, u.page_id AS pageId, u.title, u.url,
                u.rev_id AS revId, u.prev_rev_id AS prevRevId, u.timestamp, u.template, u.key, u.old, u.new, u.infobox, u.key_labels AS keyLabels,
                u.first_paragraph AS firstParagraph, u.seed
         FROM question_generations g
         JOIN queries q ON q.id = g.query_id
         JOIN data_units u ON u.wiki = g.wiki AND u.window_start = g.window_start AND u.window_end = g.window_end AND u.page_id = g.page_id
         WHERE g.wiki = ? AND g.window_start = ? AND g.window_end = ? AND g.status = 'ok'
         ORDER BY q.id`,
      )
      .all(this.wiki, window.start, window.end);
    return rows.map((raw) => {
      const { id, text, ...unit } = QuestionRow.parse(raw);
      return { id, text, unit };
    });
  }

  /** The window's questions whose checks are all stored and newer than the question, with the checks' reasons, by query id. */
  checkedReasons(window: Window): Map<string, string[]> {
    const rows = this.statements.get(
        `SELECT g.query_id AS queryId, json_group_array(c.reason) AS reasons
         FROM question_generations g JOIN question_checks c ON c.query_id = g.query_id AND c.checked_at >= g.created_at
         WHERE g.wiki = ? AND g.window_start = ? AND g.window_end = ? GROUP BY g.query_id HAVING COUNT(*) = 2`,
      )
      .all(this.wiki, window.start, window.end);
    return new Map(rows.map((row) => CheckedRow.parse(row)).map(({ queryId, reasons }) => [queryId, reasons]));
  }

  /** Stores check results in one transaction, replacing earlier results of the same query and check. */
  saveChecks(results: CheckResult[]): void {
    const now = new Date().toISOString();
    const insert = this.statements.get(
      `INSERT OR REPLACE INTO question_checks (query_id, check_name, passed, reason, detail, backend, prompt, prompt_version, checked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      for (const r of results) {
        insert.run(r.queryId, r.check, r.passed ? 1 : 0, r.reason, r.detail, r.backend, r.prompt?.name ?? null, r.prompt?.version ?? null, now);
      }
    })();
  }

  /** Ids of the window's questions that passed every check, sorted. */
  passedIds(window: Window): string[] {
    return Texts.parse(this.statements.get(
        `SELECT g.query_id FROM question_generations g JOIN question_checks c ON c.query_id = g.query_id
         WHERE g.wiki = ? AND g.window_start = ? AND g.window_end = ? AND g.status = 'ok'
         GROUP BY g.query_id HAVING COUNT(*) = 2 AND MIN(c.passed) = 1 ORDER BY g.query_id`,
      )
      .pluck()
      .all(this.wiki, window.start, window.end));
  }

  /** Stores the domains and which queries the cap left out, then sets `kept` from checks and cap together; returns how many are kept. */
  saveDomains(window: Window, domains: DomainResult[], capped: ReadonlyMap<string, string>): number {
    const insert = this.statements.get(
      `INSERT OR REPLACE INTO question_domains (query_id, domain, provider, model, prompt, prompt_version, reason, capped)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    return this.db.transaction(() => {
      for (const d of domains) {
        const capReason = capped.get(d.queryId);
        const reason = [d.reason, capReason].filter(Boolean).join('; ') || null;
        insert.run(d.queryId, d.domain, d.provider, d.model, d.prompt.name, d.prompt.version, reason, capReason ? 1 : 0);
      }
      return this.refreshKept(window);
    })();
  }

  /** kept = every check passed and, once classified, not left out by the domain cap. */
  refreshKept(window: Window): number {
    this.statements.get(
        `UPDATE queries SET kept = CASE WHEN id IN (
           SELECT c.query_id FROM question_checks c WHERE c.query_id = queries.id GROUP BY c.query_id HAVING COUNT(*) = 2 AND MIN(c.passed) = 1
         ) AND NOT EXISTS (SELECT 1 FROM question_domains d WHERE d.query_id = queries.id AND d.capped = 1) THEN 1 ELSE 0 END
         WHERE origin = 'generated' AND wiki = ? AND window_start = ? AND window_end = ?`,
      )
      .run(this.wiki, window.start, window.end);
    return Count.parse(
      this.statements.get("SELECT COUNT(*) FROM queries WHERE origin = 'generated' AND kept = 1 AND wiki = ? AND window_start = ? AND window_end = ?")
        .pluck()
        .get(this.wiki, window.start, window.end),
    );
  }

  /** Every generated item of the window, kept or not, with its source data unit, query state and domain, by id. */
  generatedItems(window: Window): GeneratedItem[] {
    return this.statements.get(
        `SELECT g.query_id AS id, g.status, g.reason, q.text, q.kept, q.update_frequency AS updateFrequency, g.wiki, g.window_start AS windowStart,
                g.window_end AS windowEnd, g.page_id AS pageId,
                g.rev_id AS revId, g.prev_rev_id AS prevRevId, g.gold, g.prompt, g.prompt_version AS promptVersion, g.provider, g.model,
                g.seed, u.title, u.url, u.timestamp, u.template, u.key, u.old, u.infobox, u.key_labels AS keyLabels, u.first_paragraph AS firstParagraph,
                d.domain, d.provider AS domainProvider, d.model AS domainModel, d.prompt AS domainPrompt,
                d.prompt_version AS domainPromptVersion, d.reason AS domainReason, d.capped
         FROM question_generations g
         JOIN data_units u ON u.wiki = g.wiki AND u.window_start = g.window_start AND u.window_end = g.window_end AND u.page_id = g.page_id
         LEFT JOIN queries q ON q.id = g.query_id
         LEFT JOIN question_domains d ON d.query_id = g.query_id
         WHERE g.wiki = ? AND g.window_start = ? AND g.window_end = ?
         ORDER BY g.query_id`,
      )
      .all(this.wiki, window.start, window.end)
      .map((raw) => {
        const row = GeneratedItemRow.parse(raw);
        return { ...row, kept: row.kept === true, capped: row.capped === true };
      });
  }

  /** The stored check results of the window's items, by query and check name. */
  checksIn(window: Window): StoredCheck[] {
    return this.statements.get(
        `SELECT c.query_id AS queryId, c.check_name AS "check", c.passed, c.reason, c.detail, c.backend, c.prompt, c.prompt_version AS promptVersion
         FROM question_checks c JOIN question_generations g ON g.query_id = c.query_id
         WHERE g.wiki = ? AND g.window_start = ? AND g.window_end = ? ORDER BY c.query_id, c.check_name`,
      )
      .all(this.wiki, window.start, window.end)
      .map((row) => StoredCheckRow.parse(row));
  }

  /** Every generated query of the wiki with its provider, domain and the time of its change, by id. */
  querySummaries(): QuerySummary[] {
    return this.statements.get(
        `SELECT q.id, q.text, q.kept, g.provider, d.domain, u.timestamp AS changedAt
         FROM queries q JOIN question_generations g ON g.query_id = q.id
         JOIN data_units u ON u.wiki = g.wiki AND u.window_start = g.window_start AND u.window_end = g.window_end AND u.page_id = g.page_id
         LEFT JOIN question_domains d ON d.query_id = q.id
         WHERE q.wiki = ? AND q.origin = 'generated' ORDER BY q.id`,
      )
      .all(this.wiki)
      .map((row) => QuerySummaryRow.parse(row));
  }
}

/**
 * Every stored query across wikis, generated or imported: the weeks they belong to, their
 * update-frequency classes, and the answer intervals of imported ones (docs/ARCHITECTURE.md §5).
 */
export class QueryStore {
  private readonly selectImportedIntervals;
  private readonly upsertImported;
  private readonly deleteImportedIntervals;
  private readonly insertImportedInterval;
  private readonly updateFrequency;

  private readonly statements: Statements;

  constructor(private readonly db: Database) {
    this.statements = new Statements(db);
    this.selectImportedIntervals = db.prepare(
      `SELECT substr(valid_from, 1, 10) AS validFrom, substr(valid_to, 1, 10) AS validTo, answer
       FROM query_answer_intervals WHERE query_id = ? ORDER BY valid_from`,
    );
    this.upsertImported = db.prepare(
      `INSERT INTO queries (id, text, origin, window_start, created_at) VALUES (?, ?, 'imported', ?, ?)
       ON CONFLICT (id) DO UPDATE SET text = excluded.text`,
    );
    this.deleteImportedIntervals = db.prepare('DELETE FROM query_answer_intervals WHERE query_id = ?');
    this.insertImportedInterval = db.prepare('INSERT INTO query_answer_intervals (query_id, valid_from, valid_to, answer) VALUES (?, ?, ?, ?)');
    this.updateFrequency = db.prepare('UPDATE queries SET update_frequency = ? WHERE id = ?');
  }

  /** The wikis with generated questions in the window, sorted. */
  wikisWithQuestions(window: Window): string[] {
    return Texts.parse(
      this.statements.get('SELECT DISTINCT wiki FROM question_generations WHERE window_start = ? AND window_end = ? ORDER BY wiki')
        .pluck()
        .all(window.start, window.end),
    );
  }

  /** The window starts of the weeks with kept queries (of one wiki, or all), in order. */
  keptWeeks(wiki?: string): string[] {
    return Texts.parse(
      this.statements.get('SELECT DISTINCT window_start FROM queries WHERE kept = 1 AND window_start IS NOT NULL AND (@wiki IS NULL OR wiki = @wiki) ORDER BY window_start')
        .pluck()
        .all({ wiki: wiki ?? null }),
    );
  }

  /** Every kept query's week (window start, YYYY-MM-DD), domain and update-frequency class: what weekly scores break down by. */
  scoringFacts(): ScoringFacts[] {
    return this.statements.get(
        `SELECT q.id, substr(q.window_start, 1, 10) AS week, d.domain, q.update_frequency AS frequency
         FROM queries q LEFT JOIN question_domains d ON d.query_id = q.id WHERE q.kept = 1 ORDER BY q.id`,
      )
      .all()
      .map((row) => ScoringFactsRow.parse(row));
  }

  /** Every kept query, generated or imported, with what the store knows of it (imported ones: their week only), by id. */
  keptQueries(): KeptQuery[] {
    return this.statements.get(
        `SELECT q.id, q.text AS query, q.origin, substr(q.window_start, 1, 10) AS week, q.wiki, q.page_id AS pageId, u.title, u.url, q.key,
                d.domain, q.update_frequency AS updateFrequency, u.timestamp AS changedAt, u.template
         FROM queries q
         LEFT JOIN question_generations g ON g.query_id = q.id
         LEFT JOIN data_units u ON u.wiki = g.wiki AND u.window_start = g.window_start AND u.window_end = g.window_end AND u.page_id = g.page_id
         LEFT JOIN question_domains d ON d.query_id = q.id
         WHERE q.kept = 1 ORDER BY q.id`,
      )
      .all()
      .map((row) => KeptQueryRow.parse(row));
  }

  /** Kept queries of a week (or of all weeks) whose update frequency is still pending. */
  pendingFrequency(options: { windowStart?: string } = {}): Array<{ id: string; windowStart: string }> {
    return this.statements.get(
        `SELECT id, window_start AS windowStart FROM queries
         WHERE kept = 1 AND window_start IS NOT NULL AND update_frequency = 'pending' AND (@windowStart IS NULL OR window_start = @windowStart)`,
      )
      .all({ windowStart: options.windowStart ?? null })
      .map((row) => PendingRow.parse(row));
  }

  /** Sets the classes of these queries in one transaction. */
  saveUpdateFrequencies(labels: ReadonlyArray<{ id: string; frequency: Exclude<UpdateFrequency, 'pending'> }>): void {
    this.db.transaction(() => {
      for (const label of labels) this.updateFrequency.run(label.frequency, label.id);
    })();
  }

  /** An imported query's stored answer intervals, oldest first, as whole days. */
  importedIntervals(queryId: string): AnswerInterval[] {
    return this.selectImportedIntervals.all(queryId).map((row) => ImportedIntervalRow.parse(row));
  }

  /**
   * Stores imported queries with their answer intervals, replacing the intervals stored for them,
   * in one transaction; `merge` gives each query's intervals from those already stored. Returns
   * how many intervals were written.
   */
  saveImported(
    queries: ReadonlyArray<{ id: string; text: string; windowStart: string | null }>,
    merge: (id: string, stored: AnswerInterval[]) => AnswerInterval[],
    createdAt: string,
  ): number {
    let written = 0;
    this.db.transaction(() => {
      for (const query of queries) {
        const intervals = merge(query.id, this.importedIntervals(query.id));
        this.upsertImported.run(query.id, query.text, query.windowStart, createdAt);
        this.deleteImportedIntervals.run(query.id);
        for (const interval of intervals) {
          this.insertImportedInterval.run(query.id, `${interval.validFrom}T00:00:00Z`, `${interval.validTo}T00:00:00Z`, interval.answer);
          written++;
        }
      }
    })();
    return written;
  }
}

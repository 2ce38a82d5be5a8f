/**
 * Generated questions and what happened to them: the `queries` rows of the weekly pipeline and their
 * provenance, check results and domains (schema v3). Every write is keyed by the query id, so a
 * replayed batch rewrites the same rows.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import type { Provenance, Window } from '../model.js';
import type { DataUnit } from './changeStore.js';

export type Generation = { unit: DataUnit; queryId: string; provenance: Provenance } & (
  | { ok: true; question: string }
  | { ok: false; reason: string }
);

export interface Question {
  id: string;
  text: string;
  unit: DataUnit;
}

export type CheckName = 'correctness' | 'descriptiveness';

export interface CheckResult {
  queryId: string;
  check: CheckName;
  passed: boolean;
  reason: string;
  detail: string | null;
  backend: string;
  prompt: { name: string; version: string } | null;
}

export interface DomainResult {
  queryId: string;
  domain: string;
  provider: string;
  model: string;
  prompt: { name: string; version: string };
  reason: string | null;
}

const InfoboxJson = z.record(z.string(), z.string());

/** DailyQA's id: YYMMDD of the window's first day, "00", the page id, the question's number on the page. */
export function queryIdFor(window: Window, pageId: number): string {
  return `${window.start.slice(2, 10).replace(/-/g, '')}00-${pageId}-0`;
}

export class QuestionStore {
  constructor(private readonly db: Database, readonly wiki: string) {}

  /** What each query id of the window was generated from, "revId|key", failed generations included. */
  generatedFrom(window: Window): Map<string, string> {
    const list = this.db
      .prepare(
        `SELECT query_id AS id, rev_id AS revId, target_key AS key FROM question_generations
         WHERE wiki = ? AND window_start = ? AND window_end = ?`,
      )
      .all(this.wiki, window.start, window.end) as Array<{ id: string; revId: number; key: string }>;
    return new Map(list.map((row) => [row.id, `${row.revId}|${row.key}`]));
  }

  /** Stores a batch of generations in one transaction; a successful one also becomes a query, kept once checked. */
  saveGenerations(generations: Generation[]): void {
    const now = new Date().toISOString();
    const provenance = this.db.prepare(
      `INSERT OR REPLACE INTO question_generations (query_id, wiki, window_start, window_end, page_id, rev_id, prev_rev_id, target_key,
         gold, status, reason, prompt, prompt_version, provider, model, seed, created_at)
       VALUES (@queryId, @wiki, @windowStart, @windowEnd, @pageId, @revId, @prevRevId, @key, @gold, @status, @reason,
         @prompt, @promptVersion, @provider, @model, @seed, @createdAt)`,
    );
    const query = this.db.prepare(
      `INSERT INTO queries (id, text, origin, wiki, page_id, slot, template, key, window_start, window_end, created_at, kept)
       VALUES (@id, @text, 'generated', @wiki, @pageId, @template, @template, @key, @windowStart, @windowEnd, @createdAt, 0)
       ON CONFLICT (id) DO UPDATE SET text = excluded.text, wiki = excluded.wiki, page_id = excluded.page_id, slot = excluded.slot,
         template = excluded.template, key = excluded.key, window_start = excluded.window_start, window_end = excluded.window_end,
         created_at = excluded.created_at, kept = 0`,
    );
    const dropQuery = this.db.prepare("DELETE FROM queries WHERE id = ? AND origin = 'generated'");
    this.db.transaction(() => {
      for (const generation of generations) {
        const { unit } = generation;
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
          status: generation.ok ? 'ok' : 'failed',
          reason: generation.ok ? null : generation.reason,
          ...generation.provenance,
          createdAt: now,
        });
        if (generation.ok) {
          query.run({
            id: generation.queryId,
            text: generation.question,
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
    const rows = this.db
      .prepare(
        `SELECT q.id, q.text, u.wiki, u.window_start AS windowStart, u.window_end AS windowEnd, u.page_id AS pageId, u.title, u.url,
                u.rev_id AS revId, u.prev_rev_id AS prevRevId, u.timestamp, u.template, u.key, u.old, u.new, u.infobox,
                u.first_paragraph AS firstParagraph, u.seed
         FROM question_generations g
         JOIN queries q ON q.id = g.query_id
         JOIN data_units u ON u.wiki = g.wiki AND u.window_start = g.window_start AND u.window_end = g.window_end AND u.page_id = g.page_id
         WHERE g.wiki = ? AND g.window_start = ? AND g.window_end = ? AND g.status = 'ok'
         ORDER BY q.id`,
      )
      .all(this.wiki, window.start, window.end) as Array<Omit<DataUnit, 'infobox'> & { id: string; text: string; infobox: string }>;
    return rows.map(({ id, text, ...unit }) => ({ id, text, unit: { ...unit, infobox: InfoboxJson.parse(JSON.parse(unit.infobox)) } }));
  }

  /** Query ids whose checks are all stored and newer than their question. */
  checkedIds(window: Window): Set<string> {
    const ids = this.db
      .prepare(
        `SELECT g.query_id FROM question_generations g JOIN question_checks c ON c.query_id = g.query_id AND c.checked_at >= g.created_at
         WHERE g.wiki = ? AND g.window_start = ? AND g.window_end = ? GROUP BY g.query_id HAVING COUNT(*) = 2`,
      )
      .pluck()
      .all(this.wiki, window.start, window.end) as string[];
    return new Set(ids);
  }

  saveChecks(results: CheckResult[]): void {
    const now = new Date().toISOString();
    const insert = this.db.prepare(
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
    return this.db
      .prepare(
        `SELECT g.query_id FROM question_generations g JOIN question_checks c ON c.query_id = g.query_id
         WHERE g.wiki = ? AND g.window_start = ? AND g.window_end = ? AND g.status = 'ok'
         GROUP BY g.query_id HAVING COUNT(*) = 2 AND MIN(c.passed) = 1 ORDER BY g.query_id`,
      )
      .pluck()
      .all(this.wiki, window.start, window.end) as string[];
  }

  /** Stores the domains and which queries the cap left out, then sets `kept` from checks and cap together. */
  saveDomains(window: Window, domains: DomainResult[], capped: ReadonlyMap<string, string>): void {
    const insert = this.db.prepare(
      `INSERT OR REPLACE INTO question_domains (query_id, domain, provider, model, prompt, prompt_version, reason, capped)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      for (const d of domains) {
        const capReason = capped.get(d.queryId);
        const reason = [d.reason, capReason].filter(Boolean).join('; ') || null;
        insert.run(d.queryId, d.domain, d.provider, d.model, d.prompt.name, d.prompt.version, reason, capReason ? 1 : 0);
      }
      this.refreshKept(window);
    })();
  }

  /** kept = every check passed and, once classified, not left out by the domain cap. */
  refreshKept(window: Window): number {
    this.db
      .prepare(
        `UPDATE queries SET kept = CASE WHEN id IN (
           SELECT c.query_id FROM question_checks c WHERE c.query_id = queries.id GROUP BY c.query_id HAVING COUNT(*) = 2 AND MIN(c.passed) = 1
         ) AND NOT EXISTS (SELECT 1 FROM question_domains d WHERE d.query_id = queries.id AND d.capped = 1) THEN 1 ELSE 0 END
         WHERE origin = 'generated' AND wiki = ? AND window_start = ? AND window_end = ?`,
      )
      .run(this.wiki, window.start, window.end);
    return this.db
      .prepare("SELECT COUNT(*) FROM queries WHERE origin = 'generated' AND kept = 1 AND wiki = ? AND window_start = ? AND window_end = ?")
      .pluck()
      .get(this.wiki, window.start, window.end) as number;
  }
}

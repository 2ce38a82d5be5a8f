/**
 * The statements of one repository, each prepared the first time it runs and kept for the
 * repository's life: preparing costs more than running most of the store's queries, and a
 * repository lives as long as its `Store` (docs/ARCHITECTURE.md §9).
 */
import type { Database, Statement } from 'better-sqlite3';

/** A repository's prepared statements by their SQL: each prepared on first use and kept. */
export class Statements {
  private readonly prepared = new Map<string, Statement>();

  /** @param db the connection the statements run on. */
  constructor(private readonly db: Database) {}

  /**
   * The prepared statement of `sql`, prepared on its first call. Only for fixed SQL: text built
   * per call (an `IN (?, ?, …)` list as long as its input) is prepared by the caller instead, or
   * the map would keep one statement per length.
   *
   * @param sql the statement's text, the key it is kept under.
   * @returns the statement, ready to run.
   */
  get(sql: string): Statement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }
}

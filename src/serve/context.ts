/**
 * What every route works with: the audit store, and who a token belongs to. A token that matches
 * no annotator counts as a failed attempt of the client's address; an address past the limit is
 * refused before its token is even looked up.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { Annotator, AuditItem, Judgment } from '../audit/model.js';
import { AuditStore } from '../store/auditStore.js';
import { FailedAttempts, type FailedAttemptsOptions } from './failedAttempts.js';
import { whereabouts, type Assigned, type Whereabouts } from './navigation.js';

/** Longer than any token we issue (43 characters); a longer one is refused without hashing it. */
const MAX_TOKEN_LENGTH = 256;

/** Where an annotator is, with the content of the one item shown. */
export interface Location extends Omit<Whereabouts, 'current'> {
  current: { item: AuditItem; position: number; latest: Judgment | null } | null;
}

export type TokenCheck = { ok: true; annotator: Annotator } | { ok: false; status: 401 | 429; message: string; retryAfter?: number };

export class ServeContext {
  readonly store: AuditStore;
  private readonly attempts: FailedAttempts;
  /**
   * Each annotator's assignment as last read, kept while the store is unchanged: reading it is most
   * of what a page costs, and 20 annotators at once ask for it on every item. This server's own
   * judgments are written into their annotator's copy; any other process's commit (`audit add`,
   * `audit links`, a second server) changes SQLite's data_version and drops them all.
   */
  private readonly assignments = new Map<number, Assigned[]>();
  private readonly dataVersion: Statement;
  private readVersion: unknown = null;

  constructor(
    readonly db: Database,
    attempts: FailedAttemptsOptions = {},
  ) {
    this.store = new AuditStore(db);
    this.attempts = new FailedAttempts(attempts);
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  checkToken(address: string, token: string | null): TokenCheck {
    const retryAfter = this.attempts.retryAfter(address);
    if (retryAfter > 0) return { ok: false, status: 429, message: `too many failed token attempts from ${address}; try again in ${retryAfter} s`, retryAfter };
    const annotator = token !== null && token.length <= MAX_TOKEN_LENGTH ? this.store.annotatorByToken(token) : undefined;
    if (annotator) return { ok: true, annotator };
    this.attempts.record(address);
    return { ok: false, status: 401, message: token === null ? 'missing token: send Authorization: Bearer TOKEN' : 'invalid token' };
  }

  /**
   * The annotator's place in their assignment (see whereabouts), or null for an item not assigned
   * to them; only the shown item's content is read from the store.
   */
  locate(annotatorId: number, requested: number | null): Location | null {
    const here = whereabouts(this.assigned(annotatorId), requested);
    if (!here) return null;
    const item = here.current && this.store.item(here.current.itemId);
    return { ...here, current: here.current && item ? { item, position: here.current.position, latest: here.current.latest } : null };
  }

  /** The annotator's assigned items in order with their latest own judgments (see `assignments`). */
  assigned(annotatorId: number): Assigned[] {
    const version = this.dataVersion.get();
    if (version !== this.readVersion) {
      this.assignments.clear();
      this.readVersion = version;
    }
    let assigned = this.assignments.get(annotatorId);
    if (!assigned) {
      assigned = this.store.assignedItems(annotatorId);
      this.assignments.set(annotatorId, assigned);
    }
    return assigned;
  }

  /** Appends a judgment (the latest counts), which becomes its item's latest in the annotator's assignment as read. */
  addJudgment(judgment: Omit<Judgment, 'id'>): Judgment {
    const added = this.store.addJudgment(judgment);
    const assigned = this.assignments.get(added.annotatorId);
    if (assigned) this.assignments.set(added.annotatorId, assigned.map((entry) => (entry.itemId === added.itemId ? { ...entry, latest: added } : entry)));
    return added;
  }
}

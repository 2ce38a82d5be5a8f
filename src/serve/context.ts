/**
 * What every route works with: the audit store, and who a token belongs to. A token that matches
 * no annotator counts as a failed attempt of the client's address; an address past the limit is
 * refused before its token is even looked up.
 */
import type { Database } from 'better-sqlite3';
import type { Annotator } from '../audit/model.js';
import { AuditStore } from '../store/auditStore.js';
import { FailedAttempts, type FailedAttemptsOptions } from './failedAttempts.js';

/** Longer than any token we issue (43 characters); a longer one is refused without hashing it. */
const MAX_TOKEN_LENGTH = 256;

export type TokenCheck = { ok: true; annotator: Annotator } | { ok: false; status: 401 | 429; message: string; retryAfter?: number };

export class ServeContext {
  readonly store: AuditStore;
  private readonly attempts: FailedAttempts;

  constructor(
    readonly db: Database,
    attempts: FailedAttemptsOptions = {},
  ) {
    this.store = new AuditStore(db);
    this.attempts = new FailedAttempts(attempts);
  }

  checkToken(address: string, token: string | null): TokenCheck {
    const retryAfter = this.attempts.retryAfter(address);
    if (retryAfter > 0) return { ok: false, status: 429, message: `too many failed token attempts from ${address}; try again in ${retryAfter} s`, retryAfter };
    const annotator = token !== null && token.length <= MAX_TOKEN_LENGTH ? this.store.annotatorByToken(token) : undefined;
    if (annotator) return { ok: true, annotator };
    this.attempts.record(address);
    return { ok: false, status: 401, message: token === null ? 'missing token: send Authorization: Bearer TOKEN' : 'invalid token' };
  }
}

/**
 * What every route works with: the audit store, and who a token belongs to. A token is looked up
 * first, so a valid one is always let in; one that matches no annotator counts as a failed attempt
 * of the client's address and of its first characters (failedAttempts.ts), and once either has
 * failed too often its failures are answered 429 instead of 401. A request without a token is no
 * guess and counts nowhere.
 */
import { readContent } from '../audit/kinds/index.js';
import type { Annotator, AuditItem, Judgment, JudgmentRecord } from '../model/audit.js';
import type { AuditStore } from '../store/auditStore.js';
import type { Store } from '../store/store.js';
import { clientAddressKey, FailedAttempts, type FailedAttemptsOptions } from './failedAttempts.js';
import { whereabouts, type Assigned, type Whereabouts } from './navigation.js';

/** Longer than any token we issue (43 characters); a longer one is refused without hashing it. */
const MAX_TOKEN_LENGTH = 256;

/** The characters of a presented token its failures are counted under: 48 bits, far from enough to guess the rest. */
export const TOKEN_PREFIX_LENGTH = 8;

/** Where an annotator is, with the content of the one item shown. */
export interface Location extends Omit<Whereabouts, 'current'> {
  current: (NonNullable<Whereabouts['current']> & { item: AuditItem }) | null;
}

export type TokenCheck = { ok: true; annotator: Annotator } | { ok: false; status: 401 | 429; message: string; retryAfter?: number };

export class ServeContext {
  readonly audits: AuditStore;
  private readonly byAddress: FailedAttempts;
  private readonly byPrefix: FailedAttempts;
  /**
   * Each annotator's assignment as last read, kept while the store is unchanged: reading it is most
   * of what a page costs, and 20 annotators at once ask for it on every item. This server's own
   * judgments are written into their annotator's copy; any other process's commit (`audit add`,
   * `audit links`, a second server) changes SQLite's data_version and drops them all.
   */
  private readonly assignments = new Map<number, Assigned[]>();
  private readVersion: number | null = null;

  constructor(
    store: Store,
    attempts: FailedAttemptsOptions = {},
    private readonly log: (line: string) => void = () => {},
  ) {
    this.audits = store.audits;
    this.byAddress = new FailedAttempts(attempts);
    this.byPrefix = new FailedAttempts(attempts);
  }

  checkToken(address: string, token: string | null): TokenCheck {
    if (token === null) return { ok: false, status: 401, message: 'missing token: send Authorization: Bearer TOKEN' };
    const annotator = token.length <= MAX_TOKEN_LENGTH ? this.audits.annotatorByToken(token) : undefined;
    if (annotator) return { ok: true, annotator };
    const addressKey = clientAddressKey(address);
    const prefixKey = token.slice(0, TOKEN_PREFIX_LENGTH);
    const byAddress = this.byAddress.retryAfter(addressKey);
    const byPrefix = this.byPrefix.retryAfter(prefixKey);
    this.byAddress.record(addressKey);
    this.byPrefix.record(prefixKey);
    if (byAddress === 0 && this.byAddress.retryAfter(addressKey) > 0) this.log(`too many failed token attempts from ${address}: its further failures get 429`);
    if (byPrefix === 0 && this.byPrefix.retryAfter(prefixKey) > 0) this.log(`too many failed attempts with tokens starting ${prefixKey}: their further failures get 429`);
    const retryAfter = Math.max(byAddress, byPrefix);
    if (retryAfter === 0) return { ok: false, status: 401, message: 'invalid token' };
    const who = byAddress > 0 ? `from ${address}` : 'with this link';
    return { ok: false, status: 429, message: `too many failed token attempts ${who}; check the link and try again in ${retryAfter} s`, retryAfter };
  }

  /**
   * The annotator's place in their assignment (see whereabouts), or null for an item not assigned
   * to them; only the shown item's content is read from the store, through its kind's schema.
   */
  locate(annotatorId: number, requested: number | null): Location | null {
    const here = whereabouts(this.assigned(annotatorId), requested);
    if (!here) return null;
    const item = here.current && this.audits.item(here.current.itemId);
    return { ...here, current: here.current && item ? { ...here.current, item: { ...item, content: readContent(item.content).content } } : null };
  }

  /** The annotator's assigned items in order with their latest own judgments (see `assignments`). */
  assigned(annotatorId: number): Assigned[] {
    const version = this.audits.commitVersion();
    if (version !== this.readVersion) {
      this.assignments.clear();
      this.readVersion = version;
    }
    let assigned = this.assignments.get(annotatorId);
    if (!assigned) {
      assigned = this.audits.assignedItems(annotatorId);
      this.assignments.set(annotatorId, assigned);
    }
    return assigned;
  }

  /** Appends a judgment (the latest counts), which becomes its item's verdict in the annotator's assignment as read. */
  addJudgment(judgment: Omit<Judgment, 'id'>): Judgment {
    const added = this.audits.addJudgment(judgment);
    this.patch(added.annotatorId, added.itemId, (entry) => ({ latest: added, withdrawn: null, skipped: null, version: entry.version + 1 }));
    return added;
  }

  /** Withdraws the annotator's standing verdict on the item (see AuditStore.withdrawJudgment); undefined when none stands. */
  withdrawJudgment(itemId: number, annotatorId: number): JudgmentRecord | undefined {
    const withdrawal = this.audits.withdrawJudgment(itemId, annotatorId, new Date().toISOString());
    if (withdrawal) this.patch(annotatorId, itemId, (entry) => ({ latest: null, withdrawn: withdrawal, skipped: null, version: entry.version + 1 }));
    return withdrawal;
  }

  /** Sends an unjudged item to the end of the annotator's queue; false when its verdict stands. */
  skip(itemId: number, annotatorId: number): boolean {
    const skip = this.audits.addSkip(itemId, annotatorId, new Date().toISOString());
    if (skip !== undefined) this.patch(annotatorId, itemId, () => ({ skipped: skip }));
    return skip !== undefined;
  }

  private patch(annotatorId: number, itemId: number, change: (entry: Assigned) => Partial<Assigned>): void {
    const assigned = this.assignments.get(annotatorId);
    if (assigned) this.assignments.set(annotatorId, assigned.map((entry) => (entry.itemId === itemId ? { ...entry, ...change(entry) } : entry)));
  }
}

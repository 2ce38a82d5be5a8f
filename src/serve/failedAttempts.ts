/**
 * Failed token attempts per client address in a sliding window: past the limit the address is
 * refused (429) until its oldest failure leaves the window, so guessing a 256-bit token by
 * brute force is slowed further and a scan shows up. Kept in memory (one server process; a
 * restart forgets), with a cap on addresses so a spray of sources cannot grow it without bound.
 */
export interface FailedAttemptsOptions {
  /** Failures allowed per address within the window (default 10). */
  limit?: number;
  /** The window, in milliseconds (default 60 000). */
  windowMs?: number;
  /** Addresses remembered at most; the least recently failing is forgotten first (default 10 000). */
  maxAddresses?: number;
  now?: () => number;
}

export class FailedAttempts {
  private readonly failures = new Map<string, number[]>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxAddresses: number;
  private readonly now: () => number;

  constructor(options: FailedAttemptsOptions = {}) {
    this.limit = options.limit ?? 10;
    this.windowMs = options.windowMs ?? 60_000;
    this.maxAddresses = options.maxAddresses ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Seconds until the address may try again, or 0 when it is not blocked. */
  retryAfter(address: string): number {
    const recent = this.recent(address);
    if (recent.length < this.limit) return 0;
    const oldest = recent[recent.length - this.limit] as number;
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  record(address: string): void {
    const recent = this.recent(address);
    recent.push(this.now());
    // Re-inserting moves the address to the end of the map's order, which is what the cap evicts by.
    this.failures.delete(address);
    this.failures.set(address, recent.slice(-this.limit));
    if (this.failures.size > this.maxAddresses) this.failures.delete(this.failures.keys().next().value as string);
  }

  private recent(address: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.failures.get(address) ?? []).filter((at) => at > since);
  }
}

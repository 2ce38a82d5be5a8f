/**
 * Failed token attempts in a sliding window, per key: the server keeps one count per client
 * address (a loopback client or an IPv6 /64 being one address) and one per presented token
 * prefix. Past the limit a key's further failures are answered 429 until its oldest counted
 * failure leaves the window, so a scan shows up and is told to stop; a valid token is looked up
 * before any count is read and is never refused, whoever failed before it. Kept in memory (one
 * server process; a restart forgets), with a cap on keys so a spray of sources cannot grow it
 * without bound.
 */
import { isIP } from 'node:net';

export interface FailedAttemptsOptions {
  /** Failures allowed per key within the window (default 10). */
  limit?: number;
  /** The window, in milliseconds (default 60 000). */
  windowMs?: number;
  /** Keys remembered at most; the least recently failing is forgotten first (default 10 000). */
  maxKeys?: number;
  now?: () => number;
}

export class FailedAttempts {
  private readonly failures = new Map<string, number[]>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: FailedAttemptsOptions = {}) {
    this.limit = options.limit ?? 10;
    this.windowMs = options.windowMs ?? 60_000;
    this.maxKeys = options.maxKeys ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Seconds until the key's failures fall below the limit, or 0 when they are below it. */
  retryAfter(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit) return 0;
    const oldest = recent[recent.length - this.limit] as number;
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  record(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    // Re-inserting moves the key to the end of the map's order, which is what the cap evicts by.
    this.failures.delete(key);
    this.failures.set(key, recent.slice(-this.limit));
    if (this.failures.size > this.maxKeys) this.failures.delete(this.failures.keys().next().value as string);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.failures.get(key) ?? []).filter((at) => at > since);
  }
}

/**
 * The address a client's failures are counted under: all of 127/8 and ::1 are this machine (one
 * client, however it picks its source address), an IPv6 address counts by its /64 (what one
 * subscriber is given), an IPv4 address (mapped into IPv6 or not) by itself.
 */
export function clientAddressKey(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
  if (v4 !== undefined) return v4.startsWith('127.') ? 'loopback' : v4;
  if (isIP(address) !== 6) return address;
  const groups = expandIpv6(address);
  if (groups.every((group, index) => group === (index === 7 ? 1 : 0))) return 'loopback';
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part read as two groups). */
function expandIpv6(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

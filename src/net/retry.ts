/** Waiting between attempts at a remote service: Retry-After and exponential backoff, shared by every client. */

const MAX_BACKOFF_MS = 60_000;

/** Retry-After is seconds or an HTTP date. */
export function parseRetryAfter(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(String(value));
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Exponential backoff with jitter, so that clients failing together do not retry together. */
export function backoff(baseMs: number, retry: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retry) * (0.5 + Math.random() / 2);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

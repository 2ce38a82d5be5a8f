/**
 * The outcome of a step whose failure is an expected answer worth keeping, not a bug: an LLM reply
 * that does not fit, a generated item that does not hold. Either the value, or the reason in one
 * line, which is stored with the item; bugs and failing services are thrown instead.
 */
export type Result<T> = { ok: true; value: T } | Failed;

export interface Failed {
  ok: false;
  reason: string;
}

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function failed(reason: string): Failed {
  return { ok: false, reason };
}

/**
 * The results of a pure function for the inputs it saw last, so that a revision that repeats its
 * parent's text, infobox or lead costs a lookup instead of a parse (docs/SCALE.md). Keyed by the
 * input itself, not by a digest of it: a hit is an exact match, so results cannot change.
 */
export class RecentResults<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  /** At most `maxEntries` inputs, and no more once they hold `maxChars` characters. */
  constructor(private readonly limits: { maxEntries: number; maxChars: number }) {}

  /** The result for `input`, computed by `compute` unless remembered. */
  get(input: string, compute: () => V): V {
    const known = this.entries.get(input);
    if (known !== undefined || this.entries.has(input)) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(input);
      this.entries.set(input, known as V);
      return known as V;
    }
    const value = compute();
    this.remember(input, value);
    return value;
  }

  /** Replaces what is remembered for `input`. */
  set(input: string, value: V): void {
    if (this.entries.delete(input)) this.chars -= input.length;
    this.remember(input, value);
  }

  private remember(input: string, value: V): void {
    if (input.length > this.limits.maxChars / 4) return;
    this.entries.set(input, value);
    this.chars += input.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxEntries && this.chars <= this.limits.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}

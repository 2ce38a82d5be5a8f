/**
 * A seeded pseudo-random generator (mulberry32 over a string-hashed seed): the same seed and the
 * same sequence of calls give the same choices, on every machine.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number | string) {
    this.state = hashSeed(String(seed));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /**
   * Fills `out` with uniform integers in [0, n), the same sequence as `Math.floor(next() * n)` per
   * entry; one call per batch, for the hot loops of resampling.
   */
  fillIndices(out: Uint32Array, n: number): void {
    let state = this.state;
    for (let i = 0; i < out.length; i++) {
      state = (state + 0x6d2b79f5) | 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      out[i] = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
    }
    this.state = state;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('cannot pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** k items without replacement, in the order drawn (partial Fisher–Yates). */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = items.slice();
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, n);
  }
}

/** A generator derived from a base seed and a label, so that independent choices do not disturb each other. */
export function derivedRandom(seed: number | string, label: string): SeededRandom {
  return new SeededRandom(`${seed}:${label}`);
}

function hashSeed(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

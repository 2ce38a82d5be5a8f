/**
 * Pieces of an item's frozen content that are pure given the store's reads (docs/ARCHITECTURE.md
 * §14): the paragraphs around sentences, and an answer's timeline walked interval by interval.
 */

export interface NumberedSentence {
  index: number;
  paragraph: number;
  text: string;
}

/** The whole paragraphs that hold any of the sentences at these indices, in order, a blank line apart. */
export function paragraphsHolding(sentences: readonly NumberedSentence[], indices: readonly number[]): string {
  const wanted = new Set(sentences.filter((sentence) => indices.includes(sentence.index)).map((sentence) => sentence.paragraph));
  return paragraphsNumbered(sentences, wanted);
}

/** The paragraphs with these numbers, in order, a blank line apart. */
export function paragraphsNumbered(sentences: readonly NumberedSentence[], numbers: ReadonlySet<number>): string {
  const paragraphs = new Map<number, string[]>();
  for (const sentence of [...sentences].sort((a, b) => a.index - b.index)) {
    if (numbers.has(sentence.paragraph)) paragraphs.set(sentence.paragraph, [...(paragraphs.get(sentence.paragraph) ?? []), sentence.text]);
  }
  return [...paragraphs.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, texts]) => texts.join(' '))
    .join('\n\n');
}

/** A value of a key in effect over [validFrom, validTo); validTo null while it still holds. */
export interface ValueInterval {
  value: string | null;
  validFrom: string;
  validTo: string | null;
}

/** A judge needs the story around one change, not a page's whole history. */
const TIMELINE_LIMIT = 12;

/**
 * The answer's timeline around a change: the value before it, then every value from the change
 * on, as long as `intervalAt` (the value in effect at an instant, undefined where none is known)
 * finds one and at most TIMELINE_LIMIT of them.
 */
export function timelineAround(changedAt: string, intervalAt: (instant: string) => ValueInterval | undefined): Array<{ from: string; value: string }> {
  const entries: Array<{ from: string; value: string }> = [];
  const current = intervalAt(changedAt);
  if (current === undefined) return entries;
  const before = intervalAt(new Date(Date.parse(current.validFrom) - 1).toISOString());
  if (before !== undefined) entries.push({ from: before.validFrom, value: before.value ?? '' });
  for (let interval: ValueInterval | undefined = current; interval !== undefined && entries.length < TIMELINE_LIMIT; ) {
    entries.push({ from: interval.validFrom, value: interval.value ?? '' });
    const next: ValueInterval | undefined = interval.validTo === null ? undefined : intervalAt(interval.validTo);
    interval = next !== undefined && next.validFrom > interval.validFrom ? next : undefined;
  }
  return entries;
}

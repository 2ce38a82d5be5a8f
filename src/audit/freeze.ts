/**
 * Pieces of an item's frozen content that are pure given the store's reads (docs/ARCHITECTURE.md
 * §14): the paragraphs around sentences, an answer's timeline walked interval by interval, the old
 * sentences closest to a new one, and the links to a change's revisions, with the schemas of the
 * last two, which the kinds' content schemas (`./kinds`) hold.
 */
import { z } from 'zod';

/**
 * The old article's sentences closest to a new one, as the labeler measured them: the cosine of
 * its embedder's vectors where it compared them, else the share of content words in common (its
 * test before any model call). `embedder` is null for words.
 */
export const ClosestSentencesSchema = z.object({
  measure: z.enum(['cosine', 'words']),
  embedder: z.string().nullable(),
  sentences: z.array(z.object({ text: z.string(), similarity: z.number() })),
});
export type ClosestSentences = z.infer<typeof ClosestSentencesSchema>;

/** A link a page may carry: http or https only, never `javascript:`. */
const HttpUrl = z.string().regex(/^https?:\/\//i, 'not an http(s) URL');

/** Where a change can be seen on the wiki: both revisions and their diff. */
export const RevisionLinksSchema = z.object({
  changedAt: z.string(),
  before: z.object({ revId: z.number().int(), url: HttpUrl }),
  after: z.object({ revId: z.number().int(), url: HttpUrl }),
  diff: HttpUrl,
});
export type RevisionLinks = z.infer<typeof RevisionLinksSchema>;

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

/** How many of the old article's sentences a `new` label item shows as the closest. */
export const CLOSEST_SENTENCES = 3;

/**
 * The `limit` best-scored sentences, best first (ties in article order); a score of 0 or less
 * (no word in common) is no closeness and is left out.
 */
export function closestSentences(scored: ReadonlyArray<{ text: string; similarity: number }>, limit = CLOSEST_SENTENCES): Array<{ text: string; similarity: number }> {
  return scored
    .map((entry, order) => ({ ...entry, order }))
    .filter((entry) => entry.similarity > 0)
    .sort((a, b) => b.similarity - a.similarity || a.order - b.order)
    .slice(0, limit)
    .map(({ text, similarity }) => ({ text, similarity }));
}

/**
 * The revision before a change, the one that made it, and their diff, on the wiki of an article
 * whose page URL is `pageUrl`: `…/wiki/Title` (revisions through the `/w/index.php` beside it) or
 * `…/index.php?title=Title`. Undefined for a URL that is not http(s), which a page never links to.
 */
export function revisionLinks(pageUrl: string, prevRevId: number, revId: number, changedAt: string): RevisionLinks | undefined {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const wiki = url.pathname.indexOf('/wiki/');
  const script = wiki === -1 ? `${url.origin}${url.pathname}` : `${url.origin}${url.pathname.slice(0, wiki)}/w/index.php`;
  return {
    changedAt,
    before: { revId: prevRevId, url: `${script}?oldid=${prevRevId}` },
    after: { revId, url: `${script}?oldid=${revId}` },
    diff: `${script}?diff=${revId}&oldid=${prevRevId}`,
  };
}

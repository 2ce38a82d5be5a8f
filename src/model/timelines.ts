/**
 * Value timelines (docs/ARCHITECTURE.md §5): the intervals in which each infobox value of a page was
 * in effect, a page's lifetime, and the answer intervals of imported queries. What the timeline
 * logic computes from and the store keeps.
 */
import type { Infobox } from '../model.js';

/** The aliases of a value that has none: one frozen list, shared by every interval and item without any. */
export const NO_ALIASES: readonly string[] = Object.freeze([]);

export interface TimelineRevision {
  revId: number;
  parentId: number | null;
  timestamp: string;
  sha1: string | null;
  /** Null for metadata-only revisions (known to exist, content not fetched). */
  infoboxes: Infobox[] | null;
  /**
   * Parsed by an older reading than this version's (`READING_VERSIONS`) and not read again, its text gone:
   * the aliases it gave a value yield to those this version's reading gives the same value in a later revision.
   */
  olderReading?: boolean;
}

export interface ValueInterval {
  /** The infobox's identity across revisions: its label when first seen, kept through template replacements. */
  slot: string;
  key: string;
  template: string;
  value: string;
  validFrom: string;
  /** Null: still in effect at the last revision known. */
  validTo: string | null;
  revId: number;
  /** Other names of the value (link targets, a named entity's aliases); absent when none. */
  aliases?: string[];
}

export interface PageTimeline {
  intervals: ValueInterval[];
  /** The page's first revision, when it is among the known ones. */
  createdAt: string | null;
}

/**
 * What the store knows of a page over the instants asked about: when it existed, and the stretches
 * of its history held whole that reach into them (ranges some collection or sync covered,
 * docs/ARCHITECTURE.md §5); an instant outside every range is unknown.
 */
export interface PageLifetime {
  createdAt: string | null;
  deletedAt: string | null;
  coverage: Array<{ from: string; until: string }>;
}

/** An imported query's answer over whole days [validFrom, validTo), as YYYY-MM-DD. */
export interface AnswerInterval {
  validFrom: string;
  validTo: string;
  answer: string | null;
}

/** A stored query with, for an imported one, its answer interval at an instant (all null when none). */
export interface QueryAtInstant {
  origin: 'generated' | 'imported';
  wiki: string | null;
  pageId: number | null;
  template: string | null;
  key: string | null;
  slot: string | null;
  answer: string | null;
  validFrom: string | null;
  validTo: string | null;
}

/** An infobox value's interval as stored: the value in effect from validFrom until validTo, with its aliases. */
export interface StoredInterval {
  value: string;
  revId: number;
  validFrom: string;
  validTo: string | null;
  /** Other names of the value (Wikidata labels and aliases, link targets), where the store holds them. */
  aliases?: readonly string[];
}

/**
 * What held in the world over [validFrom, validTo) by the time-qualified statements of an entity's
 * latest known revision (docs/ARCHITECTURE.md §16), one key's values joined as its facts are: an
 * edit-time interval without the infobox it was read from.
 */
export type WorldInterval = Omit<ValueInterval, 'slot' | 'template'>;

/**
 * Which timeline an answer reads (docs/ARCHITECTURE.md §16): edit time, what the page said at an
 * instant (DailyQA's meaning); world time, what held in the world then by the time-qualified
 * statements of the entity's latest known revision.
 */
export type TimeAxis = 'edit' | 'world';

/**
 * What the store holds about a kept query over a span of days, read for all of them at once: for an
 * imported query its answer intervals, for a generated one its page's lifetime and the intervals of
 * its key, each in effect at some instant of the span, oldest first.
 */
export interface QueryOverSpan {
  id: string;
  query: string;
  origin: 'generated' | 'imported';
  imported: Array<Pick<QueryAtInstant, 'answer' | 'validTo'> & { validFrom: string; aliases?: readonly string[] }>;
  lifetime: PageLifetime | undefined;
  intervals: StoredInterval[];
  /**
   * Read with whole timelines only: the first instant of the page's history the store holds (its
   * earliest coverage), so a value already in effect then is known not to have changed there.
   */
  heldFrom?: string | null;
  /** Read on world time: whether the key has time-qualified statements at all. */
  timed?: boolean;
}

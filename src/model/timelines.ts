/**
 * Value timelines (docs/ARCHITECTURE.md §5): the intervals in which each infobox value of a page was
 * in effect, a page's lifetime, and the answer intervals of imported queries. What the timeline
 * logic computes from and the store keeps.
 */
import type { Infobox } from '../model.js';

export interface TimelineRevision {
  revId: number;
  parentId: number | null;
  timestamp: string;
  sha1: string | null;
  /** Null for metadata-only revisions (known to exist, content not fetched). */
  infoboxes: Infobox[] | null;
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
 * What the store knows of a page at one instant: when it existed, and whether its history there is
 * held whole (some collection or sync covered the instant, docs/ARCHITECTURE.md §5).
 */
export interface PageAtInstant {
  createdAt: string | null;
  deletedAt: string | null;
  covered: boolean;
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
  aliases: string[];
}

/**
 * What held in the world over [validFrom, validTo) by the time-qualified statements of an entity's
 * latest known revision (docs/ARCHITECTURE.md §16), one key's values joined as its facts are.
 */
export interface WorldInterval {
  key: string;
  value: string;
  validFrom: string;
  validTo: string | null;
  revId: number;
  aliases?: string[];
}

/**
 * What the store holds about a kept query at an instant, read for a whole day at once: for an
 * imported query its answer interval, for a generated one its page's lifetime and the interval of
 * its key in effect (undefined when none).
 */
export interface QueryOnDay {
  id: string;
  query: string;
  origin: 'generated' | 'imported';
  imported: Pick<QueryAtInstant, 'answer' | 'validFrom' | 'validTo'>;
  page: PageAtInstant | undefined;
  interval: StoredInterval | undefined;
}

/**
 * Plain typed records shared by sources, parsing, diffing and the store, and the zod schemas of
 * those that cross a boundary (a queue job, a stored JSON column). Times are ISO-8601 UTC strings.
 */
import { z } from 'zod';

/** A half-open time window `[start, end)`. */
export interface Window {
  start: string;
  end: string;
}

export const WindowSchema = z.object({ start: z.string(), end: z.string() }) satisfies z.ZodType<Window>;

export interface PageRef {
  /** Page id on the source wiki (dump page id, or the id of the wiki the API talks to). */
  pageId: number;
  /** Title as the source knows it now (after any move). */
  title: string;
  namespace: number;
}

export interface Revision {
  revId: number;
  parentId: number | null;
  /** ISO-8601 UTC, e.g. 2021-03-04T05:06:07Z */
  timestamp: string;
  /** SHA-1 of the content as reported by the source (base-36 in dumps, hex via the API); null when absent. */
  sha1: string | null;
  comment: string;
  user: string;
  minor: boolean;
  /** Wikitext, or null when the source hid or lacks it. */
  text: string | null;
  /**
   * The content model of the revision's main slot (`wikitext`, `wikibase-item`, …) when the source
   * names it; absent means wikitext. It chooses the fact extractor (docs/ARCHITECTURE.md §16).
   */
  model?: string;
}

/** The content model of a revision whose source names none; a revision of it leaves `model` unsaid. */
export const DEFAULT_CONTENT_MODEL = 'wikitext';

/**
 * The version of how a revision's text is read into facts, per content model (src/parse, src/content):
 * stored with each parsed revision (`revisions.parse_version`, migration 25), so that a revision read
 * by an older wikidelta is read again when a collection brings its text, and a week never diffs a
 * revision read one way against its parent read another (docs/ARCHITECTURE.md §5). Raise a model's
 * version with any change that reads its texts differently, and only that model's: an upgrade then
 * reads again only what it reads differently. A model without an entry reads as wikitext's version.
 * wikitext 2: a link target is an alias only of a value that is that one link. wikibase-item 3:
 * Wikidata times at their precision whatever month and day they are written with, quantities as the
 * decimal Wikidata wrote, a preferred "no value" outranking normal values, a term ending in the period
 * it starts in holding through that period. wikibase-item 4: a time-qualified "no value" (or "unknown
 * value") statement kept for world time, where a preferred one outranks the normal values then.
 * wikibase-item 5: an end time held through its day (month, year), a statement of the key starting
 * in that period taking over (`TimedFact.handoverFrom`).
 */
export const READING_VERSIONS: Readonly<Record<string, number>> = { [DEFAULT_CONTENT_MODEL]: 2, 'wikibase-item': 5 };

/**
 * What a revision source yields per page for a window: every revision inside the window and the
 * last revision before it (the baseline the first change is measured against), oldest first.
 */
export interface PageHistory {
  page: PageRef;
  revisions: Revision[];
  /** Title renames of this page seen by the source, oldest first. */
  moves: PageMove[];
  /** Revisions before the window within the revert horizon (and the one before those), metadata only. */
  predecessors?: Revision[];
  /**
   * Revisions after the window within the revert horizon, metadata only (text null): they tell
   * whether a late change in the window was reverted. Sources that cannot see past the window omit it.
   */
  followers?: Revision[];
}

export interface PageMove {
  timestamp: string;
  from: string;
  to: string;
}

/** One infobox of a revision: the template name and its ordered, normalised key → clean text value map. */
export interface Infobox {
  /** Normalised template name without the "Infobox" prefix where it has one, lowercase, e.g. "settlement". */
  template: string;
  /** Ordered entries [key, value]; keys normalised (lowercase, spaces → underscores). */
  fields: Array<[string, string]>;
  /**
   * Other names of a field's value, by key, where the source gives them: the targets of the links a
   * value was written with (`[[United States|USA]]`: `United States`). Absent when none.
   */
  aliases?: Record<string, string[]>;
  /** The infobox draws its values from Wikidata (no parameters of its own, or parameters that fetch them). */
  fromWikidata?: boolean;
}

export const InfoboxSchema = z.object({
  template: z.string(),
  fields: z.array(z.tuple([z.string(), z.string()])),
  aliases: z.record(z.string(), z.array(z.string())).optional(),
  fromWikidata: z.boolean().optional(),
}) satisfies z.ZodType<Infobox>;

export interface ParsedRevision {
  infoboxes: Infobox[];
  /** Plain text of the article's first paragraph, or "" when it has none. */
  firstParagraph: string;
  /** The infobox values left out for being over the size cap of src/parse/infobox.ts, one line each; absent when none was. */
  leftOut?: string[];
  /** For an entity revision (a Wikibase content model): what names the entity and its time-qualified statements. */
  entity?: EntityFacts;
  /**
   * Why the content could not be read at all (an entity revision that is not an entity's JSON): the
   * revision is then kept as metadata, its content unknown, rather than read as one that holds no facts.
   */
  unreadable?: string;
}

/**
 * What an entity revision says of the entity besides its best-ranked facts: its English label and
 * aliases (the page's display title), its English Wikipedia sitelink, and every non-deprecated
 * statement with a time qualifier, from which the world time axis is built (docs/ARCHITECTURE.md §16).
 */
export interface EntityFacts {
  id: string;
  label: string | null;
  aliases: string[];
  /** The title of the entity's English Wikipedia article, when it has one. */
  enwiki: string | null;
  timed: TimedFact[];
}

/**
 * A statement with its time qualifiers (P580 start, P582 end, P585 point in time) as instants at
 * their precision's start (`1990` → 1990-01-01T00:00:00Z), but for the end, which Wikidata gives as
 * the last day (month, year) the statement held; its value in the stored form, entity ids marked
 * (src/content/entityRefs.ts).
 */
export interface TimedFact {
  key: string;
  /** Null for a "no value" or "unknown value" statement: it holds as an absence, outranking as its rank does. */
  value: string | null;
  rank: 'preferred' | 'normal';
  start: string | null;
  /** The instant after the end's period: an end of 1990-10-02 held that whole day, until 1990-10-03T00:00:00Z. */
  end: string | null;
  /**
   * Where the end's period starts (1990-10-02T00:00:00Z): a statement of the key starting from there
   * on takes over at its start, as a term ending on the day the next one starts. Absent in facts an
   * older reading stored, whose `end` was that instant itself.
   */
  handoverFrom?: string | null;
  point: string | null;
}

/** A time-qualified statement as jobs carry it and the store keeps it. */
export const TimedFactSchema = z.object({
  key: z.string(),
  value: z.string().nullable(),
  rank: z.enum(['preferred', 'normal']),
  start: z.string().nullable(),
  end: z.string().nullable(),
  handoverFrom: z.string().nullable().optional(),
  point: z.string().nullable(),
}) satisfies z.ZodType<TimedFact>;

/** An entity revision's naming and time-qualified statements, as parse and read-dump jobs carry them (src/queue). */
export const EntityFactsSchema = z.object({
  id: z.string(),
  label: z.string().nullable(),
  aliases: z.array(z.string()),
  enwiki: z.string().nullable(),
  timed: z.array(TimedFactSchema),
}) satisfies z.ZodType<EntityFacts>;

/** An entity's English label and aliases as a label source knows them; label null: it has none. */
export interface EntityName {
  label: string | null;
  aliases: string[];
}

/**
 * An entity's English name as the last revision of its page in a dump gives it, with that revision's
 * time: a name from a newer revision wins (docs/ARCHITECTURE.md §16). Label null: that revision has
 * no English label (removed, or never given), so an older revision's label no longer names it.
 */
export const DatedEntityNameSchema = z.object({ id: z.string(), label: z.string().nullable(), aliases: z.array(z.string()), asOf: z.string() });
export type DatedEntityName = z.infer<typeof DatedEntityNameSchema>;

export const CHANGE_KINDS = ['added', 'removed', 'changed'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One infobox key that differs between two revisions' infoboxes, as the diff finds it (src/diff/infoboxDiff.ts). */
export interface KeyChange {
  /** The template of the new revision's infobox (the old one's when the infobox was removed). */
  template: string;
  key: string;
  kind: ChangeKind;
  /** Empty string when the key did not exist before. */
  old: string;
  /** Empty string when the key was removed. */
  new: string;
}

/** One infobox key that differs between a revision and its predecessor. */
export interface InfoboxChange extends KeyChange {
  pageId: number;
  revId: number;
  prevRevId: number;
  timestamp: string;
}

/** Where a generated item came from (docs/ARCHITECTURE.md §2): the prompt and its version, the provider, model and seed. */
export interface Provenance {
  prompt: string;
  promptVersion: string;
  provider: string;
  model: string;
  seed: string;
}

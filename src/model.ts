/** Plain typed records shared by sources, parsing, diffing and the store. Times are ISO-8601 UTC strings. */

/** A half-open time window `[start, end)`. */
export interface Window {
  start: string;
  end: string;
}

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
}

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
}

export interface ParsedRevision {
  infoboxes: Infobox[];
  /** Plain text of the article's first paragraph, or "" when it has none. */
  firstParagraph: string;
  /** The infobox values left out for being over the size cap of src/parse/infobox.ts, one line each; absent when none was. */
  leftOut?: string[];
}

export type ChangeKind = 'added' | 'removed' | 'changed';

/** One infobox key that differs between a revision and its predecessor. */
export interface InfoboxChange {
  pageId: number;
  revId: number;
  prevRevId: number;
  timestamp: string;
  template: string;
  key: string;
  kind: ChangeKind;
  /** Empty string when the key did not exist before. */
  old: string;
  /** Empty string when the key was removed. */
  new: string;
}

/** Where a generated item came from (docs/ARCHITECTURE.md §2): the prompt and its version, the provider, model and seed. */
export interface Provenance {
  prompt: string;
  promptVersion: string;
  provider: string;
  model: string;
  seed: string;
}

/**
 * Records of the weekly pipeline (docs/ARCHITECTURE.md §4): stored infobox changes, the data units
 * selected from them, and the questions made from those with their checks, domains and classes.
 * Plain data, shared by the stages, the store and the releases.
 */
import { z } from 'zod';
import { CHANGE_KINDS, type InfoboxChange, type KeyChange } from '../model.js';

export const FILTER_REASONS = ['styling_key', 'file_value', 'empty_value'] as const;
/** Why the key/value filters dropped a change (docs/ARCHITECTURE.md §4). */
export type FilterReason = (typeof FILTER_REASONS)[number];

/**
 * A key change with the marks the diff stage gives it (filtered, reverted), as zod reads it where it
 * crosses a boundary: a diff job's result from the queue, and a stored change from the store.
 */
export const MarkedKeyChangeSchema = z.object({
  template: z.string(),
  key: z.string(),
  kind: z.enum(CHANGE_KINDS),
  old: z.string(),
  new: z.string(),
  filtered: z.enum(FILTER_REASONS).nullable(),
  revertedBy: z.number().int().nullable(),
}) satisfies z.ZodType<KeyChange & { filtered: FilterReason | null; revertedBy: number | null }>;

/** A page's revision as the diff stage reads it back. */
export interface PageRevisionRow {
  revId: number;
  timestamp: string;
  sha1: string | null;
  metadataOnly: boolean;
  firstParagraph: string | null;
  /** Parsed by an older reading than this version's (`READING_VERSIONS`) and not read again since. */
  olderReading: boolean;
}

export interface StoredChange extends InfoboxChange {
  wiki: string;
  title: string;
  filtered: FilterReason | null;
  revertedBy: number | null;
}

export interface DataUnit {
  wiki: string;
  windowStart: string;
  windowEnd: string;
  pageId: number;
  title: string;
  url: string;
  revId: number;
  prevRevId: number;
  timestamp: string;
  template: string;
  key: string;
  old: string;
  new: string;
  infobox: Record<string, string>;
  /** Labels of the infobox's keys that are Wikidata properties (`P1082` → `population`); empty for wikitext infoboxes. */
  keyLabels: Record<string, string>;
  firstParagraph: string;
  seed: string;
}

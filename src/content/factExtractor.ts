/**
 * The seam between a revision's content and the facts the pipeline diffs, selects and answers from
 * (docs/ARCHITECTURE.md §16): one extractor per content model, chosen by the model a source reports
 * for the revision, each giving the same `ParsedRevision` (infobox-like fact sets, a first
 * paragraph, and for entities what names them and their time-qualified statements).
 */
import type { ParsedRevision } from '../model.js';

/** What an extractor gives besides the fact sets. */
export interface ExtractOptions {
  /** Also give the first paragraph (only the revisions of a window need it). */
  firstParagraph: boolean;
}

/**
 * Reads the facts of one or more content models: a new content model is one object implementing
 * this and one entry in registry.ts (docs/ARCHITECTURE.md §16).
 *
 * @example
 * export const lexemeFacts: FactExtractor = {
 *   models: ['wikibase-lexeme'],
 *   extract: (text, options) => lexemeFactsOf(text, options) ?? noFacts(),
 * };
 */
export interface FactExtractor {
  /** The content models it reads, as MediaWiki names them (`wikitext`, `wikibase-item`). */
  readonly models: readonly string[];
  /**
   * Loads what extraction needs that is too heavy to load at start-up; awaited once before the first
   * `extract` (`prepareExtractors` in the registry).
   */
  prepare?(): Promise<void>;
  /**
   * The revision's facts. Never throws once `prepare` has resolved: content it cannot read at all
   * gives no facts and says why in `unreadable` (the revision is kept as metadata, its content
   * unknown, so no fact reads as removed by it). Before that, an extractor with a `prepare` throws
   * (a caller's bug, not bad content).
   */
  extract(text: string, options: ExtractOptions): ParsedRevision;
}

/**
 * The facts of content an extractor cannot read. A new object each time rather than a frozen one:
 * `ParsedRevision`'s arrays are mutable by type and travel on into job results and store writes.
 */
export function noFacts(): ParsedRevision {
  return { infoboxes: [], firstParagraph: '' };
}

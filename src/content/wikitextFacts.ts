/** Wikitext's facts: the infoboxes of an article and its first paragraph (src/parse). */
import { DEFAULT_CONTENT_MODEL } from '../model.js';
import { RevisionParser } from '../parse/parseRevision.js';
import type { FactExtractor } from './factExtractor.js';

/** One per process or thread that parses: consecutive revisions of a page mostly repeat their parent's infobox and lead. */
const parser = new RevisionParser();

/** The extractor of wikitext, through src/parse's `RevisionParser`. */
export const wikitextFacts: FactExtractor = {
  models: [DEFAULT_CONTENT_MODEL],
  extract: (text, options) => parser.parse(text, options),
};

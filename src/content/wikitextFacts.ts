/** Wikitext's facts: the infoboxes of an article and its first paragraph (src/parse). */
import { parseRevision } from '../parse/parseRevision.js';
import type { FactExtractor } from './factExtractor.js';

export const wikitextFacts: FactExtractor = {
  models: ['wikitext'],
  extract: (text, options) => parseRevision(text, options),
};

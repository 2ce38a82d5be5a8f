import type { ParsedRevision } from '../model.js';
import { extractInfoboxes } from './infobox.js';
import { firstParagraph } from './leadParagraph.js';

export interface ParseRevisionOptions {
  /** Also render the first paragraph; off by default because only selected changes need it. */
  firstParagraph?: boolean;
}

/** A revision's infoboxes and, when asked, its first paragraph ("" otherwise). Never throws. */
export function parseRevision(wikitext: string, options: ParseRevisionOptions = {}): ParsedRevision {
  return {
    infoboxes: extractInfoboxes(wikitext),
    firstParagraph: options.firstParagraph === true ? firstParagraph(wikitext) : '',
  };
}

import type { ParsedRevision } from '../model.js';
import { extractInfoboxes } from './infobox.js';
import { firstParagraph } from './leadParagraph.js';

export interface ParseRevisionOptions {
  /** Also render the first paragraph; off by default because only selected changes need it. */
  firstParagraph?: boolean;
}

/** A revision's infoboxes and, when asked, its first paragraph ("" otherwise), with what the size caps left out. Never throws. */
export function parseRevision(wikitext: string, options: ParseRevisionOptions = {}): ParsedRevision {
  const leftOut: string[] = [];
  return {
    infoboxes: extractInfoboxes(wikitext, leftOut),
    firstParagraph: options.firstParagraph === true ? firstParagraph(wikitext) : '',
    ...(leftOut.length > 0 ? { leftOut } : {}),
  };
}

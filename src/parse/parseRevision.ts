/**
 * What the store keeps of a revision's wikitext: its infoboxes and, when asked, its first
 * paragraph. A RevisionParser remembers what it parsed lately (docs/SCALE.md): most edits leave
 * the infobox and the lead as they were, and a revision whose whole text repeats a recent one (a
 * null edit, vandalism reverted byte for byte) costs a lookup; results are the same either way,
 * values the size cap left out included.
 */
import type { Infobox, ParsedRevision } from '../model.js';
import { extractInfoboxes, type ParsedInfobox } from './infobox.js';
import { firstParagraph } from './leadParagraph.js';
import { RecentResults } from './recentResults.js';

/** What `RevisionParser.parse` gives besides the infoboxes. */
export interface ParseRevisionOptions {
  /** Also render the first paragraph; off by default because only selected changes need it. */
  firstParagraph?: boolean;
}

interface ParsedText {
  infoboxes: Infobox[];
  leftOut: string[];
  firstParagraph?: string;
}

/**
 * Parses revisions, remembering recent texts, infoboxes and leads: one per thread that parses.
 * Wikitext's fact extractor (src/content/wikitextFacts.ts) is one; call it through `extractFacts`
 * unless the content model is known to be wikitext.
 *
 * @example
 * const parser = new RevisionParser();
 * parser.parse('{{Infobox city|mayor=[[Kai Wegner]]}}\nBerlin is the capital.', { firstParagraph: true })
 * // { infoboxes: [{ template: 'city', fields: [['mayor', 'Kai Wegner']] }], firstParagraph: 'Berlin is the capital.' }
 */
export class RevisionParser {
  /** Whole texts (the first paragraph filled in once asked for): a page's last few revisions. */
  private readonly texts = new RecentResults<ParsedText>({ maxEntries: 16, maxChars: 4 << 20 });
  private readonly infoboxes = new RecentResults<ParsedInfobox>({ maxEntries: 256, maxChars: 1 << 20 });
  private readonly leads = new RecentResults<string>({ maxEntries: 64, maxChars: 1 << 20 });

  /** A revision's infoboxes and, when asked, its first paragraph ("" otherwise), with what the size caps left out. Never throws. */
  parse(wikitext: string, options: ParseRevisionOptions = {}): ParsedRevision {
    const known = this.texts.get(wikitext, () => {
      const leftOut: string[] = [];
      return { infoboxes: extractInfoboxes(wikitext, { leftOut, recent: this.infoboxes }), leftOut };
    });
    const paragraph = options.firstParagraph === true ? (known.firstParagraph ?? this.lead(wikitext, known)) : '';
    return { infoboxes: known.infoboxes, firstParagraph: paragraph, ...(known.leftOut.length > 0 ? { leftOut: known.leftOut } : {}) };
  }

  private lead(wikitext: string, known: ParsedText): string {
    const paragraph = firstParagraph(wikitext, this.leads);
    this.texts.set(wikitext, { ...known, firstParagraph: paragraph });
    return paragraph;
  }
}

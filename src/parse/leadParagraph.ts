/**
 * The first paragraph of an article as plain text. wtf_wikipedia renders it, but only the lead
 * section without its standalone templates (infobox, hatnotes, short description, maintenance
 * tags) is handed over: rendering a whole article costs about 20 ms.
 */
import { outermostTemplates, parseWithWtf, toCleanText, type TemplateSpan } from './infobox.js';

const HEADING = /^=[^\n]*=[ \t]*$/gm;
/** An indented line before the text (`:''For other uses, see …''`) is a hatnote written by hand. */
const INDENTED_LINE = /^:[^\n]*$/gm;
const LETTER = /\p{L}/u;

function isInComment(text: string, index: number): boolean {
  return text.lastIndexOf('<!--', index) > text.lastIndexOf('-->', index);
}

/** The text before the first heading (headings commented out do not count). */
function leadSection(wikitext: string): string {
  HEADING.lastIndex = 0;
  for (let heading = HEADING.exec(wikitext); heading !== null; heading = HEADING.exec(wikitext)) {
    if (!isInComment(wikitext, heading.index)) return wikitext.slice(0, heading.index);
  }
  return wikitext;
}

/** Index of the end of the line at `from`, past any whitespace and the templates of `spans` from `next` on. */
function endOfTemplatesRun(lead: string, spans: readonly TemplateSpan[], next: number, from: number): number {
  let position = from;
  for (let i = next; i < spans.length; i++) {
    const span = spans[i];
    if (span === undefined || !/^[ \t]*$/.test(lead.slice(position, span.start))) break;
    position = span.end;
  }
  return position;
}

/**
 * Removes the templates that stand on lines of their own (alone or with other templates), which
 * are never part of a paragraph; templates inside a line of text (dates, conversions,
 * pronunciations) stay for wtf to render.
 */
function withoutStandaloneTemplates(lead: string): string {
  const spans = outermostTemplates(lead);
  let kept = '';
  let copiedUpTo = 0;
  spans.forEach((span, i) => {
    const lineStart = lead.lastIndexOf('\n', span.start - 1) + 1;
    const startsLine = /^\s*$/.test(lead.slice(Math.max(copiedUpTo, lineStart), span.start));
    const runEnd = endOfTemplatesRun(lead, spans, i + 1, span.end);
    const endsLine = /^[ \t]*(?:\n|$)/.test(lead.slice(runEnd, runEnd + 200));
    if (startsLine && endsLine) {
      kept += lead.slice(copiedUpTo, span.start);
      copiedUpTo = span.end;
    }
  });
  return kept + lead.slice(copiedUpTo);
}

/** Plain text of the article's first paragraph, or "" when it has none. Never throws. */
export function firstParagraph(wikitext: string): string {
  try {
    const lead = withoutStandaloneTemplates(leadSection(wikitext)).replace(INDENTED_LINE, '');
    for (const paragraph of parseWithWtf(lead).paragraphs()) {
      const text = toCleanText(paragraph.text());
      if (LETTER.test(text)) return text;
    }
  } catch {
    // Malformed wikitext that defeats wtf has no usable first paragraph.
  }
  return '';
}

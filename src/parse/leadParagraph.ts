/**
 * The first paragraph of an article as plain text. wtf_wikipedia renders it, but only the lead
 * section without its standalone templates (infobox, hatnotes, short description, maintenance
 * tags) is handed over: rendering a whole article costs about 20 ms.
 */
import { hideNonMarkup, maskLiterals, outermostTemplates, toCleanText, type TemplateSpan } from './infobox.js';
import { parseWithWtf } from '../text/wtf.js';
import type { RecentResults } from './recentResults.js';

const HEADING = /^=[^\n]*=[ \t]*$/m;
/** An indented line before the text (`:''For other uses, see …''`) is a hatnote written by hand. */
const INDENTED_LINE = /^:[^\n]*$/gm;
const LETTER = /\p{L}/u;
/**
 * How much of the lead (once its standalone templates are gone) wtf gets: real first paragraphs
 * are a few thousand characters, and wtf slows down badly on long runs of unusual text.
 */
const RENDERED_LEAD_LIMIT = 10_000;

/** The text before the first heading. */
function leadSection(text: string): string {
  const heading = HEADING.exec(text);
  return heading === null ? text : text.slice(0, heading.index);
}

/** For each span, the index just past the run of templates it starts, separated by spaces only. */
function templateRunEnds(lead: string, spans: readonly TemplateSpan[]): number[] {
  const runEnds = spans.map((span) => span.end);
  for (let i = spans.length - 2; i >= 0; i--) {
    const next = spans[i + 1] as TemplateSpan;
    if (/^[ \t]*$/.test(lead.slice(spans[i]?.end, next.start))) runEnds[i] = runEnds[i + 1] as number;
  }
  return runEnds;
}

/** Braces outside every template are literal text (unclosed `{{`, stray `}}`); wtf must not look for templates in them. */
function literalBraces(text: string): string {
  return text.replace(/\{\{|\}\}/g, maskLiterals);
}

/**
 * Removes the templates that stand on lines of their own (alone or with other templates), which
 * are never part of a paragraph; templates inside a line of text (dates, conversions,
 * pronunciations) stay for wtf to render.
 */
function withoutStandaloneTemplates(lead: string): string {
  const spans = outermostTemplates(lead);
  const runEnds = templateRunEnds(lead, spans);
  let kept = '';
  let copiedUpTo = 0;
  let removedUpTo = 0;
  // Line starts are found going forward (not with lastIndexOf) to stay linear on one long line.
  let lineStart = 0;
  let nextNewline = lead.indexOf('\n');
  spans.forEach((span, i) => {
    kept += literalBraces(lead.slice(copiedUpTo, span.start));
    copiedUpTo = span.end;
    while (nextNewline !== -1 && nextNewline < span.start) {
      lineStart = nextNewline + 1;
      nextNewline = lead.indexOf('\n', lineStart);
    }
    const startsLine = /^\s*$/.test(lead.slice(Math.max(removedUpTo, lineStart), span.start));
    const runEnd = runEnds[i] ?? span.end;
    if (startsLine && /^[ \t]*(?:\n|$)/.test(lead.slice(runEnd, runEnd + 200))) {
      removedUpTo = span.end;
    } else {
      kept += lead.slice(span.start, span.end);
    }
  });
  return kept + literalBraces(lead.slice(copiedUpTo));
}

/**
 * Plain text of the article's first paragraph, or "" when it has none. Never throws. With
 * `recent`, a lead that renders as one rendered lately (an edit elsewhere in the article) costs a lookup.
 *
 * @example firstParagraph("{{Infobox city}}\n'''Berlin''' is the [[capital city|capital]] of Germany.\n\n== History ==") === 'Berlin is the capital of Germany.'
 */
export function firstParagraph(wikitext: string, recent?: RecentResults<string>): string {
  try {
    const lead = withoutStandaloneTemplates(leadSection(hideNonMarkup(wikitext)))
      .replace(INDENTED_LINE, '')
      .slice(0, RENDERED_LEAD_LIMIT);
    return recent ? recent.get(lead, () => renderFirstParagraph(lead)) : renderFirstParagraph(lead);
  } catch {
    // Malformed wikitext that defeats wtf (or templates nested past parseWithWtf's limit) has no usable first paragraph.
    return '';
  }
}

function renderFirstParagraph(lead: string): string {
  for (const paragraph of parseWithWtf(lead).paragraphs()) {
    const text = toCleanText(paragraph.text());
    if (LETTER.test(text)) return text;
  }
  return '';
}

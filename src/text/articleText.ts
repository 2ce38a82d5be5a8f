/**
 * An article's wikitext as plain-text paragraphs of sentences (docs/ARCHITECTURE.md §7.2). wtf_wikipedia renders
 * the prose (references, templates, tables, infoboxes and images removed, links as their label);
 * each paragraph's prose is cut by the one splitter, and each list becomes its own paragraph of
 * one "sentence" per item, since list items are statements but not prose sentences.
 */
import type { ArticleSentence } from '../model/labels.js';
import { splitSentences } from './sentences.js';
import { parseWithWtf } from './wtf.js';

/** Back matter: citations and links, not statements about the subject. */
const BACK_MATTER = /^(references|notes|footnotes|citations|sources|bibliography|further reading|external links|see also|notes and references)$/i;
const REDIRECT = /^\s*#redirect\b/i;
const LETTER = /\p{L}/u;
/**
 * A file link with no link inside it (a flag icon, a ribbon, a thumbnail with a plain caption): an
 * image, not text. wtf_wikipedia takes images out of prose but keeps a list item's as its file name
 * ("Flag of Saudi Arabia.svg Saudi Arabia: …"), so they go before it reads the page.
 */
const INLINE_FILE = /\[\[\s*(?:file|image)\s*:[^[\]]*\]\]/giu;

/**
 * Inline markup whose text is prose: wtf_wikipedia drops `<code>` with its text ("the extension
 * <code>.qsd</code>" read "the extension."), and keeps `<tt>` and an `<abbr>` with attributes as
 * raw tags. The tags go; their text stays.
 */
const INLINE_TEXT_TAGS = /<\/?(?:code|tt|abbr)\b[^<>]*>/giu;

export function isRedirectText(wikitext: string): boolean {
  return REDIRECT.test(wikitext);
}

/** The article's sentences; an InputError naming why for wikitext the parser cannot read (templates nested too deep). */
export function articleSentences(wikitext: string): ArticleSentence[] {
  const paragraphs: string[][] = [];
  for (const section of parseWithWtf(wikitext.replace(INLINE_FILE, '').replace(INLINE_TEXT_TAGS, '')).sections()) {
    if (BACK_MATTER.test(section.title().trim())) continue;
    for (const paragraph of section.paragraphs()) {
      // wtf's own sentences only delimit the prose (lists excluded); the cut is ours.
      const prose = paragraph.sentences().map((sentence) => sentence.text()).join(' ');
      paragraphs.push(splitSentences(prose));
      for (const list of paragraph.lists()) paragraphs.push(list.lines().map((line) => line.text().replace(/\s+/g, ' ').trim()));
    }
  }
  const sentences: ArticleSentence[] = [];
  for (const paragraph of paragraphs) {
    const kept = paragraph.filter((text) => LETTER.test(text));
    if (kept.length === 0) continue;
    const number = sentences.length === 0 ? 0 : (sentences.at(-1) as ArticleSentence).paragraph + 1;
    for (const text of kept) sentences.push({ index: sentences.length, paragraph: number, text });
  }
  return sentences;
}

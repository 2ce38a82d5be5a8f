/**
 * Paragraphs of a snapshot article and the GrowOVER paragraph rule: a paragraph is worth a question
 * when it is short enough to hold one fact (fewer than 5 sentences) yet long enough to state it
 * (300 to 600 characters).
 */
import type { ArticleSentence } from '../model/labels.js';

/** One paragraph of a snapshot article: its sentences, in order. */
export interface Paragraph {
  /** Paragraph number in the article. */
  number: number;
  sentences: ArticleSentence[];
}

const PARAGRAPH_RULE = { maxSentences: 4, minChars: 300, maxChars: 600 } as const;

/**
 * An article's sentences grouped by paragraph number, in article order.
 *
 * @param sentences - the article's sentences, in order, each with its paragraph number
 */
export function paragraphsOf(sentences: readonly ArticleSentence[]): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  for (const sentence of sentences) {
    const last = paragraphs.at(-1);
    if (last && last.number === sentence.paragraph) last.sentences.push(sentence);
    else paragraphs.push({ number: sentence.paragraph, sentences: [sentence] });
  }
  return paragraphs;
}

/** A paragraph's sentences joined by spaces: the text the paragraph rule measures and the prompts quote. */
export function paragraphText(paragraph: Paragraph): string {
  return paragraph.sentences.map((sentence) => sentence.text).join(' ');
}

/**
 * The GrowOVER paragraph rule: at most 4 sentences and 300 to 600 characters.
 *
 * @example paragraphsOf(article.sentences).filter(qualifies) // the paragraphs an item may be generated from
 */
export function qualifies(paragraph: Paragraph): boolean {
  const length = paragraphText(paragraph).length;
  return paragraph.sentences.length <= PARAGRAPH_RULE.maxSentences && length >= PARAGRAPH_RULE.minChars && length <= PARAGRAPH_RULE.maxChars;
}

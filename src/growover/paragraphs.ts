/**
 * Paragraphs of a snapshot article and the GrowOVER paragraph rule: a paragraph is worth a question
 * when it is short enough to hold one fact (fewer than 5 sentences) yet long enough to state it
 * (300 to 600 characters).
 */
import type { ArticleSentence } from '../model/labels.js';

export interface Paragraph {
  /** Paragraph number in the article. */
  number: number;
  sentences: ArticleSentence[];
}

const PARAGRAPH_RULE = { maxSentences: 4, minChars: 300, maxChars: 600 } as const;

export function paragraphsOf(sentences: readonly ArticleSentence[]): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  for (const sentence of sentences) {
    const last = paragraphs.at(-1);
    if (last && last.number === sentence.paragraph) last.sentences.push(sentence);
    else paragraphs.push({ number: sentence.paragraph, sentences: [sentence] });
  }
  return paragraphs;
}

export function paragraphText(paragraph: Paragraph): string {
  return paragraph.sentences.map((sentence) => sentence.text).join(' ');
}

export function qualifies(paragraph: Paragraph): boolean {
  const length = paragraphText(paragraph).length;
  return paragraph.sentences.length <= PARAGRAPH_RULE.maxSentences && length >= PARAGRAPH_RULE.minChars && length <= PARAGRAPH_RULE.maxChars;
}

/**
 * Word tokens of a sentence for the model-free comparisons: content words (function words dropped),
 * each marked as a number (any digit), a name (capitalised, not sentence-initial) or a plain word.
 */
import { boundedMemo } from '../boundedMemo.js';
import { normaliseSentence } from './normalise.js';

export type TokenKind = 'number' | 'name' | 'word';

export interface Token {
  norm: string;
  kind: TokenKind;
}

const FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'of', 'in', 'on', 'at', 'to', 'for', 'by', 'with', 'from', 'as', 'is', 'are',
  'was', 'were', 'be', 'been', 'being', 'it', 'its', 'this', 'that', 'these', 'those', 'which', 'who', 'whom', 'also',
  'has', 'have', 'had', 'he', 'she', 'they', 'his', 'her', 'their', 'there', 'then', 'than', 'into', 'about', 'after',
  'while', 'so', 'such', 's', 'where', 'when', 'since', 'both', 'can', 'will', 'would', 'not', 'no', 'do', 'does', 'did',
]);

/** Negations change what a sentence says without changing its other words: never dropped. */
const NEGATIONS = new Set(['not', 'no', 'never', 'nor']);

/**
 * The tokens of a text, shared between callers: never to be changed in place. Sentences are
 * compared with several others each: tokenised once per text, not once per comparison.
 */
export const contentTokens: (text: string) => readonly Token[] = boundedMemo(tokenise, 50_000);

function tokenise(text: string): Token[] {
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}][\p{L}\p{N}.,'’-]*/gu) ?? [];
  const tokens: Token[] = [];
  words.forEach((word, position) => {
    // A possessive is its name ("Kant's project" / "the project of Kant"), not a word "kant s".
    const norm = normaliseSentence(word.replace(/[.,'’-]+$/, '').replace(/['’]s$/iu, ''));
    if (norm === '' || (FUNCTION_WORDS.has(norm) && !NEGATIONS.has(norm))) return;
    const kind: TokenKind = /\p{N}/u.test(norm) ? 'number' : position > 0 && /^\p{Lu}/u.test(word) ? 'name' : 'word';
    tokens.push({ norm, kind });
  });
  return tokens;
}

/**
 * A key equal for texts that say the same words in the same order, function words aside (a sentence
 * split or merged and re-punctuated); null for a text without content words. A span's key is its
 * sentences' words in order: a word never runs across the space that joins them.
 */
export function contentKey(sentences: readonly string[]): string | null {
  const norms = sentences.flatMap((sentence) => contentTokens(sentence).map((token) => token.norm));
  return norms.length === 0 ? null : norms.join(' ');
}

/** A text's content words, normalised, as a set: what the labeler's word-overlap test compares. */
export function contentWords(text: string): Set<string> {
  return new Set(contentTokens(text).map((token) => token.norm));
}

/** Shared words as a share of the smaller set: a split half fully inside its old sentence scores 1. */
export function wordOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / Math.min(a.size, b.size);
}

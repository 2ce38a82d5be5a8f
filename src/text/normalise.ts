import { createHash } from 'node:crypto';

/**
 * The form in which two sentences count as the same text: Unicode-normalised, lowercase, without
 * punctuation or markup residue, whitespace collapsed. A period between digits is kept, since
 * 3.5 and 35 are different numbers; a thousands separator is dropped, since 1,000 and 1000 are not.
 */
export function normaliseSentence(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/(\d)[.](?=\d)/g, '$1\u0001')
    .replace(/[^\p{L}\p{N}\u0001\s]+/gu, ' ')
    .replace(/\u0001/g, '.')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A short stable key of the normalised sentence (64 bits of SHA-1 in hex). */
export function sentenceHash(text: string): string {
  return createHash('sha1').update(normaliseSentence(text)).digest('hex').slice(0, 16);
}

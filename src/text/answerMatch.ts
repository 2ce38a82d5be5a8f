/**
 * Subset match (SM), the correctness test of DailyQA: the gold answer, normalised, occurs in the
 * normalised prediction. Normalising makes formatting differences irrelevant: case, accents,
 * punctuation, the articles a/an/the, whitespace, and thousands separators in numbers
 * ("3,644,826", "3 644 826" and "3644826" are one number; "4.47" keeps its decimal point).
 */

export function normaliseAnswer(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      // Thousands separators: a comma, a space (any width) or an apostrophe between digit groups of three.
      .replace(/(\d)[,\s\u00a0\u2009\u202f'](?=\d{3}(?!\d))/g, '$1')
      // A point between digits is a decimal point; every other punctuation mark separates words.
      .replace(/(\d)\.(?=\d)/g, '$1\u0000')
      .replace(/[^\p{L}\p{N}\u0000]+/gu, ' ')
      .replace(/\u0000/g, '.')
      .replace(/\b(a|an|the)\b/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * SM = 1 when the normalised gold occurs in the normalised prediction as whole words, so that a gold
 * "4" is not found inside "14" or "4.5". An empty gold never matches.
 */
export function subsetMatch(gold: string, prediction: string): boolean {
  const g = normaliseAnswer(gold);
  if (g === '') return false;
  const p = normaliseAnswer(prediction);
  return ` ${p} `.includes(` ${g} `) && !new RegExp(`(^|\\s)${escape(g)}\\.\\d`).test(p);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

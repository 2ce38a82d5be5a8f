/**
 * What "the same words" means, in one module, as named variants, so that a rule holds wherever its
 * name is used: `normaliseForMatch` and `answerContains` are "the answer is in the text" for both
 * the weekly check stage and GrowOVER validation; `normaliseSentence` is when two sentences are the
 * same text (the labeler's exact anchors, sentence hashes); `squadNormalise` is SQuAD's own rule,
 * for scores comparable with other work. The first two share their steps and differ in parameters.
 */
import { createHash } from 'node:crypto';

interface Rules {
  /** NFKD splits accented letters so that the accents can go; NFKC keeps them composed. */
  form: 'NFKC' | 'NFKD';
  dropAccents: boolean;
  /** A separator between digit groups to drop, so that the number reads as one. */
  thousandsSeparator: RegExp;
  dropArticles: boolean;
}

/** The digits of a number keep one token: a point between digits is a decimal point, held aside while punctuation goes. */
const DECIMAL_POINT = '\u0000';

const NON_ASCII = /[^\x00-\x7f]/;

/** Runs of what is neither a letter, a digit nor a held decimal point; on ASCII text the same as a plain class, and several times faster. */
const NON_WORD = /[^\p{L}\p{N}\u0000]+/gu;
const ASCII_NON_WORD = /[^a-z0-9\u0000]+/g;

function normalise(text: string, rules: Rules): string {
  let result = text;
  // ASCII text is already in every normal form and has no accents: scoring normalises by the hundred thousand.
  const ascii = !NON_ASCII.test(result);
  if (!ascii) {
    result = result.normalize(rules.form);
    if (rules.dropAccents) result = result.replace(/\p{M}/gu, '');
  }
  result = result
    .toLowerCase()
    .replace(rules.thousandsSeparator, '$1')
    .replace(/(\d)\.(?=\d)/g, `$1${DECIMAL_POINT}`)
    .replace(ascii ? ASCII_NON_WORD : NON_WORD, ' ')
    .replaceAll(DECIMAL_POINT, '.');
  if (rules.dropArticles) result = result.replace(/\b(a|an|the)\b/g, ' ');
  return result.replace(/\s+/g, ' ').trim();
}

const MATCH: Rules = {
  form: 'NFKD',
  dropAccents: true,
  // A comma, a space of any width or an apostrophe between digit groups of three: "3,644,826",
  // "3 644 826" and "3'644'826" are all 3644826.
  thousandsSeparator: /(\d)[,\s\u00a0\u2009\u202f'](?=\d{3}(?!\d))/g,
  dropArticles: true,
};

const SENTENCE: Rules = {
  form: 'NFKC',
  dropAccents: false,
  thousandsSeparator: /(\d),(?=\d{3}\b)/g,
  dropArticles: false,
};

/**
 * The form in which an answer is looked for: case, accents, punctuation, the articles a/an/the,
 * whitespace and thousands separators do not count; a decimal point does ("4.47" stays).
 *
 * @example normaliseForMatch('The Population: 1,234,567 (an estimate), 2.5%') === 'population 1234567 estimate 2.5'
 */
export function normaliseForMatch(text: string): string {
  return normalise(text, MATCH);
}

/**
 * Whether `answer` occurs in `text` as whole words once both are normalised for matching, so that
 * "4" is not found in "14" nor in "4.5". An empty answer is never found. The weekly check stage's
 * subset match (the gold value in the model's answer) and GrowOVER's "the answer is in its
 * evidence" are both this.
 */
export function answerContains(text: string, answer: string): boolean {
  const needle = normaliseForMatch(answer);
  return needle !== '' && normalisedContains(normaliseForMatch(text), needle);
}

/** `answerContains` on texts already normalised for matching (scoring keeps each text's form). */
export function normalisedContains(haystack: string, needle: string): boolean {
  return paddedContains(` ${haystack} `, ` ${needle} `);
}

/**
 * `normalisedContains` on the forms with a space at each end, which scoring keeps: it is called by the
 * hundred thousand, and padding both texts on each call was a copy of each.
 */
export function paddedContains(haystack: string, needle: string): boolean {
  return needle.length > 2 && haystack.includes(needle) && !continuesAsDecimal(haystack, needle.slice(0, -1));
}

/** Whether the word start ` needle` occurs followed by a decimal part ("4" in "4.5"); no RegExp per call. */
function continuesAsDecimal(haystack: string, wordStart: string): boolean {
  for (let at = haystack.indexOf(wordStart); at !== -1; at = haystack.indexOf(wordStart, at + 1)) {
    const after = at + wordStart.length;
    const digit = haystack.charCodeAt(after + 1);
    if (haystack[after] === '.' && digit >= 0x30 && digit <= 0x39) return true;
  }
  return false;
}

/**
 * The form in which two sentences count as the same text: Unicode-normalised, lowercase, without
 * punctuation or markup residue, whitespace collapsed; accents and articles stay, since a changed
 * accent or article is an edit of the sentence. A period between digits is kept (3.5 and 35
 * differ), a thousands comma is dropped (1,000 and 1000 do not).
 */
export function normaliseSentence(text: string): string {
  return normalise(text, SENTENCE);
}

/** A short stable key of the normalised sentence (64 bits of SHA-1 in hex). */
export function sentenceHash(text: string): string {
  return createHash('sha1').update(normaliseSentence(text)).digest('hex').slice(0, 16);
}

const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
/** Python's `\b(a|an|the)\b` on Unicode text: a word character is a letter, a digit or "_". */
const ARTICLE = /(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu;
/** The same on ASCII text, where `\b` is exactly that boundary, and several times faster. */
const ASCII_ARTICLE = /\b(a|an|the)\b/g;

/**
 * What Python's `str.isspace()` holds to be whitespace, which `str.split()` and `str.strip()` break
 * on: category Zs and the bidirectional classes WS, B and S. Unlike JavaScript's `\s`, U+0085 and
 * U+001C-U+001F are whitespace and U+FEFF is not; the reference scorers (SQuAD v1.1, GrowOVER) are Python.
 */
const PYTHON_SPACE = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PYTHON_SPACES = new RegExp(`[${PYTHON_SPACE}]+`);
const PYTHON_EDGE_SPACES = new RegExp(`^[${PYTHON_SPACE}]+|[${PYTHON_SPACE}]+$`, 'g');

/**
 * Python's `text.split()`: the words between runs of whitespace, none empty.
 *
 * @example pythonSplit(' a\u0085b\ufeff ') // ['a', 'b\ufeff']
 */
export function pythonSplit(text: string): string[] {
  return text.split(PYTHON_SPACES).filter((word) => word !== '');
}

/** Python's `text.strip()`. */
export function pythonStrip(text: string): string {
  return text.replace(PYTHON_EDGE_SPACES, '');
}

/**
 * SQuAD's official answer normalisation, exactly: lowercase, ASCII punctuation deleted (not
 * replaced by a space), the words a/an/the removed, whitespace collapsed as Python's `split()`
 * sees whitespace. Nothing else: no Unicode folding, so that exact-match and F1 scores stay
 * comparable with published ones.
 *
 * @example squadNormalise('The  Eiffel-Tower!') === 'eiffeltower'
 */
export function squadNormalise(text: string): string {
  const bare = text.toLowerCase().replace(ASCII_PUNCTUATION, '');
  return pythonSplit(bare.replace(NON_ASCII.test(bare) ? ARTICLE : ASCII_ARTICLE, ' ')).join(' ');
}

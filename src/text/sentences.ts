/**
 * The one sentence splitter of wikidelta (docs/ARCHITECTURE.md §7.2): labeling, generation and export all cut text
 * here, so a sentence index means the same thing everywhere.
 *
 * A boundary is a terminator (`.`, `!`, `?`, `…`, `...`), optionally followed by closing quotes or
 * brackets, then whitespace, then the start of a sentence. Periods that end an abbreviation, an
 * initial or a dotted acronym are not boundaries unless the next word is one that commonly starts
 * a sentence ("Acme Inc. The firm …", "Smith et al. The study …"), because those tokens also end
 * sentences in real text. Decimals (3.5) never have whitespace after the period.
 */

/** Abbreviations that stand before what they qualify (a name, a number): never the end of a sentence. */
const PREFIX_ABBREVIATIONS = new Set([
  'dr', 'mr', 'mrs', 'ms', 'prof', 'st', 'mt', 'ft', 'gen', 'col', 'capt', 'lt', 'sgt', 'maj', 'cmdr', 'adm',
  'gov', 'sen', 'rep', 'rev', 'fr', 'hon', 'pres', 'no', 'nos', 'vol', 'vols', 'pp', 'p', 'fig', 'art',
  'e.g', 'i.e', 'cf', 'vs', 'v', 'approx', 'ca', 'c', 'fl', 'b', 'd', 'op', 'ed', 'eds', 'est', 'lit',
]);

/** Abbreviations that may end a sentence: a boundary only when a usual sentence opener follows. */
const SUFFIX_ABBREVIATIONS = new Set([
  'inc', 'ltd', 'co', 'corp', 'plc', 'llc', 'jr', 'sr', 'bros', 'al', 'etc', 'jan', 'feb', 'mar', 'apr', 'jun',
  'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);

/** Words that often open a sentence; after an ambiguous period they mark a boundary. */
const SENTENCE_OPENERS = new Set([
  'a', 'an', 'the', 'it', 'its', 'in', 'on', 'at', 'he', 'she', 'they', 'we', 'i', 'this', 'that', 'these', 'those',
  'his', 'her', 'their', 'there', 'after', 'before', 'during', 'since', 'when', 'while', 'as', 'by', 'for', 'from',
  'however', 'although', 'but', 'and', 'also', 'following', 'according', 'many', 'some', 'most', 'one', 'both',
  'each', 'other', 'several', 'later', 'today', 'under', 'with', 'despite', 'because', 'if', 'until', 'between',
  'over', 'to', 'what', 'who', 'which', 'all', 'such', 'further', 'meanwhile',
]);

const CLOSERS = `"'”’)]»`;
/** A number, then a one- or two-letter unit and its period at the end of the text: "23.0 C.", "-13.2 C.", "300 ft.", "5°C.". */
const UNIT_AFTER_NUMBER = /\p{N}(?:\s+°?|°)\p{L}{1,2}\.[^\p{L}\p{N}]*$/u;
/** The unit symbols that rule reads ("c" after a number is Celsius, never circa); not "st" or "no", which a name or a number follows ("5 St. Mary's Road"). */
const UNIT_SYMBOLS = new Set(['c', 'f', 'k', 'm', 'g', 'l', 'km', 'cm', 'mm', 'ft', 'in', 'mi', 'yd', 'lb', 'kg', 'oz', 'ha', 'ml', 'kn']);
/** Far more than the longest abbreviation, initial or dotted acronym with its closing marks. */
const WORD_BEFORE_PERIOD = 200;
/** A terminator run, the closing marks after it, and the whitespace before the next sentence. */
const BOUNDARY = new RegExp(`(?:\\.{3}|…|[.!?]+)[${escapeClass(CLOSERS)}]*(\\s+)`, 'g');

export function splitSentences(text: string): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean === '') return [];
  // Lowercased corpora (such as the versions sample) have no capital to mark a sentence start.
  const caseless = !/\p{Lu}/u.test(clean);
  const sentences: string[] = [];
  let start = 0;
  BOUNDARY.lastIndex = 0;
  for (let match = BOUNDARY.exec(clean); match !== null; match = BOUNDARY.exec(clean)) {
    const end = match.index + match[0].length - (match[1]?.length ?? 0);
    const next = clean.slice(BOUNDARY.lastIndex);
    if (!isBoundary(clean.slice(start, end), match[0].trim(), next, caseless)) continue;
    sentences.push(clean.slice(start, end));
    start = BOUNDARY.lastIndex;
  }
  if (start < clean.length) sentences.push(clean.slice(start));
  return sentences;
}

function isBoundary(sentence: string, terminator: string, next: string, caseless: boolean): boolean {
  const nextWord = /^[\p{Pi}\p{Ps}"'“‘([«]*([\p{L}\p{N}][\p{L}\p{N}'’-]*)/u.exec(next)?.[1] ?? '';
  if (nextWord === '') return false;
  const first = nextWord[0] as string;
  const startsLikeSentence = caseless || /[\p{Lu}\p{N}]/u.test(first);
  if (!startsLikeSentence) return false;
  if (!terminator.startsWith('.') || terminator.startsWith('..')) return true;
  // The word before the period is all that is read: matched at the end of the whole sentence, a paragraph with no boundary cost the square of its length.
  const before = /([\p{L}.]+)\.[^\p{L}]*$/u.exec(sentence.slice(-WORD_BEFORE_PERIOD))?.[1] ?? '';
  const token = before.toLowerCase();
  // A unit symbol right after a number ("23.0 C.", "300 ft.", "5°C.") is no initial nor abbreviation of what follows: a boundary before a capital.
  if (UNIT_SYMBOLS.has(token) && UNIT_AFTER_NUMBER.test(sentence.slice(-WORD_BEFORE_PERIOD)) && /\p{Lu}/u.test(first)) return true;
  if (PREFIX_ABBREVIATIONS.has(token)) return false;
  const ambiguous =
    SUFFIX_ABBREVIATIONS.has(token) ||
    /^\p{L}$/u.test(before) || // an initial: J. R. R. Tolkien
    /^(?:\p{L}\.)+\p{L}$/u.test(before); // a dotted acronym: U.S., U.N.
  return !ambiguous || SENTENCE_OPENERS.has(nextWord.toLowerCase());
}

function escapeClass(chars: string): string {
  return chars.replace(/[\]\\^-]/g, '\\$&');
}

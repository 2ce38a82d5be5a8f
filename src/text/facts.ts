/**
 * The facts of a sentence that an update changes while the rest of the wording stays (docs/ARCHITECTURE.md §7.3):
 * numbers however written ("three", "3", "second", "a dozen", "$4.5 million"), what a number counts or
 * measures ("5 kilometres" / "5 miles"), month and day names, names of people, organisations and
 * places, negations and comparison words ("longest" / "second longest", "not"). Embedders barely
 * see these, so the labeler's similarity rules and the heuristic NLI require them equal before
 * calling two sentences the same statement. The parsing is compromise's (number words, ordinals,
 * named-entity tags), not lists of our own; the digits and capitalised words of src/text/tokens.ts
 * are kept as facts too, so nothing the earlier rule saw is lost.
 */
import { createRequire } from 'node:module';
import type nlpType from 'compromise';
import { z } from 'zod';
import { contentTokens } from './tokens.js';

/**
 * compromise's one-file CommonJS build, loaded on the first sentence parsed: its ES module build is
 * hundreds of files, which every command would pay for at start-up through the labeler's imports.
 */
let nlp: typeof nlpType | undefined;
function compromise(): typeof nlpType {
  nlp ??= createRequire(import.meta.url)('compromise') as typeof nlpType;
  return nlp;
}

export const FactSchema = z.object({
  kind: z.enum(['number', 'ordinal', 'unit', 'date', 'person', 'organisation', 'place', 'name', 'negation', 'comparison']),
  /** Normalised value: "3", "kilometres", "dana holt", "not", "longest". */
  value: z.string(),
});
export type Fact = z.infer<typeof FactSchema>;

/**
 * Reads sentences' facts elsewhere (src/models/workerEmbedder.ts: the embedding threads), so that
 * compromise's parse, the labeler's heaviest work after the embedder, runs on other cores.
 */
export interface FactReader {
  readFacts(texts: readonly string[]): Promise<Fact[][]>;
}

/** Quantity words compromise reads as plain nouns; their value is what they count. */
const QUANTITY_NOUNS: Readonly<Record<string, number>> = { dozen: 12, dozens: 12, hundreds: 100, thousands: 1000, millions: 1e6 };
/** Quantifiers and comparison adverbs compromise tags as adverbs, not as comparatives. */
const COMPARISON_WORDS = /^(more|most|less|least|fewer|fewest|only|over|under|nearly|almost|approximately|about|around|exactly|at least|at most)$/;

/** What the comparisons read of one sentence: its facts, and its content words (for the allowance on names). */
interface SentenceFacts {
  facts: readonly Fact[];
  words: ReadonlySet<string>;
}

/**
 * Sentences recur across articles and months, and a labeler compares one sentence with several:
 * each text is parsed (a few ms with compromise) and tokenised once, not once per comparison.
 */
const cache = new Map<string, SentenceFacts>();
const CACHE_LIMIT = 50_000;

function sentenceFacts(text: string): SentenceFacts {
  return cache.get(text) ?? remember(text, parseFacts(text));
}

/**
 * One spelling for the forms of a word that compromise and the tokens would read apart, so that a
 * copy-edit of spelling changes no fact: the prefix "non" joined or hyphenated ("non-profit" read a
 * negation "non", "nonprofit" none: both are now read hyphenated, so "non-stop" / "stop" still
 * differ), a hyphenated "-most" suffix ("northern-most" read a comparison "most") and an
 * initialism's points ("U.S." / "US").
 *
 * @example oneSpelling('The U.S. nonprofit in the northern-most state') === 'The US non-profit in the northernmost state'
 */
export function oneSpelling(text: string): string {
  return text
    .replace(/\b(non)(?!e)(?=\p{L}{3,})/giu, '$1-')
    .replace(/(?<=\p{L})-(most)\b/giu, '$1')
    .replace(/\b(?:\p{Lu}\.){2,}/gu, (initialism) => initialism.replaceAll('.', ''));
}

function remember(text: string, facts: readonly Fact[]): SentenceFacts {
  const read = { facts, words: new Set(contentTokens(oneSpelling(text)).map((token) => token.norm)) };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, read);
  return read;
}

/** The texts, once each, whose facts this process has not read yet. */
export function unreadFacts(texts: readonly string[]): string[] {
  return [...new Set(texts)].filter((text) => !cache.has(text));
}

/** Facts read elsewhere (by parseFacts in a worker thread), kept as if read here. */
export function rememberFacts(texts: readonly string[], facts: ReadonlyArray<readonly Fact[]>): void {
  if (facts.length !== texts.length) throw new Error(`facts of ${facts.length} texts given for ${texts.length}`);
  texts.forEach((text, k) => remember(text, facts[k] as readonly Fact[]));
}

export function factsOf(text: string): readonly Fact[] {
  return sentenceFacts(text).facts;
}

/** Drops every parsed sentence: a benchmark's runs each start as a fresh process would. */
export function forgetFacts(): void {
  cache.clear();
}

/** A sentence's facts, read by compromise: pure, so a worker thread can read them for the labeling thread. */
export function parseFacts(original: string): Fact[] {
  const text = oneSpelling(original);
  // compromise reads no number after a currency code glued to its sign ("US$8 billion" gave 1e9).
  const doc = compromise()(text.replace(/\b([A-Z]{1,3})\$(?=\d)/g, '$1 $'));
  const facts: Fact[] = [];
  // A possessive is its name: "Germany's" is the place "germany", not "germany s".
  const clean = (value: string) => value.toLowerCase().replace(/['’]s\b/gu, '').replace(/[^\p{L}\p{N}.%$€£ -]+/gu, ' ').replace(/[.\s]+$/u, '').replace(/\s+/g, ' ').trim();
  for (const number of doc.numbers().json() as Array<{ number?: { num?: number }; terms?: Array<{ tags?: string[] }> }>) {
    if (typeof number.number?.num !== 'number') continue;
    const ordinal = number.terms?.some((term) => term.tags?.includes('Ordinal')) ?? false;
    facts.push({ kind: ordinal ? 'ordinal' : 'number', value: String(number.number.num) });
  }
  // What a number counts or measures: the noun right after it (adjectives allowed in between).
  for (const unit of doc.match('#Value+ #Adjective{0,2} [#Noun]', 0).out('array') as string[]) facts.push({ kind: 'unit', value: clean(unit) });
  for (const term of doc.terms().json() as Array<{ terms: Array<{ normal: string; tags: string[]; implicit?: string }> }>) {
    const word = term.terms[0];
    if (!word) continue;
    const normal = word.normal;
    if (normal in QUANTITY_NOUNS) facts.push({ kind: 'number', value: String(QUANTITY_NOUNS[normal]) });
    if (word.tags.includes('Month') || word.tags.includes('WeekDay')) facts.push({ kind: 'date', value: normal });
    // A contraction's negation has no text of its own: compromise gives "didn't" an empty term whose implicit word is "not".
    if (word.tags.includes('Negative')) facts.push({ kind: 'negation', value: normal === "n't" || normal === '' ? (word.implicit ?? 'not') : normal });
    if (word.tags.includes('Comparative') || word.tags.includes('Superlative') || COMPARISON_WORDS.test(normal)) facts.push({ kind: 'comparison', value: normal });
  }
  for (const person of doc.people().out('array') as string[]) facts.push({ kind: 'person', value: clean(person) });
  for (const organisation of doc.organizations().out('array') as string[]) facts.push({ kind: 'organisation', value: clean(organisation) });
  for (const place of doc.places().out('array') as string[]) facts.push({ kind: 'place', value: clean(place) });
  // The earlier model-free rule's specifics: any token with a digit, any capitalised word past the
  // first. A digit token compromise already read as the same number is not counted twice: "3" would
  // otherwise weigh two facts and "three" one, and the two wordings differ.
  const read = new Map<string, number>();
  for (const fact of facts) if (fact.kind === 'number' || fact.kind === 'ordinal') read.set(fact.value, (read.get(fact.value) ?? 0) + 1);
  for (const token of contentTokens(text)) {
    if (token.kind === 'number') {
      const unclaimed = read.get(token.norm) ?? 0;
      if (unclaimed > 0) read.set(token.norm, unclaimed - 1);
      else facts.push({ kind: 'number', value: token.norm });
    } else if (token.kind === 'name') facts.push({ kind: 'name', value: token.norm });
  }
  return facts;
}

function keyOf(fact: Fact): string {
  return `${fact.kind}:${fact.value}`;
}

export interface FactDifference {
  /** Facts of the old text the new one lacks, and the other way round. */
  onlyOld: string[];
  onlyNew: string[];
}

/**
 * The facts of the old sentences (read one by one, so spans compare too) that the new ones lack,
 * and the other way round, as multisets, with two allowances: a unit compares only with a unit (a
 * count that gains its noun, "1,250" → "1,250 people", changes nothing), and a capitalised word
 * still present in the other text, wherever it stands, is no missing name ("Northern Trains
 * operates the line").
 */
export function factDifference(oldText: string | readonly string[], newText: string | readonly string[]): FactDifference {
  const olds = (typeof oldText === 'string' ? [oldText] : oldText).map(sentenceFacts);
  const news = (typeof newText === 'string' ? [newText] : newText).map(sentenceFacts);
  const oldFacts = olds.flatMap((sentence) => sentence.facts);
  const newFacts = news.flatMap((sentence) => sentence.facts);
  const unitsOnBoth = oldFacts.some((fact) => fact.kind === 'unit') && newFacts.some((fact) => fact.kind === 'unit');
  // A span's words are its sentences' words: a word never runs across the space that joins them.
  const holds = (sentences: SentenceFacts[], word: string) => sentences.some((sentence) => sentence.words.has(word));
  const counted = (facts: Fact[], other: SentenceFacts[]) =>
    facts.filter((fact) => (fact.kind !== 'unit' || unitsOnBoth) && !(fact.kind === 'name' && holds(other, fact.value))).map(keyOf);
  const remaining = new Map<string, number>();
  for (const key of counted(oldFacts, news)) remaining.set(key, (remaining.get(key) ?? 0) + 1);
  const onlyNew: string[] = [];
  for (const key of counted(newFacts, olds)) {
    const left = remaining.get(key) ?? 0;
    if (left > 0) remaining.set(key, left - 1);
    else onlyNew.push(key);
  }
  const onlyOld = [...remaining].filter(([, count]) => count > 0).map(([key]) => key);
  return { onlyOld: [...new Set(onlyOld)].sort(), onlyNew: [...new Set(onlyNew)].sort() };
}

export function sameFacts(old: string | readonly string[], updated: string | readonly string[]): boolean {
  const difference = factDifference(old, updated);
  return difference.onlyOld.length === 0 && difference.onlyNew.length === 0;
}

/** The words of the facts that differ ("dana", "holt", "victor", "lam"): what a changed fact replaced, set aside when the rest of two wordings is compared. */
export function differingFactWords(difference: FactDifference): Set<string> {
  return new Set([...difference.onlyOld, ...difference.onlyNew].flatMap((key) => key.slice(key.indexOf(':') + 1).split(' ')));
}

/** "number:3 → number:4; person:dana holt → person:victor lam", for a label's evidence; "" when equal. */
export function describeFactDifference(difference: FactDifference): string {
  if (difference.onlyOld.length === 0 && difference.onlyNew.length === 0) return '';
  return `facts differ: ${difference.onlyOld.join(', ') || '(none)'} → ${difference.onlyNew.join(', ') || '(none)'}`;
}

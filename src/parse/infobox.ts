/**
 * Infobox extraction without a full wtf_wikipedia parse of the article (about 46 revisions/s):
 * the infobox templates are found in the raw text with a balanced `{{ }}` scan, their
 * parameters are split here (so keys, order, duplicates and empty values follow MediaWiki),
 * and only the parameter values are rendered to text by wtf, all values of one infobox in one call.
 */
import { boundedMemo } from '../boundedMemo.js';
import type { Infobox } from '../model.js';
import { parseWithWtf, templateDepth } from '../text/wtf.js';
import { drawsFromWikidata, linkAliases } from './infoboxExtras.js';
import type { RecentResults } from './recentResults.js';

// ---------------------------------------------------------------------------------------------
// Which templates are infoboxes: what wtf_wikipedia 10 recognises (src/infobox/_infoboxes.js,
// src/_data/infoboxes.js, src/template/parse/_infobox.js), copied because the package does not
// export them, plus chembox (listed by wtf with a stray trailing space, so never matched), its
// section templates (`Chembox Identifiers`, … hold the compound's data) and drugbox.

const KNOWN_INFOBOXES = new Set([
  'gnf protein box', 'automatic taxobox', 'chembox', 'drugbox', 'editnotice', 'geobox', 'hybridbox',
  'ichnobox', 'infraspeciesbox', 'mycomorphbox', 'oobox', 'paraphyletic group', 'speciesbox',
  'subspeciesbox', 'starbox short', 'taxobox', 'nhlteamseason', 'asian games bid',
  'canadian federal election results', 'dc thomson comic strip', 'daytona 24 races', 'edencharacter',
  'moldova national football team results', 'samurai', 'protein', 'sheet authority', 'order-of-approx',
  'bacterial labs', 'medical resources', 'ordination', 'hockey team coach', 'hockey team gm',
  'pro hockey team', 'hockey team player', 'hockey team start', 'mlbbioret',
]);

/** Localised names of "infobox" that wtf accepts as a name prefix. */
const LOCALISED_INFOBOX_PREFIXES = [
  'infobox', 'amatl', 'anfo', 'anuāmapa', 'bilgi kutusu', 'bilgi', 'bilgiquti', 'boaty fampahalalana',
  'boaty', 'boestkelaouiñ', 'bosca', 'capsa', 'diehtokássa', 'faktamall', 'ficha', 'generalni',
  'gwybodlen3', 'hộp thông tin', 'info', 'infoboesse 2', 'infobokis', 'infoboks', 'infochascha',
  'infokašćik', 'infokast', 'infokutija', 'infolentelė', 'infookvir', 'infopolje', 'informkesto',
  'infoschede', 'infoskreine', 'infotaula', 'inligtingskas', 'inligtingskas3', 'inligtingskas4',
  'kishtey fys', 'kotak info', 'kotak', 'məlumat qutusu', 'simple box', 'tertcita tanxe', 'tertcita',
  'tiätuloová', 'tietolaatikko', 'wd bosca sonraí', 'yerleşim bilgi kutusu', 'ynfoboks generyk',
  'ynfoboks', 'πλαίσιο πληροφοριών', 'πλαίσιο', 'акарточка', 'аҥа', 'инфобокс', 'инфокутија',
  'инфокутия', 'інфобокс', 'канадский', 'картка', 'карточка', 'карточка2', 'карточкарус', 'картуш',
  'қуттӣ', 'ინფოდაფა', 'տեղեկաքարտ', 'תבנית', 'بطاقة', 'ڄاڻخانو', 'خانہ', 'لغة', 'معلوٗمات ڈَبہٕ',
  'ज्ञानसन्दूक', 'তথ্যছক', 'ਜਾਣਕਾਰੀਡੱਬਾ', 'సమాచారపెట్టె', 'තොරතුරුකොටුව', 'กล่องข้อมูล', 'ກ່ອງຂໍ້ມູນ',
  'ប្រអប់ព័ត៌មាន', '정보상자', '明細',
];
const LOCALISED_INFOBOX = new RegExp(`^(?:${LOCALISED_INFOBOX_PREFIXES.join('|')})(?=:| |$)`);
const INFOBOX_SUFFIX = / infobox$/;
const CHEMBOX_SECTION = /^chembox /;
/** wtf treats "Year in Belarus"-style boxes as infoboxes too. */
const YEAR_IN_PLACE = /^year in \S/;

/** How many template names each memo below keeps: an article's templates are mostly the same few (citations). */
const NAMES_KEPT = 10_000;

function looksLikeInfobox(name: string): boolean {
  return (
    KNOWN_INFOBOXES.has(name) ||
    LOCALISED_INFOBOX.test(name) ||
    INFOBOX_SUFFIX.test(name) ||
    CHEMBOX_SECTION.test(name) ||
    YEAR_IN_PLACE.test(name)
  );
}

/** Names judged once each: the localised names make a long pattern. */
const isInfoboxName = boundedMemo(looksLikeInfobox, NAMES_KEPT);

/**
 * A template name as an infobox is stored under: its normalised name without the word "infobox"
 * before it. Also reads the template a user asks for (`answer --template`) the same way.
 *
 * @example infoboxTemplateName('Template:Infobox_File format') === 'file format'
 */
export function infoboxTemplateName(raw: string): string {
  return storedTemplateName(normaliseTemplateName(raw));
}

function storedTemplateName(normalisedName: string): string {
  return normalisedName.replace(/^infobox /, '');
}

/** Lowercase, underscores as spaces, collapsed whitespace, without `subst:`/`Template:` prefixes. */
function normaliseTemplateName(raw: string): string {
  // Runs for every template of an article, hence the cheap tests before each rewrite.
  let name = raw.toLowerCase();
  if (/[_\s]/.test(name)) name = name.replace(/[_\s]+/g, ' ').trim();
  return name.includes(':') ? name.replace(/^(?:safesubst|subst|template):\s*/, '') : name;
}

/**
 * An infobox parameter name as infoboxes are stored: trimmed, lowercase, runs of spaces, hyphens and
 * underscores as one `_`. Also reads the key a user asks for (`answer --key`) the same way.
 *
 * @example normaliseKey('League result') === 'league_result'
 */
export function normaliseKey(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/_+/g, '_');
}

// ---------------------------------------------------------------------------------------------
// Text that must not be read as markup. Control characters stand in for literal characters
// (from <nowiki>, <pre> and {{!}}) and for list-item boundaries: wtf keeps them untouched
// (it drops private-use characters), and wikitext never needs them, so input copies are removed.

const LITERALS = ['{', '}', '[', ']', '|', '<', '>', "'", '&', '='] as const;
const MASK_OF = new Map<string, string>(LITERALS.map((c, i) => [c, String.fromCharCode(0x10 + i)]));
const LITERAL_OF = new Map<string, string>(LITERALS.map((c, i) => [String.fromCharCode(0x10 + i), c]));
const MASKED_CHAR = /[\u0010-\u0019]/g;
const MASKABLE_CHAR = /[{}[\]|<>'&=]/g;
/** Separates the items of a list (list templates, bullets, `<br>`) until they are joined with ", ". */
const ITEM_BREAK = '\u001e';
const RESERVED_CHARS = /[\u0010-\u001e]/g;

/** Text that wtf must show as it is, not read as markup; `toCleanText` turns it back. */
export function maskLiterals(text: string): string {
  return text.replace(MASKABLE_CHAR, (c) => MASK_OF.get(c) ?? c);
}

function unmaskLiterals(text: string): string {
  return text.replace(MASKED_CHAR, (c) => LITERAL_OF.get(c) ?? c);
}

/**
 * Removes `<ref/>`, `<ref>…</ref>` and `<references/>`. A `<ref>` never closed loses the rest of
 * its line, where citations almost always end, rather than swallowing the next parameters.
 */
function removeReferences(text: string): string {
  if (!/<\/?ref/i.test(text)) return text;
  return text
    .replace(/<ref\b[^>]*\/>/gi, '')
    .replace(/<ref\b[^>]*>(?:(?!<ref\b)[\s\S])*?<\/ref\s*>/gi, '')
    .replace(/<ref\b[^>]*>[^\n]*/gi, '')
    .replace(/<\/ref\s*>|<references\b[^>]*\/?>/gi, '');
}

// ---------------------------------------------------------------------------------------------
// Template scanning.

/** A template's place in the text: where it starts and ends, and its name. */
export interface TemplateSpan {
  start: number;
  /** Index just past the template's closing `}}` (or where an unclosed infobox is taken to end). */
  end: number;
  /** Index where the template's own text ends, before its closing `}}` if it has one. */
  innerEnd: number;
  name: string;
}

const OPAQUE_OPENING = /<!--|<(?:nowiki|pre)\b[^>]*>/gi;
const OPAQUE_OPENER = /<!--|<(?:nowiki|pre)\b[^>]*>/iy;

/** The comment, <nowiki> or <pre> opener at `at`, or null. */
function opaqueOpenerAt(text: string, at: number): string | null {
  // Most `<` open other tags (<ref>, <br>): the character after it rules them out without the regex.
  const next = text.charCodeAt(at + 1);
  if (next !== 0x21 && (next | 0x20) !== 0x6e && (next | 0x20) !== 0x70) return null;
  OPAQUE_OPENER.lastIndex = at;
  return OPAQUE_OPENER.exec(text)?.[0] ?? null;
}

/** The first comment, <nowiki> or <pre> opener at or after `from`, or null: native searches from one `<` to the next (a regex search for the openers costs more). */
function nextOpaqueOpener(text: string, from: number): { index: number; token: string } | null {
  for (let index = text.indexOf('<', from); index !== -1; index = text.indexOf('<', index + 1)) {
    const token = opaqueOpenerAt(text, index);
    if (token !== null) return { index, token };
  }
  return null;
}

const CLOSING_TAG: Readonly<Record<string, RegExp>> = { nowiki: /<\/nowiki\s*>/gi, pre: /<\/pre\s*>/gi };
/** A comment, or an unclosed one, which hides the rest of the text. */
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

/** Raw template names normalised once each: an article repeats a few (citations) hundreds of times. */
const normalisedName = boundedMemo((raw: string) => normaliseTemplateName(raw.includes('<!--') ? raw.replace(COMMENT, '') : raw), NAMES_KEPT);

/** The name of the template opened by the `{{` at `start`: its text up to the first `{`, `}`, `|` or newline. */
function templateNameAt(text: string, start: number): string {
  let end = start + 2;
  for (let c = text.charCodeAt(end); end < text.length && c !== 0x7b && c !== 0x7d && c !== 0x7c && c !== 0x0a; c = text.charCodeAt(++end));
  return normalisedName(text.slice(start + 2, end));
}

interface OpaqueRegion {
  /** Where the content starts (after the opening tag) and ends (before the closing one). */
  contentStart: number;
  contentEnd: number;
  /** Index just past the region; the opening token's end when the tag is unclosed (then literal text, as in MediaWiki). */
  end: number;
  kind: 'comment' | 'literal' | 'unclosed tag' | 'empty tag';
}

/**
 * A finder of the regions opened by comment, <nowiki> and <pre> tokens, in which nothing is
 * markup. It remembers from where a tag has no closing tag, so that many unclosed tags cost one
 * search and not one each.
 */
function opaqueRegionFinder(text: string): (token: string, index: number) => OpaqueRegion {
  const unclosedFrom = new Map<string, number>();
  return (token, index) => {
    const afterToken = index + token.length;
    if (token === '<!--') {
      const close = text.indexOf('-->', afterToken);
      const contentEnd = close === -1 ? text.length : close;
      return { contentStart: afterToken, contentEnd, end: close === -1 ? text.length : close + 3, kind: 'comment' };
    }
    const unclosed: OpaqueRegion = { contentStart: afterToken, contentEnd: afterToken, end: afterToken, kind: 'unclosed tag' };
    if (token.endsWith('/>')) return { ...unclosed, kind: 'empty tag' };
    const tag = token.slice(1, 4).toLowerCase() === 'pre' ? 'pre' : 'nowiki';
    const closing = CLOSING_TAG[tag];
    if (closing === undefined || afterToken >= (unclosedFrom.get(tag) ?? Infinity)) return unclosed;
    closing.lastIndex = afterToken;
    const close = closing.exec(text);
    if (close === null) {
      unclosedFrom.set(tag, afterToken);
      return unclosed;
    }
    return { contentStart: afterToken, contentEnd: close.index, end: closing.lastIndex, kind: 'literal' };
  };
}

/** Removes comments and turns the content of <nowiki> and <pre> into literal characters. */
export function hideNonMarkup(wikitext: string): string {
  const text = wikitext.replace(RESERVED_CHARS, '');
  const regionAt = opaqueRegionFinder(text);
  let hidden = '';
  let copiedUpTo = 0;
  OPAQUE_OPENING.lastIndex = 0;
  for (let token = OPAQUE_OPENING.exec(text); token !== null; token = OPAQUE_OPENING.exec(text)) {
    const region = regionAt(token[0], token.index);
    if (region.kind === 'unclosed tag') continue;
    hidden += text.slice(copiedUpTo, token.index);
    if (region.kind === 'literal') hidden += maskLiterals(text.slice(region.contentStart, region.contentEnd));
    copiedUpTo = region.end;
    OPAQUE_OPENING.lastIndex = region.end;
  }
  return hidden + text.slice(copiedUpTo);
}

const HEADING_LINE = /\n=[^\n]*=[ \t]*(?:\n|$)/;
/** A line starting with `}}` that is not followed by a `|` parameter line (those close nested templates). */
const CLOSING_LINE = /\n[ \t]*\}\}(?![^\n]*\n[ \t]*\|)/;

/**
 * Where an infobox whose `}}` is missing (or taken by an unclosed template inside it) most likely
 * ends, before `limit`: at its closing line, else at the next heading, else at `limit`.
 */
function likelyInfoboxEnd(text: string, start: number, limit: number): { end: number; innerEnd: number } {
  const region = text.slice(start, limit);
  const headingAt = region.search(HEADING_LINE);
  const regionEnd = headingAt === -1 ? region.length : headingAt;
  const closing = CLOSING_LINE.exec(region);
  if (closing !== null && closing.index + closing[0].length <= regionEnd) {
    return { end: start + closing.index + closing[0].length, innerEnd: start + closing.index };
  }
  return { end: start + regionEnd, innerEnd: start + regionEnd };
}

/**
 * Every template of the text at any depth, by start, in one pass: each `}}` closes the innermost
 * open `{{`, so an unclosed `{{` (literal text in MediaWiki) takes no `}}` from the templates
 * around it. Comments, <nowiki> and <pre> are skipped. Unclosed infoboxes are kept (they are
 * what we came for), ending where `likelyInfoboxEnd` says.
 */
export function templateSpans(text: string): TemplateSpan[] {
  // Each template's span takes its place when it opens, so spans come in order of their start.
  const spans: Array<TemplateSpan | null> = [];
  const positions: number[] = [];
  /** The spans (by index) of the templates open at this point, innermost last. */
  const openAt: number[] = [];
  const regionAt = opaqueRegionFinder(text);
  // The tokens /\{\{|\}\}|<!--|<(?:nowiki|pre)\b[^>]*>/gi finds, in order, found by native
  // searches for each kind (that regex, trying its alternatives at every character, was a fifth
  // of the extraction): the nearest of `{{`, `}}` and a comment, <nowiki> or <pre> opener, each
  // searched again only once passed.
  let at = 0;
  let open = text.indexOf('{{');
  let close = text.indexOf('}}');
  let opaque = nextOpaqueOpener(text, 0);
  for (;;) {
    if (open !== -1 && open < at) open = text.indexOf('{{', at);
    if (close !== -1 && close < at) close = text.indexOf('}}', at);
    if (opaque !== null && opaque.index < at) opaque = nextOpaqueOpener(text, at);
    const angle = opaque === null ? -1 : opaque.index;
    const next = Math.min(open === -1 ? Infinity : open, close === -1 ? Infinity : close, angle === -1 ? Infinity : angle);
    if (next === Infinity) break;
    if (next === open) {
      openAt.push(spans.length);
      spans.push(null);
      positions.push(open);
      at = open + 2;
    } else if (next === close) {
      const opened = openAt.pop();
      if (opened !== undefined) {
        const start = positions[opened] as number;
        spans[opened] = { start, end: close + 2, innerEnd: close, name: templateNameAt(text, start) };
      }
      at = close + 2;
    } else if (opaque !== null) {
      at = regionAt(opaque.token, opaque.index).end;
    }
  }
  // An unclosed infobox ends at the latest where the next one starts: this bounds the work on
  // text full of them to one pass.
  const unclosedInfoboxes = openAt
    .map((opened) => ({ opened, start: positions[opened] as number, name: templateNameAt(text, positions[opened] as number) }))
    .filter((unclosed) => isInfoboxName(unclosed.name));
  unclosedInfoboxes.forEach(({ opened, start, name }, i) => {
    spans[opened] = { start, ...likelyInfoboxEnd(text, start, unclosedInfoboxes[i + 1]?.start ?? text.length), name };
  });
  return spans.filter((span) => span !== null);
}

/** The templates of the text that are not inside another one. */
export function outermostTemplates(text: string): TemplateSpan[] {
  const outermost: TemplateSpan[] = [];
  let coveredUpTo = 0;
  for (const span of templateSpans(text)) {
    if (span.start < coveredUpTo) continue;
    outermost.push(span);
    coveredUpTo = span.end;
  }
  return outermost;
}

interface TemplatePart {
  text: string;
  /** Index in `text` of the first `=` outside nested templates and links, -1 when none. */
  equalsAt: number;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const PIPE = 0x7c;
const EQUALS = 0x3d;
const NEWLINE = 0x0a;

/**
 * Splits a template's text (without its outer braces) at the `|` that are not inside nested
 * templates or links. Links cannot span lines, so a newline closes them. With `linesEndNesting`,
 * a line starting with `|` also closes nested templates: the recovery used when a nested template
 * never closes, so that the parameters after it are not all swallowed into one value.
 */
function splitTemplateParts(inner: string, linesEndNesting = false): { parts: TemplatePart[]; balanced: boolean } {
  const parts: TemplatePart[] = [];
  let braceDepth = 0;
  let linkDepth = 0;
  let partStart = 0;
  let equalsAt = -1;
  // The tokens `{{`, `}}`, `[[`, `]]`, `|`, `=` and newline, left to right, read character by
  // character: a regex match per token (every parameter has three) cost more than the reading.
  for (let at = 0; at < inner.length; at++) {
    const c = inner.charCodeAt(at);
    if (c === OPEN_BRACE || c === CLOSE_BRACE || c === OPEN_BRACKET || c === CLOSE_BRACKET) {
      if (inner.charCodeAt(at + 1) !== c) continue;
      if (c === OPEN_BRACE) braceDepth += 1;
      else if (c === CLOSE_BRACE) braceDepth = Math.max(0, braceDepth - 1);
      else if (c === OPEN_BRACKET) linkDepth += 1;
      else linkDepth = Math.max(0, linkDepth - 1);
      at++;
    } else if (c === NEWLINE) {
      linkDepth = 0;
      if (linesEndNesting && /^[ \t]*\|/.test(inner.slice(at + 1, at + 80))) braceDepth = 0;
    } else if (c === EQUALS) {
      if (braceDepth === 0 && linkDepth === 0 && equalsAt === -1) equalsAt = at - partStart;
    } else if (c === PIPE && braceDepth === 0 && linkDepth === 0) {
      parts.push({ text: inner.slice(partStart, at), equalsAt });
      partStart = at + 1;
      equalsAt = -1;
    }
  }
  parts.push({ text: inner.slice(partStart), equalsAt });
  return { parts, balanced: braceDepth === 0 };
}

function templateParts(inner: string): TemplatePart[] {
  const strict = splitTemplateParts(inner);
  return strict.balanced ? strict.parts : splitTemplateParts(inner, true).parts;
}

// ---------------------------------------------------------------------------------------------
// Values: prepared here (lists, line breaks, literals), rendered by wtf, finished here.

/**
 * Templates whose unnamed parameters (and `title`, the visible head of a collapsible list) are
 * list items; wtf joins some with " · " or blank lines, some with nothing.
 */
const LIST_TEMPLATES = new Set([
  'hlist', 'flatlist', 'plainlist', 'plain list', 'ubl', 'ublist', 'ubt', 'unbullet', 'unbulleted',
  'unbulleted list', 'unbulletedlist', 'nblist', 'nonbulleted list', 'vunblist', 'bulleted list',
  'bulleted', 'blist', 'bullet list', 'collapsible list', 'flowlist', 'comma separated entries',
  'br separated entries', 'columns-list', 'cmn', 'col-list',
]);

/** Replaces list templates, at any depth, by their items separated with ITEM_BREAK. */
function expandListTemplates(text: string): string {
  let expanded = '';
  let copiedUpTo = 0;
  for (const span of outermostTemplates(text)) {
    const inner = text.slice(span.start + 2, span.innerEnd);
    expanded += text.slice(copiedUpTo, span.start);
    if (LIST_TEMPLATES.has(span.name)) {
      const items = templateParts(inner)
        .slice(1)
        .filter((part) => part.equalsAt === -1 || /^\s*(?:\d+|title)\s*$/.test(part.text.slice(0, part.equalsAt)))
        .map((part) => expandListTemplates(part.equalsAt === -1 ? part.text : part.text.slice(part.equalsAt + 1)));
      expanded += items.join(ITEM_BREAK);
    } else {
      expanded += `{{${expandListTemplates(inner)}${text.slice(span.innerEnd, span.end)}`;
    }
    copiedUpTo = span.end;
  }
  return expanded + text.slice(copiedUpTo);
}

/** Templates that stand for markup characters (`{{!}}` is a literal `|`): their output must stay text. */
const LITERAL_OF_TEMPLATE: Readonly<Record<string, string>> = {
  '!': '|', '=': '=', '((': '{{', '))': '}}', '!((': '[[', '))!': ']]', '(': '{', ')': '}', '(!': '{|', '!)': '|}',
};
const LITERAL_TEMPLATE = /\{\{\s*(!\(\(|\)\)!|\(\(|\)\)|\(!|!\)|!|=|\(|\))\s*\}\}/g;

const FILE_LINK_OPENING =
  /\[\[\s*(?:file|image|datei|bild|fichier|archivo|imagen|immagine|ficheiro|plik|файл|изображение|文件|檔案|ファイル|画像)\s*:/gi;
const LINK_BRACKETS = /\[\[|\]\]/g;

/** Index just past the `]]` closing the `[[` at `start`, or -1. */
function closingBracketsEnd(text: string, start: number): number {
  LINK_BRACKETS.lastIndex = start;
  let depth = 0;
  for (let bracket = LINK_BRACKETS.exec(text); bracket !== null; bracket = LINK_BRACKETS.exec(text)) {
    depth += bracket[0] === '[[' ? 1 : -1;
    if (depth === 0) return LINK_BRACKETS.lastIndex;
  }
  return -1;
}

/**
 * Removes `[[File:…]]` links (images, audio), whose captions may hold links of their own:
 * wtf renders them as text inside infobox values.
 */
function removeFileLinks(text: string): string {
  let kept = '';
  let copiedUpTo = 0;
  FILE_LINK_OPENING.lastIndex = 0;
  for (let opening = FILE_LINK_OPENING.exec(text); opening !== null; opening = FILE_LINK_OPENING.exec(text)) {
    const end = closingBracketsEnd(text, opening.index);
    // The value will not balance and will be kept as literal text: the rest need not be searched.
    if (end === -1) break;
    kept += text.slice(copiedUpTo, opening.index);
    copiedUpTo = end;
    FILE_LINK_OPENING.lastIndex = end;
  }
  return kept + text.slice(copiedUpTo);
}

function countOf(text: string, token: string): number {
  let count = 0;
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + token.length)) count++;
  return count;
}

/**
 * Real values nest a handful of templates; a value nested deeper (vandalism, a test) is kept as
 * literal text, because rendering nested templates costs wtf the square of their depth. Lower than
 * the depth parseWithWtf refuses a whole text at (src/text/wtf.ts): a value past it is kept, not refused.
 */
const MAX_VALUE_TEMPLATE_DEPTH = 40;

const WBR_TAG = /<wbr\s*\/?>/gi;
const BR_TAG = /<\/?br\b[^>]*>/gi;
const LIST_MARK = /[*#:]/;
const LIST_ITEM_START = /^[ \t]*[*#:]+[ \t]*/gm;
const LINE_BREAK = /\s*\n\s*/g;

/**
 * A value ready to be one line of wtf input. One whose braces or link brackets do not balance
 * would make wtf read into the next values, so its markup is kept as literal text instead.
 */
function prepareValue(raw: string): string {
  if (templateDepth(raw) > MAX_VALUE_TEMPLATE_DEPTH) return maskLiterals(raw.replace(/\s+/g, ' ').trim());
  // Most values hold none of the markup each step rewrites: a search for its first characters costs less than the step.
  let value = raw;
  if (value.includes('{{')) {
    value = value.replace(LITERAL_TEMPLATE, (_whole, name: string) => maskLiterals(LITERAL_OF_TEMPLATE[name] ?? ''));
    if (value.includes('{{')) value = expandListTemplates(value);
  }
  if (value.includes('[[')) value = removeFileLinks(value);
  if (value.includes('<')) value = value.replace(WBR_TAG, '').replace(BR_TAG, ITEM_BREAK);
  if (LIST_MARK.test(value)) value = value.replace(LIST_ITEM_START, ITEM_BREAK);
  if (value.includes('\n')) value = value.replace(LINE_BREAK, ' ');
  value = value.trim();
  const balanced =
    countOf(value, '{') === countOf(value, '}') && countOf(value, '[[') === countOf(value, ']]');
  return balanced ? value : maskLiterals(value);
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', minus: '−',
  times: '×', thinsp: ' ', ensp: ' ', emsp: ' ', hellip: '…', deg: '°', middot: '·', lrm: '\u200e', rlm: '\u200f',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith('#')) {
      const codePoint = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

/**
 * Markup wtf leaves in its output: some templates given back as wikitext (e.g. `{{legend}}`), and
 * bold/italic quotes it could not pair (MediaWiki closes those at the end of the line).
 */
const MARKUP_LEFT_BY_WTF = /\{\{[^{}]*\}\}|'{2,}/g;

/** Zero-width space, direction marks, word joiner, byte-order mark, soft hyphen: invisible, and would make equal values differ. */
const INVISIBLE_CHARS = /[\u00ad\u200b\u200e\u200f\u2060\ufeff]/g;

/**
 * What `toCleanText` would change: markup, masked literals, item breaks, entities, invisible
 * characters, whitespace other than single spaces between words. Most values have none.
 */
const NEEDS_CLEANING = /[{}'&\u0010-\u0019\u001e\u00ad\u200b\u200e\u200f\u2060\ufeff]|[^\S ]| {2}|^ | $/;

/**
 * Text rendered by wtf to the text stored: list items joined with ", " (except a parenthesis on
 * its own line, `Name<br>(CEO)`, which qualifies the item before it), entities decoded,
 * whitespace collapsed.
 */
export function toCleanText(rendered: string): string {
  if (!NEEDS_CLEANING.test(rendered)) return rendered;
  return decodeEntities(unmaskLiterals(rendered.replace(MARKUP_LEFT_BY_WTF, '')))
    .replace(INVISIBLE_CHARS, '')
    .split(ITEM_BREAK)
    .map((item) => item.replace(/\s+/g, ' ').trim())
    .filter((item) => item !== '')
    .reduce((joined, item, i) => (i === 0 ? item : `${joined}${item.startsWith('(') ? ' ' : ', '}${item}`), '');
}

const SYNTHETIC_INFOBOX = 'wikidelta values';
const SYNTHETIC_KEY = 'wdk';
/** A synthetic key in rendered text: a template's output ran one value into the next. */
const SYNTHETIC_KEY_LEAK = new RegExp(`${SYNTHETIC_KEY}\\d+=`);

/** Characters that wtf could turn into something else; values without them are text already. */
const MARKUP = /[[\]{}<>'&~]|--|\u3002/;

/**
 * Text with plain links only (`[[Target]]`, `[[Target|label]]`, neither part blank, padded or
 * holding markup, the target no namespace or section), which wtf renders as their labels: most
 * values that need rendering at all are of this kind, and wtf costs most of the extraction.
 * Checked against wtf on every such value of the shared data (docs/SCALE.md).
 */
const PLAIN_LINKS_ONLY =
  /^(?:[^[\]{}<>'&~|\u0010-\u001d\u3002-]|-(?!-)|\[\[[^[\]{}<>'&~|#:\s](?:[^[\]{}<>'&~|#:\n]*[^[\]{}<>'&~|#:\s])?(?:\|[^[\]{}<>'&~|\s](?:[^[\]{}<>'&~|\n]*[^[\]{}<>'&~|\s])?)?\]\])*$/;
const PLAIN_LINK = /\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g;

/** A value as wtf would render it, when that takes no wtf: the value itself, or its plain links as their labels; else null. */
export function renderedWithoutWtf(value: string): string | null {
  if (!MARKUP.test(value)) return value;
  if (!PLAIN_LINKS_ONLY.test(value)) return null;
  return value.replace(PLAIN_LINK, (_link, target: string, label: string | undefined) => label ?? target);
}

/**
 * Renders prepared values with one wtf parse, as the parameters of a made-up infobox; null when a
 * value leaked into the next one (a template rendered to unbalanced brackets).
 */
function renderWithOneParse(prepared: readonly string[]): string[] | null {
  const withoutWtf = prepared.map(renderedWithoutWtf);
  const parameters = prepared.map((value, i) => (withoutWtf[i] === null ? `|${SYNTHETIC_KEY}${i}=${value}\n` : ''));
  const data = parameters.some((parameter) => parameter !== '')
    ? parseWithWtf(`{{Infobox ${SYNTHETIC_INFOBOX}\n${parameters.join('')}}}`)
        .infoboxes()
        .find((candidate) => candidate.type() === SYNTHETIC_INFOBOX)?.data
    : undefined;
  const rendered = prepared.map((_value, i) => withoutWtf[i] ?? data?.[`${SYNTHETIC_KEY}${i}`]?.text() ?? '');
  return rendered.some((text) => SYNTHETIC_KEY_LEAK.test(text)) ? null : rendered.map(toCleanText);
}

function renderAlone(value: string): string {
  try {
    return renderWithOneParse([value])?.[0] ?? '';
  } catch {
    return '';
  }
}

/** Renders values together, or one by one when the batch fails, so that one bad value costs only itself. */
function renderValues(prepared: readonly string[]): string[] {
  try {
    const rendered = renderWithOneParse(prepared);
    if (rendered !== null) return rendered;
  } catch {
    // fall through to one value at a time
  }
  return prepared.map(renderAlone);
}

// ---------------------------------------------------------------------------------------------

/**
 * The most one infobox value may hold. Real ones hold a few kilobytes; three 50 MB values
 * (vandalism, a broken bot) took 2.4 GB and minutes of wtf. A value over it is left out with its
 * key and named in `leftOut`; the rest of the infobox is parsed (the three 50 MB values: 1.8 s,
 * 200 MB, the revision's own text included).
 */
export const MAX_VALUE_CHARS = 64 << 10;

/** The infobox, or null for a `subbox`: a piece of its parent's layout, which wtf skips too. */
function parseInfobox(name: string, inner: string, leftOut: string[]): Infobox | null {
  const [, ...parameters] = templateParts(removeReferences(hideNonMarkup(inner)));
  const rawValues = new Map<string, string>();
  let unnamedIndex = 0;
  let valuesLeftOut = 0;
  for (const part of parameters) {
    const named = part.equalsAt !== -1;
    const key = named ? normaliseKey(part.text.slice(0, part.equalsAt)) : String(++unnamedIndex);
    // Blank unnamed parameters are stray pipes (`|}}`, `||`), not data; they still take a position.
    if (key === '' || (!named && part.text.trim() === '')) continue;
    const value = named ? part.text.slice(part.equalsAt + 1) : part.text;
    if (value.length > MAX_VALUE_CHARS) {
      leftOut.push(`value ${key} of template ${name}: ${value.length} characters, more than the ${MAX_VALUE_CHARS} a value may hold`);
      rawValues.delete(key);
      valuesLeftOut++;
      continue;
    }
    // Map.set keeps the first position of a repeated key and takes the last value, as MediaWiki does.
    rawValues.set(key, value);
  }
  if (rawValues.get('subbox')?.trim().toLowerCase() === 'yes') return null;
  const keys = [...rawValues.keys()];
  const rendered = renderValues([...rawValues.values()].map(prepareValue));
  const aliases = Object.fromEntries([...rawValues].flatMap(([key, raw], i) => {
    const targets = linkAliases(raw, rendered[i] ?? '');
    return targets.length > 0 ? [[key, targets]] : [];
  }));
  return {
    template: storedTemplateName(name),
    fields: keys.map((key, i) => [key, rendered[i] ?? '']),
    ...(Object.keys(aliases).length > 0 ? { aliases } : {}),
    ...(drawsFromWikidata(name, rawValues, valuesLeftOut) ? { fromWikidata: true } : {}),
  };
}

/**
 * The text of infobox `spans[index]` without the infoboxes nested in it, which are extracted on
 * their own (wtf would render them as ""): rendering them again inside each parent would make
 * nested infoboxes cost the square of their depth.
 */
function innerTextWithoutNested(wikitext: string, spans: readonly TemplateSpan[], index: number): string {
  const span = spans[index] as TemplateSpan;
  let inner = '';
  let copiedUpTo = span.start + 2;
  for (let i = index + 1; i < spans.length; i++) {
    const nested = spans[i] as TemplateSpan;
    if (nested.start >= span.innerEnd) break;
    if (nested.start < copiedUpTo || nested.end > span.innerEnd) continue;
    inner += wikitext.slice(copiedUpTo, nested.start);
    copiedUpTo = nested.end;
  }
  return inner + wikitext.slice(copiedUpTo, span.innerEnd);
}

/** One infobox's parse, with the values the size cap left out (remembered together, so a repeat reports them too). */
export interface ParsedInfobox {
  infobox: Infobox | null;
  leftOut: string[];
}

/**
 * Every infobox of an article's wikitext, in document order; values over the size cap are left
 * out and named in `leftOut`. Never throws: malformed markup gives partial results. With `recent`,
 * an infobox whose text is one it parsed lately costs a lookup.
 *
 * @param wikitext - the article's wikitext
 * @returns each infobox's template name (without "Infobox") and its fields as `[key, plain-text value]`, in order
 * @example extractInfoboxes('{{Infobox person|name=Ada|born={{birth date|1815|12|10}}}}')[0]?.fields // [['name', 'Ada'], ['born', 'December 10, 1815']]
 */
export function extractInfoboxes(wikitext: string, { leftOut = [], recent }: { leftOut?: string[]; recent?: RecentResults<ParsedInfobox> } = {}): Infobox[] {
  const infoboxes: Infobox[] = [];
  try {
    const spans = templateSpans(wikitext).filter((span) => isInfoboxName(span.name));
    spans.forEach((span, i) => {
      try {
        const inner = innerTextWithoutNested(wikitext, spans, i);
        const parse = (): ParsedInfobox => {
          const valuesLeftOut: string[] = [];
          return { infobox: parseInfobox(span.name, inner, valuesLeftOut), leftOut: valuesLeftOut };
        };
        const { infobox, leftOut: valuesLeftOut } = recent ? recent.get(`${span.name}\u0000${inner}`, parse) : parse();
        leftOut.push(...valuesLeftOut);
        if (infobox !== null) infoboxes.push(infobox);
      } catch {
        // A template that defeats the parser is left out; the article's other infoboxes still count.
      }
    });
  } catch {
    // Only reachable on pathological input (e.g. exhausted stack): keep what was parsed.
  }
  return infoboxes;
}

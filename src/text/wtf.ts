/**
 * wtf_wikipedia, the one place it is loaded and the one guarded way in: by the first parse, not at
 * start-up, where it would cost every command; `require` keeps parsing synchronous. The interfaces
 * are the part of its API used here (its bundled types declare `Infobox.data` as a method, which it is not).
 */
import { createRequire } from 'node:module';
import { InputError } from '../errors.js';

export interface WtfText {
  text(): string;
}
export interface WtfInfobox {
  type(): string;
  readonly data: Readonly<Record<string, WtfText | undefined>>;
}
export interface WtfParagraph extends WtfText {
  sentences(): WtfText[];
  lists(): Array<{ lines(): WtfText[] }>;
}
export interface WtfSection {
  title(): string;
  paragraphs(): WtfParagraph[];
}
export interface WtfDocument {
  infoboxes(): WtfInfobox[];
  paragraphs(): WtfParagraph[];
  sections(): WtfSection[];
}

const BRACE_PAIRS = /\{\{|\}\}/g;

/**
 * How deeply templates nest in `text` (`{{a|{{b}}}}` is 2). wtf_wikipedia parses nested templates
 * recursively, at a cost that grows with the square of the depth, and overflows the stack some two
 * thousand deep.
 */
export function templateDepth(text: string): number {
  // Most texts it is asked about (an infobox's values) hold no template: a search costs less than the scan.
  if (!text.includes('{{')) return 0;
  let depth = 0;
  let deepest = 0;
  BRACE_PAIRS.lastIndex = 0;
  for (let brace = BRACE_PAIRS.exec(text); brace !== null; brace = BRACE_PAIRS.exec(text)) {
    depth = brace[0] === '{{' ? depth + 1 : Math.max(0, depth - 1);
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** Real articles nest templates a dozen deep at most; a thousand deep costs wtf seconds. */
const MAX_TEMPLATE_DEPTH = 100;

type Wtf = ((wikitext: string) => WtfDocument) & { extend(plugin: (models: unknown, templates: Record<string, unknown>) => void): void };

/**
 * Typographic templates English Wikipedia uses that wtf_wikipedia drops whole: without them
 * `2009{{endash}}2014` reads "20092014" and `5{{nbsp}}km` "5km", numbers the labeler and the
 * cloze questions would then take for others.
 */
const TYPOGRAPHY: Readonly<Record<string, string>> = {
  endash: '–',
  emdash: '—',
  dash: ' – ',
  'spaced en dash': ' – ',
  nbsp: ' ',
};
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * The text of `{{film date|Y|M|D|place|Y2|M2|D2|place2…}}` and `{{release date|Y|M|D}}`, which
 * wtf_wikipedia drops whole: without it a film's release date read blank in every infobox, so it
 * could be neither asked about nor shown to an annotator. Each date is written at the precision
 * given (a year, a month, a day), day first with `df=y`, its place in brackets; dates are joined by
 * commas. A part that is not a number is left out rather than guessed.
 *
 * @param positional - the template's unnamed parameters, as wtf_wikipedia splits them
 * @param dayFirst - the template's `df` parameter said yes
 * @example releaseDatesText(['2025', '1', '10', 'TIFF'], true) // '10 January 2025 (TIFF)'
 */
export function releaseDatesText(positional: readonly string[], dayFirst: boolean): string {
  const dates: string[] = [];
  for (let at = 0; at < positional.length; at += 4) {
    const [year, month, day, place] = positional.slice(at, at + 4).map((part) => part.trim());
    if (!year || !/^\d{1,4}$/.test(year)) continue;
    const monthName = month && /^\d{1,2}$/.test(month) ? MONTHS[Number(month) - 1] : undefined;
    const dayNumber = monthName !== undefined && day && /^\d{1,2}$/.test(day) ? Number(day) : undefined;
    const date =
      monthName === undefined ? year : dayNumber === undefined ? `${monthName} ${year}` : dayFirst ? `${dayNumber} ${monthName} ${year}` : `${monthName} ${dayNumber}, ${year}`;
    dates.push(place ? `${date} (${place})` : date);
  }
  return dates.join(', ');
}

type TemplateParameters = (body: string) => { list?: string[]; df?: string };

function releaseDates(body: string, _list: unknown, parameters: TemplateParameters): string {
  const { list = [], df = '' } = parameters(body);
  return releaseDatesText(list, /^y(es)?$/i.test(df.trim()));
}

/** Loaded by the first parse and kept: a `createRequire` per parse was a twentieth of the infobox extraction. */
let wtf: Wtf | undefined;

/** The parsed document; an InputError naming the depth for templates nested deeper than wtf is given. */
export function parseWithWtf(wikitext: string): WtfDocument {
  const depth = templateDepth(wikitext);
  if (depth > MAX_TEMPLATE_DEPTH) throw new InputError('E_WIKITEXT_TOO_DEEP', `templates nested ${depth} deep, more than the ${MAX_TEMPLATE_DEPTH} the parser reads`);
  wtf ??= loadWtf();
  return wtf(wikitext);
}

function loadWtf(): Wtf {
  const loaded = createRequire(import.meta.url)('wtf_wikipedia') as Wtf;
  loaded.extend((_models, templates) => Object.assign(templates, TYPOGRAPHY, { 'film date': releaseDates, 'release date': releaseDates }));
  return loaded;
}

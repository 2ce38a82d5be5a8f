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

type Wtf = ((wikitext: string) => WtfDocument) & { extend(plugin: (models: unknown, templates: Record<string, string>) => void): void };

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
  loaded.extend((_models, templates) => Object.assign(templates, TYPOGRAPHY));
  return loaded;
}

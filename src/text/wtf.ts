/**
 * wtf_wikipedia, the one place it is loaded: by the first parse, not at start-up, where it would
 * cost every command; `require` keeps parsing synchronous. The interfaces are the part of its API
 * used here (its bundled types declare `Infobox.data` as a method, which it is not).
 */
import { createRequire } from 'node:module';

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

export function parseWithWtf(wikitext: string): WtfDocument {
  return (createRequire(import.meta.url)('wtf_wikipedia') as (wikitext: string) => WtfDocument)(wikitext);
}

/**
 * What an infobox says besides its values' text (docs/ARCHITECTURE.md §16): the target of the link
 * a value is written as, kept as the value's alias (`[[United States|USA]]` reads `USA`, alias
 * `United States`), and whether the infobox draws its values from Wikidata, so that a wiki whose
 * infoboxes are filled there is reported as such rather than as a wiki where nothing changes.
 */

/** A wiki link: its target and the text shown, if piped. */
const LINK = /\[\[([^[\]|]+)(?:\|([^[\]]*))?\]\]/g;
/** Targets that are not articles: files, categories, interwiki and other namespaces' prefixes. */
const NOT_AN_ARTICLE = /^:?(?:file|image|media|category|fichier|catégorie|datei|kategorie|archivo|categoría|[a-z]{2,3}(?:-[a-z]+)?):/i;

/**
 * The target of the piped link a value is made of, whose shown text differs from it: the value's alias
 * (`[[United States|USA]]` reads `USA`, alias `United States`). Scoring takes the best over a value and
 * its aliases, so an alias must be the whole answer: a link inside a longer value names a part of it
 * (`Solberg ([[Chairperson|Chair]])`: "Chairperson" is not who the key people are), and gives none.
 *
 * @param raw - the value as written
 * @param rendered - the value as read (its text once markup, references and templates are gone)
 * @example linkAliases('[[United States|USA]]<ref>x</ref>', 'USA') // ['United States']
 */
export function linkAliases(raw: string, rendered: string): string[] {
  if (!raw.includes('[[')) return [];
  const links = [...raw.matchAll(LINK)].filter((match) => !NOT_AN_ARTICLE.test(match[1] as string));
  const [link] = links;
  if (link === undefined || links.length > 1) return [];
  const target = articleTitle(link[1] as string);
  const shown = link[2]?.trim();
  if (target === '' || shown === undefined || shown === '' || sameText(shown, target) || !sameText(shown, rendered.trim())) return [];
  return [target];
}

/** A link target as the title MediaWiki reads: no fragment, underscores as spaces, first letter upper case. */
function articleTitle(target: string): string {
  const fragmentAt = target.indexOf('#');
  const title = (fragmentAt === -1 ? target : target.slice(0, fragmentAt)).replace(/[_\s]+/g, ' ').trim();
  return title.charAt(0).toUpperCase() + title.slice(1);
}

/**
 * What `localeCompare(b, undefined, { sensitivity: 'accent' })` compares with, made once: that call
 * builds a collator each time, which was a tenth of the infobox extraction.
 */
const ACCENT_SENSITIVE = new Intl.Collator(undefined, { sensitivity: 'accent' });

function sameText(a: string, b: string): boolean {
  return a === b || ACCENT_SENSITIVE.compare(a, b) === 0;
}

/** Parameters that tell an infobox to fetch its values from Wikidata (English and French infobox conventions). */
const FETCH_PARAMETERS = new Set(['fetchwikidata', 'wikidata', 'qid', 'onlysourced', 'suppressfields']);
/** A value drawn from Wikidata by a parser function or a module. */
const WIKIDATA_CALL = /\{\{\s*(?:#property:|#statements:|#invoke:\s*(?:wikidata|wd|wikidataib|infobox ?wikidata)\b|wikidata\s*\|)/i;
/** Infobox names that stand for a Wikidata-driven box (`Infobox Biographie2`, `Infobox person/Wikidata`). */
const WIKIDATA_NAME = /(?:\/wikidata$|^infobox biographie2$|^infobox wikidata\b|wikidata$)/;

/** The opening or closing part of an infobox written in several templates (`Infobox animanga/Footer`): empty by design. */
const STRUCTURAL_PART = /\/(?:header|footer|begin|end|top|bottom)$/;

/**
 * Whether an infobox draws its values from Wikidata: a name that says so, a parameter that asks for
 * it, a value that calls for it, or no parameter with a value at all (the template fills itself),
 * unless it is the empty opening or closing part of a box written in several templates.
 * `valuesLeftOut`: values the size cap took out of `raw` (they were values all the same).
 */
export function drawsFromWikidata(name: string, raw: ReadonlyMap<string, string>, valuesLeftOut = 0): boolean {
  if (WIKIDATA_NAME.test(name)) return true;
  if (STRUCTURAL_PART.test(name)) return false;
  let anyValue = false;
  for (const [key, value] of raw) {
    if (value.trim() === '') continue;
    anyValue = true;
    if (FETCH_PARAMETERS.has(key) || WIKIDATA_CALL.test(value)) return true;
  }
  return !anyValue && valuesLeftOut === 0;
}

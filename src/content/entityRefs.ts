/**
 * Entity references in stored fact values, and their rendering with labels (docs/ARCHITECTURE.md §16).
 * An extractor writes an entity a value names as `{{Q183}}`, never as its label: what the store keeps
 * then does not depend on which labels were known when a revision was parsed, so the diff of two
 * revisions parsed weeks apart compares like with like. Labels are put in where values leave for
 * people (data units, timelines); a reference without a label keeps its id and marks the value
 * unresolved, and such a value is never asked about.
 */
import type { EntityName } from '../model.js';

/** An entity id: item, property, lexeme (with form or sense), media info, entity schema. */
const ENTITY_ID = /^(?:[QPLME]\d+|L\d+-[FS]\d+)$/;
const REFERENCE = /\{\{((?:[QPLME]\d+|L\d+-[FS]\d+))\}\}/g;

/**
 * Whether `text` is a Wikibase entity id (an item, property, lexeme, form, sense, media info or schema).
 *
 * @example isEntityId('Q183') === true; isEntityId('L7-F2') === true; isEntityId('population') === false
 */
export function isEntityId(text: string): boolean {
  return ENTITY_ID.test(text);
}

/**
 * How a value names an entity in the store.
 *
 * @example entityRef('Q183') === '{{Q183}}'
 */
export function entityRef(id: string): string {
  return `{{${id}}}`;
}

/**
 * The ids a stored value references, in order of first appearance, each once.
 *
 * @example referencedIds('{{Q64}}; {{Q1055}}; {{Q64}}') // ['Q64', 'Q1055']
 */
export function referencedIds(value: string): string[] {
  if (!value.includes('{{')) return [];
  return [...new Set([...value.matchAll(REFERENCE)].map((match) => match[1] as string))];
}

/** The English name of an entity by id; undefined for one whose name is not known. */
export type NameLookup = (id: string) => EntityName | undefined;

/**
 * What a page is called where people read it (a data unit's title, a golden document's): its entity's
 * English label, else the page's title. An entity page whose latest revision has no English label is
 * never selected, so its id-like title shows only where nothing else names it.
 */
export function pageName(entity: { label: string | null } | undefined, title: string): string {
  return entity?.label ?? title;
}

interface RenderedValue {
  text: string;
  /**
   * Other names of the whole value: the entity's aliases when the value is one entity. A value that
   * names several, or one beside other text (a quantity's unit), has none: scoring takes the best over
   * a value and its aliases, and "FRG" is not the answer "Germany; France", nor "km2" "258.82 km2".
   */
  aliases: string[];
  /** Ids whose label is unknown: they stay as ids in the text. */
  unresolved: string[];
}

/**
 * A stored value with its references replaced by labels, and what it could not resolve.
 *
 * @param names - the names known, e.g. from `namesOf`
 * @returns the text people read, its aliases (the entity's, for a value that is one entity), and the ids left as ids
 * @example renderValue('{{Q64}}', namesOf(entities, ['Q64'])) // { text: 'Berlin', aliases: ['Berlin, Germany'], unresolved: [] }
 */
export function renderValue(value: string, names: NameLookup): RenderedValue {
  const ids = referencedIds(value);
  if (ids.length === 0) return { text: value, aliases: [], unresolved: [] };
  const aliases: string[] = [];
  const unresolved: string[] = [];
  const oneEntity = value.trim() === `{{${ids[0] as string}}}`;
  const text = value.replace(REFERENCE, (_whole, id: string) => {
    const name = names(id);
    if (!name?.label) {
      if (!unresolved.includes(id)) unresolved.push(id);
      return id;
    }
    if (oneEntity) for (const alias of name.aliases) if (alias !== name.label && !aliases.includes(alias)) aliases.push(alias);
    return name.label;
  });
  return { text, aliases, unresolved };
}

/**
 * The ids whose names a fact needs: its key when the key is a property, and the entities its value names.
 *
 * @example idsOfFact('P6', '{{Q57661}}') // ['P6', 'Q57661']
 */
export function idsOfFact(key: string, value: string): string[] {
  return isEntityId(key) ? [key, ...referencedIds(value)] : referencedIds(value);
}

/**
 * A fact set (an infobox or an entity's facts) as people read it: values with labels, and the labels
 * of keys that are properties (`P1082` → `population`). A stored fact set is read through
 * `namedInfobox`, which reads the names it needs.
 */
export function namedFields(fields: ReadonlyArray<readonly [string, string]>, names: NameLookup): { values: Record<string, string>; keyLabels: Record<string, string> } {
  const values: Record<string, string> = {};
  const keyLabels: Record<string, string> = {};
  for (const [key, value] of fields) {
    values[key] = renderValue(value, names).text;
    const label = isEntityId(key) ? names(key)?.label : undefined;
    if (label) keyLabels[key] = label;
  }
  return { values, keyLabels };
}

/**
 * A key as people read it: a property with its label (`population (P1082)`), any other key as it is.
 *
 * @example labelledKey('P1082', { P1082: 'population' }) === 'population (P1082)'
 */
export function labelledKey(key: string, keyLabels: Readonly<Record<string, string>> | undefined): string {
  const label = keyLabels?.[key];
  return label === undefined ? key : `${label} (${key})`;
}

/** Where names are read from, many ids at once: the store's entity names (`EntityStore`). */
export interface NameSource {
  /** The names known of `ids`; an id without one is absent from the map. */
  names(ids: readonly string[]): ReadonlyMap<string, EntityName>;
}

/**
 * A lookup of the names `source` has for `ids`, read at once (one query, not one per id).
 *
 * @example const names = namesOf(entities, referencedIds(value)); renderValue(value, names).text
 */
export function namesOf(source: NameSource, ids: readonly string[]): NameLookup {
  const names = source.names([...new Set(ids)]);
  return (id) => names.get(id);
}

/** A fact set with its names put in: what `namedInfobox` gives. */
export interface NamedInfobox {
  values: Record<string, string>;
  keyLabels: Record<string, string>;
  /** The names read, which also cover the ids of `beside`: render those values with it. */
  names: NameLookup;
}

/**
 * A stored fact set as people and models read it, its names read from `source` in one go: the one
 * rendering of a data unit's infobox, an audit item's and a golden document's, so none of them shows
 * ids where another shows labels.
 *
 * @param fields - the stored fact set, `[key, value]` pairs in infobox order
 * @param source - where names are read from (the store's entity names)
 * @param beside - stored values read with the fields (a change's old value), whose names come in the same read
 * @returns the values with labels, the labels of property keys, and the lookup used
 * @example namedInfobox([['P1082', '3644826']], entities).keyLabels // { P1082: 'population' }
 */
export function namedInfobox(fields: ReadonlyArray<readonly [string, string]>, source: NameSource, beside: readonly string[] = []): NamedInfobox {
  const names = namesOf(source, [...fields.flatMap(([key, value]) => idsOfFact(key, value)), ...beside.flatMap(referencedIds)]);
  return { ...namedFields(fields, names), names };
}

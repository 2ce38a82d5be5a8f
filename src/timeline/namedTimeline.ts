/**
 * Timelines as people read them (docs/ARCHITECTURE.md §16): the entity ids the stored values name
 * replaced by labels, and the named entities' aliases kept beside the value's own (link targets).
 * A value naming an entity with no label keeps the id.
 */
import { renderValue, type NameLookup } from '../content/entityRefs.js';

/**
 * The intervals with their values as people read them: references replaced by labels, the named
 * entities' aliases added to the interval's own (an alias equal to the new text left out). An
 * interval that names no entity is returned as it is.
 *
 * @param names - the names known, e.g. `namesOf(entities, intervals.flatMap((i) => referencedIds(i.value)))`
 * @example namedIntervals([{ value: '{{Q64}}' }], names) // [{ value: 'Berlin', aliases: ['Berlin, Germany'] }]
 */
export function namedIntervals<Interval extends { value: string; aliases?: string[] }>(intervals: readonly Interval[], names: NameLookup): Interval[] {
  return intervals.map((interval) => {
    const rendered = renderValue(interval.value, names);
    if (rendered.text === interval.value && rendered.aliases.length === 0) return interval;
    const aliases = [...new Set([...(interval.aliases ?? []), ...rendered.aliases])].filter((alias) => alias !== rendered.text);
    return { ...interval, value: rendered.text, ...(aliases.length > 0 ? { aliases } : {}) };
  });
}

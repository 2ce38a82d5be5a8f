import type { Stage } from '../../src/runs/stageRunner.js';
import type { WeeklyInput } from './input.js';
import { idsOfFact } from '../../src/content/entityRefs.js';

/**
 * labels: the English names of every entity and property the window's entity facts name
 * (docs/ARCHITECTURE.md §16), so that select and timeline can put labels where ids stand. Names come
 * from the store (the entities it holds, the labels cache, which holds the names collect read from the
 * dump's other entity pages), then from `--labels FILE`, then from
 * wbgetentities; what a source gives is cached, so no source is asked about an id twice (one that a
 * source left without a label, and nothing else names, another source is asked about). An id no source names stays
 * unresolved: its values keep the id and are never asked about. A week of wikitext names nothing.
 */
export const labelsStage: Stage<WeeklyInput> = {
  name: 'labels',
  after: ['parse'],
  async run(input, context) {
    const entities = context.store.entities;
    const facts = entities.windowFacts(input.wiki, input.window);
    const ids = [...new Set(facts.flatMap(([key, value]) => idsOfFact(key, value)))].sort();
    const counts: Record<string, number> = { ids: ids.length, known: 0 };
    const known = entities.names(ids);
    let missing = ids.filter((id) => !known.has(id));
    counts['known'] = ids.length - missing.length;
    // What a labels file or wbgetentities left without a label, another source may name (a better file
    // given to --redo labels); the source that said so is not asked again.
    const misses = entities.undatedMisses(ids.filter((id) => known.has(id)));
    for (const source of input.entityNames ?? []) {
      const asked = [...missing, ...[...misses].filter(([, origin]) => origin !== source.origin).map(([id]) => id)].sort();
      if (asked.length === 0) continue;
      const answered = new Set<string>();
      const from = `from_${source.kind}`;
      counts[from] = 0;
      // Each batch is written as it comes: a source failing later loses none, and a rerun asks only the rest.
      await source.names(asked, (found) => {
        entities.saveNames(found, source.origin);
        for (const [id, name] of found) {
          answered.add(id);
          if (name?.label) {
            counts[from] = (counts[from] ?? 0) + 1;
            misses.delete(id);
          } else misses.set(id, source.origin);
        }
        context.saveProgress({ counts });
      });
      missing = missing.filter((id) => !answered.has(id));
    }
    const named = entities.names(ids);
    counts['unresolved'] = ids.filter((id) => !named.get(id)?.label).length;
    if (counts['unresolved'] > 0) {
      context.reporter.warn('entities without an English label: their values keep the id and are never asked about', {
        unresolved: counts['unresolved'],
        first: ids.filter((id) => !named.get(id)?.label).slice(0, 5).join(','),
      });
    }
    return counts;
  },
};

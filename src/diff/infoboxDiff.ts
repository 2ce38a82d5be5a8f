import type { Infobox, KeyChange } from '../model.js';

/** Below this key overlap, infoboxes with different template names are different infoboxes. */
const MIN_CROSS_TEMPLATE_OVERLAP = 0.3;

/**
 * The key-level differences between two revisions' infoboxes. Infoboxes are paired by template name
 * and key overlap, not by position: a page that swaps `Infobox person` for `Infobox officeholder`
 * keeping most keys is one infobox that changed template, and a reordered pair of infoboxes is no
 * change at all. Several infoboxes with one template name are told apart as "name", "name#2", ….
 *
 * @param before - the earlier revision's infoboxes (`ParsedRevision.infoboxes`)
 * @param after - the later revision's
 * @returns one change per key added, removed or changed, with its template label, old and new value
 * @example
 * diffInfoboxes([{ template: 'Infobox city', fields: [['mayor', 'A']] }], [{ template: 'Infobox city', fields: [['mayor', 'B']] }])
 * // [{ template: 'Infobox city', key: 'mayor', kind: 'changed', old: 'A', new: 'B' }]
 */
export function diffInfoboxes(before: readonly Infobox[], after: readonly Infobox[]): KeyChange[] {
  const pairs = pairInfoboxes(before, after);
  const labels = templateLabels(after);
  const beforeLabels = templateLabels(before);
  const changes: KeyChange[] = [];
  for (const { oldIndex, newIndex } of pairs) {
    const oldBox = oldIndex === null ? undefined : before[oldIndex];
    const newBox = newIndex === null ? undefined : after[newIndex];
    const template = newIndex === null ? (beforeLabels[oldIndex as number] as string) : (labels[newIndex] as string);
    changes.push(...diffFields(template, fieldMap(oldBox), fieldMap(newBox)));
  }
  return changes;
}

interface Pair {
  oldIndex: number | null;
  newIndex: number | null;
}

/** Greedy pairing by score: same template first, then key overlap; leftovers are added or removed. */
export function pairInfoboxes(before: readonly Infobox[], after: readonly Infobox[]): Pair[] {
  const candidates: Array<{ oldIndex: number; newIndex: number; score: number }> = [];
  before.forEach((oldBox, oldIndex) => {
    after.forEach((newBox, newIndex) => {
      const overlap = keyOverlap(oldBox, newBox);
      const sameTemplate = oldBox.template === newBox.template;
      if (!sameTemplate && overlap < MIN_CROSS_TEMPLATE_OVERLAP) return;
      // Position breaks ties between equal candidates, so pairing is deterministic.
      const positionPenalty = Math.abs(oldIndex - newIndex) / 1000;
      candidates.push({ oldIndex, newIndex, score: (sameTemplate ? 2 : 0) + overlap - positionPenalty });
    });
  });
  candidates.sort((a, b) => b.score - a.score || a.oldIndex - b.oldIndex || a.newIndex - b.newIndex);
  const usedOld = new Set<number>();
  const usedNew = new Set<number>();
  const pairs: Pair[] = [];
  for (const candidate of candidates) {
    if (usedOld.has(candidate.oldIndex) || usedNew.has(candidate.newIndex)) continue;
    usedOld.add(candidate.oldIndex);
    usedNew.add(candidate.newIndex);
    pairs.push({ oldIndex: candidate.oldIndex, newIndex: candidate.newIndex });
  }
  before.forEach((_, oldIndex) => usedOld.has(oldIndex) || pairs.push({ oldIndex, newIndex: null }));
  after.forEach((_, newIndex) => usedNew.has(newIndex) || pairs.push({ oldIndex: null, newIndex }));
  return pairs.sort((a, b) => (a.newIndex ?? Infinity) - (b.newIndex ?? Infinity) || (a.oldIndex ?? 0) - (b.oldIndex ?? 0));
}

/**
 * The infobox of `before` that the diff compared with the one a change names by `template` (its label
 * among `after`'s, "name#2" for a second box of one template): the one paired with it, which may
 * carry another template name; for a box removed since, the one labelled so in `before`.
 */
export function pairedBefore(before: readonly Infobox[], after: readonly Infobox[], template: string): Infobox | undefined {
  const newIndex = templateLabels(after).indexOf(template);
  if (newIndex === -1) return before[templateLabels(before).indexOf(template)];
  const oldIndex = pairInfoboxes(before, after).find((pair) => pair.newIndex === newIndex)?.oldIndex;
  return oldIndex === null || oldIndex === undefined ? undefined : before[oldIndex];
}

/** Jaccard overlap of the two infoboxes' key sets. */
function keyOverlap(a: Infobox, b: Infobox): number {
  const keysA = new Set(a.fields.map(([key]) => key));
  const keysB = new Set(b.fields.map(([key]) => key));
  let shared = 0;
  for (const key of keysA) if (keysB.has(key)) shared++;
  const union = keysA.size + keysB.size - shared;
  return union === 0 ? 1 : shared / union;
}

/** "name" for the first infobox with a template name, "name#2" for the second, …. */
export function templateLabels(infoboxes: readonly Infobox[]): string[] {
  const seen = new Map<string, number>();
  return infoboxes.map((box) => {
    const n = (seen.get(box.template) ?? 0) + 1;
    seen.set(box.template, n);
    return n === 1 ? box.template : `${box.template}#${n}`;
  });
}

function fieldMap(box: Infobox | undefined): Map<string, string> {
  return new Map(box?.fields ?? []);
}

function diffFields(template: string, before: Map<string, string>, after: Map<string, string>): KeyChange[] {
  const changes: KeyChange[] = [];
  for (const [key, value] of after) {
    const old = before.get(key);
    if (old === undefined) changes.push({ template, key, kind: 'added', old: '', new: value });
    else if (old !== value) changes.push({ template, key, kind: 'changed', old, new: value });
  }
  for (const [key, old] of before) {
    if (!after.has(key)) changes.push({ template, key, kind: 'removed', old, new: '' });
  }
  return changes;
}

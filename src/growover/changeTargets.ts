/**
 * What a new snapshot offers for generation from change (docs/ARCHITECTURE.md §7.5): runs of consecutive new
 * sentences (cut into groups of at most six, as GrowOVER does, so one question covers a readable
 * stretch) and changed sentences with the old wording they replace. Undecided sentences are never
 * evidence: they end a run like any other label.
 */
import type { LabeledSentence } from '../model/growover.js';

const MAX_NEW_GROUP = 6;

/** Groups of consecutive new sentence indices, none longer than `max`, near-equal in size. */
export function newSentenceGroups(labels: readonly LabeledSentence[], max = MAX_NEW_GROUP): number[][] {
  const runs: number[][] = [];
  const sorted = [...labels].sort((a, b) => a.index - b.index);
  for (const sentence of sorted) {
    const run = runs.at(-1);
    if (sentence.label !== 'new') continue;
    if (run && run.at(-1) === sentence.index - 1) run.push(sentence.index);
    else runs.push([sentence.index]);
  }
  return runs.flatMap((run) => split(run, max));
}

/** A changed sentence of the new version and the old sentences it replaced. */
export interface ChangedPair {
  newIndex: number;
  oldIndices: number[];
}

/**
 * The changed sentences that have an old counterpart, in new-version order: each is a CHANGED QA item's source.
 *
 * @example changedPairs([{ index: 3, label: 'changed', oldIndices: [2] }, { index: 4, label: 'new', oldIndices: [] }]) // [{ newIndex: 3, oldIndices: [2] }]
 */
export function changedPairs(labels: readonly LabeledSentence[]): ChangedPair[] {
  return labels
    .filter((sentence) => sentence.label === 'changed' && sentence.oldIndices.length > 0)
    .sort((a, b) => a.index - b.index)
    .map((sentence) => ({ newIndex: sentence.index, oldIndices: sentence.oldIndices }));
}

function split(run: number[], max: number): number[][] {
  const parts = Math.ceil(run.length / max);
  const size = Math.ceil(run.length / parts);
  const groups: number[][] = [];
  for (let at = 0; at < run.length; at += size) groups.push(run.slice(at, at + size));
  return groups;
}

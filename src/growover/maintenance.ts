/**
 * Maintenance of items across two snapshots (docs/ARCHITECTURE.md §7.4): an item or turn lives on only when every
 * one of its evidence sentences is unchanged, and its evidence moves to where those sentences are
 * in the new version (the labels' old indices say where each unchanged sentence came from; a
 * sentence split in two continues as both halves, two merged into one as the one). A QA item's
 * answer must still be found in its moved evidence: a sentence can count as unchanged in meaning
 * while its wording no longer holds the answer, and an item is only valid with its answer in sight.
 */
import type { LabeledSentence } from '../model/growover.js';
import { answerContains } from '../text/normalise.js';

/** Old sentence index → the new indices of the unchanged sentences that continue it. */
export function unchangedContinuations(labels: readonly LabeledSentence[]): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const sentence of labels) {
    if (sentence.label !== 'unchanged') continue;
    for (const old of sentence.oldIndices) map.set(old, [...(map.get(old) ?? []), sentence.index]);
  }
  return map;
}

/** The evidence in the new version, sorted, or null when any of it did not stay unchanged. */
export function carriedEvidence(oldEvidence: readonly number[], continuations: ReadonlyMap<number, number[]>): number[] | null {
  const moved = new Set<number>();
  for (const old of oldEvidence) {
    const next = continuations.get(old);
    if (!next) return null;
    for (const index of next) moved.add(index);
  }
  return [...moved].sort((a, b) => a - b);
}

/** Why an item cannot be kept: what became of each evidence sentence that did not stay unchanged. */
export function retirementReason(oldEvidence: readonly number[], labels: readonly LabeledSentence[], continuations: ReadonlyMap<number, number[]>): string {
  const fates = oldEvidence
    .filter((old) => !continuations.has(old))
    .map((old) => `${old} ${labels.find((sentence) => sentence.oldIndices.includes(old))?.label ?? 'deleted'}`);
  return `evidence sentence ${fates.join(', ')}`;
}

export type Fate = { kept: true; indices: number[] } | { kept: false; reason: string };

/** What becomes of an item (or turn) with this evidence, and answer for QA, in the new version. */
export function fateOf(
  item: { indices: readonly number[]; answer: string | null },
  labels: readonly LabeledSentence[],
  continuations: ReadonlyMap<number, number[]>,
  newSentences: readonly string[],
): Fate {
  const indices = carriedEvidence(item.indices, continuations);
  if (!indices) return { kept: false, reason: retirementReason(item.indices, labels, continuations) };
  if (item.answer !== null && !answerContains(indices.map((index) => newSentences[index] ?? '').join(' '), item.answer)) {
    return { kept: false, reason: `answer "${item.answer}" is no longer in its unchanged evidence sentence ${indices.join(', ')}` };
  }
  return { kept: true, indices };
}

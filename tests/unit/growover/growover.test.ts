import { describe, expect, it } from 'vitest';
import { changedClozeQa, clozeQa, consecutiveDialogue } from '../../../src/llm/offlineGrowoverTasks.js';
import type { ArticleSentence } from '../../../src/model/labels.js';
import { changedPairs, newSentenceGroups } from '../../../src/growover/changeTargets.js';
import { kMeans, onePerCluster } from '../../../src/growover/kmeans.js';
import { carriedEvidence, fateOf, retirementReason, unchangedContinuations } from '../../../src/growover/maintenance.js';
import type { LabeledSentence } from '../../../src/model/growover.js';
import { paragraphsOf, qualifies } from '../../../src/growover/paragraphs.js';
import { validateChangedQa, validateDialogue, validateQa } from '../../../src/growover/validation.js';
import { answerContains } from '../../../src/text/normalise.js';
import { SeededRandom } from '../../../src/random.js';

const filler = (n: number) => 'x'.repeat(n);

function sentencesOf(paragraphs: string[][]): ArticleSentence[] {
  const out: ArticleSentence[] = [];
  paragraphs.forEach((texts, paragraph) => texts.forEach((text) => out.push({ index: out.length, paragraph, text })));
  return out;
}

describe('paragraph selection', () => {
  it('keeps paragraphs of fewer than 5 sentences and 300 to 600 characters', () => {
    const paragraphs = paragraphsOf(
      sentencesOf([
        [filler(150), filler(149)], // 300 with the joining space: in
        [filler(100), filler(100)], // too short
        [filler(100), filler(100), filler(100), filler(100), filler(10)], // five sentences
        [filler(601)], // too long
        [filler(400)],
      ]),
    );
    expect(paragraphs.map((p) => p.sentences.length)).toEqual([2, 2, 5, 1, 1]);
    expect(paragraphs.filter(qualifies).map((p) => p.number)).toEqual([0, 4]);
  });
});

describe('seeded k-means', () => {
  const near = (x: number, y: number) => Float32Array.from([x, y]);
  const vectors = [near(0, 0), near(0.1, 0), near(10, 10), near(10.1, 10), near(-10, 10), near(-10, 10.2), near(10, -10), near(10, -10.1), near(0, 0.1)];

  it('finds the four groups and gives the same answer for the same seed', () => {
    const a = kMeans(vectors, 4, new SeededRandom(7));
    expect(new Set(a).size).toBe(4);
    expect(a[0]).toBe(a[1]);
    expect(a[0]).toBe(a[8]);
    expect(a[2]).toBe(a[3]);
    expect(a[4]).toBe(a[5]);
    expect(kMeans(vectors, 4, new SeededRandom(7))).toEqual(a);
  });

  it('draws one item per cluster, all items when there are at most k', () => {
    const items = vectors.map((_, i) => i);
    const chosen = onePerCluster(items, vectors, 4, 1, 'x');
    expect(chosen).toHaveLength(4);
    expect(onePerCluster(items, vectors, 4, 1, 'x')).toEqual(chosen);
    expect(onePerCluster([1, 2, 3], vectors.slice(0, 3), 4, 1, 'x')).toEqual([1, 2, 3]);
  });
});

describe('maintenance mapping', () => {
  // Old 0..4; new: 0 unchanged(0), 1 new, 2 unchanged(1), 3 changed(2), 4 unchanged(3,4 merged), 5 undecided.
  const labels: LabeledSentence[] = [
    { index: 0, label: 'unchanged', oldIndices: [0] },
    { index: 1, label: 'new', oldIndices: [] },
    { index: 2, label: 'unchanged', oldIndices: [1] },
    { index: 3, label: 'changed', oldIndices: [2] },
    { index: 4, label: 'unchanged', oldIndices: [3, 4] },
    { index: 5, label: 'undecided', oldIndices: [] },
  ];
  const continuations = unchangedContinuations(labels);

  it('moves unchanged evidence to its new indices', () => {
    expect(carriedEvidence([1], continuations)).toEqual([2]);
    expect(carriedEvidence([0, 1], continuations)).toEqual([0, 2]);
    expect(carriedEvidence([3, 4], continuations)).toEqual([4]);
  });

  it('retires evidence that changed or disappeared, saying what became of it', () => {
    expect(carriedEvidence([1, 2], continuations)).toBeNull();
    expect(retirementReason([1, 2], labels, continuations)).toBe('evidence sentence 2 changed');
    expect(carriedEvidence([7], continuations)).toBeNull();
    expect(retirementReason([7], labels, continuations)).toBe('evidence sentence 7 deleted');
  });

  it('keeps a QA item only while its answer is still in the moved evidence', () => {
    const newSentences = ['Zero.', 'New.', 'It has 3,769,495 inhabitants.', 'Changed.', 'Merged.', 'Undecided.'];
    expect(fateOf({ indices: [1], answer: '3,769,495' }, labels, continuations, newSentences)).toEqual({ kept: true, indices: [2] });
    expect(fateOf({ indices: [1], answer: '3,645,000' }, labels, continuations, newSentences)).toEqual({
      kept: false,
      reason: 'answer "3,645,000" is no longer in its unchanged evidence sentence 2',
    });
    expect(fateOf({ indices: [2], answer: null }, labels, continuations, newSentences)).toEqual({ kept: false, reason: 'evidence sentence 2 changed' });
  });
});

describe('generation targets from change', () => {
  it('groups consecutive new sentences, at most six per group, and never across other labels', () => {
    const labels: LabeledSentence[] = [
      ...Array.from({ length: 14 }, (_, index) => ({ index, label: 'new' as const, oldIndices: [] })),
      { index: 14, label: 'undecided', oldIndices: [] },
      { index: 15, label: 'new', oldIndices: [] },
      { index: 16, label: 'changed', oldIndices: [9] },
    ];
    expect(newSentenceGroups(labels).map((g) => [g[0], g.at(-1)])).toEqual([[0, 4], [5, 9], [10, 13], [15, 15]]);
    expect(changedPairs(labels)).toEqual([{ newIndex: 16, oldIndices: [9] }]);
  });
});

describe('validation of generated items', () => {
  const sentences = ['Berlin is the capital of Germany.', 'It has 3,769,495 inhabitants.', 'The mayor is Kai Wegner.'];
  const scope = { sentences, allowed: new Set([1, 2]) };

  it('accepts an answer found in its evidence once normalised', () => {
    const checked = validateQa({ question: 'How many people live in Berlin?', answer: '3769495', start: 1, end: 1 }, scope);
    expect(checked).toMatchObject({ ok: true, value: { evidence: [1] } });
    expect(answerContains('The mayor is Kai Wegner.', 'kai wegner')).toBe(true);
    expect(answerContains('The mayor is Kai Wegner.', 'Kai Weg')).toBe(false);
  });

  it('rejects with the reason: indices, answer, format', () => {
    expect(validateQa({ question: 'Who is the mayor of Berlin?', answer: 'Kai Wegner', start: 2, end: 3 }, scope)).toEqual({
      ok: false,
      reason: 'evidence sentence 3 is outside the article (sentences 0..2)',
    });
    expect(validateQa({ question: 'What is the capital of Germany?', answer: 'Berlin', start: 0, end: 0 }, scope)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not among the sentences'),
    });
    expect(validateQa({ question: 'Who is the mayor of Berlin?', answer: 'Franziska Giffey', start: 2, end: 2 }, scope)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not in the evidence'),
    });
    expect(validateQa({ question: 'Who?', answer: '', start: 2, end: 2 }, scope)).toMatchObject({ ok: false, reason: expect.stringMatching(/^format: /) });
  });

  it('checks both answers of a changed item against their own wording', () => {
    const texts = { oldText: 'The mayor is Franziska Giffey.', newText: 'The mayor is Kai Wegner.' };
    expect(validateChangedQa({ question: 'Who is the mayor of Berlin?', oldAnswer: 'Franziska Giffey', newAnswer: 'Kai Wegner' }, texts).ok).toBe(true);
    expect(validateChangedQa({ question: 'Who is the mayor of Berlin?', oldAnswer: 'Kai Wegner', newAnswer: 'Kai Wegner' }, texts)).toMatchObject({ ok: false });
  });

  it('needs 3 to 4 turns citing distinct sentences it was given', () => {
    const turn = (sentence: number) => ({ user: 'Tell me more?', expert: 'Sure.', sentence });
    const all = { sentences, allowed: new Set([0, 1, 2]) };
    expect(validateDialogue({ turns: [turn(0), turn(1), turn(2)] }, all).ok).toBe(true);
    expect(validateDialogue({ turns: [turn(0), turn(1)] }, all).ok).toBe(false);
    expect(validateDialogue({ turns: [turn(0), turn(1), turn(1)] }, all)).toMatchObject({ ok: false, reason: expect.stringContaining('same sentence') });
  });
});

describe('offline GrowOVER rules', () => {
  it('asks a cloze question on a number first, then a name, with the evidence sentence', () => {
    const result = clozeQa({
      title: 'Berlin',
      source: 'initial',
      context: '',
      sentences: [
        { index: 4, text: 'Berlin is the capital of Germany.' },
        { index: 5, text: 'It has 3,769,495 inhabitants.' },
      ],
    });
    expect(result).toEqual({ ok: true, value: { question: 'In the article "Berlin", what fills the blank: "It has ___ inhabitants"?', answer: '3,769,495', start: 5, end: 5 } });
  });

  it('takes the words that differ between two wordings as the old and the new answer', () => {
    const result = changedClozeQa({ title: 'Berlin', oldSentence: 'The mayor is Franziska Giffey.', newSentence: 'The mayor is Kai Wegner.' });
    expect(result).toMatchObject({ ok: true, value: { oldAnswer: 'Franziska Giffey', newAnswer: 'Kai Wegner' } });
    expect(changedClozeQa({ title: 'B', oldSentence: 'A b c.', newSentence: 'A b c d.' }).ok).toBe(false);
  });

  it('builds a dialogue of consecutive sentences, each turn citing its sentence', () => {
    const result = consecutiveDialogue({ title: 'Berlin', turns: 3, sentences: [0, 1, 2, 3].map((index) => ({ index, text: `S${index}.` })) });
    expect(result.ok && result.value.turns.map((t) => [t.sentence, t.expert])).toEqual([[0, 'S0.'], [1, 'S1.'], [2, 'S2.']]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/models/embedder.js';
import { HeuristicNli } from '../../../src/models/heuristicNli.js';
import { labelArticle } from '../../../src/labels/labeler.js';

/** Bag-of-words vectors: cosine is word overlap, so the test knows which spans match and why. */
class BagOfWords implements Embedder {
  readonly id = 'bag-of-words';
  readonly sameThreshold = 0.9;
  readonly seen: string[] = [];
  private readonly vocabulary = new Map<string, number>();

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.seen.push(...texts);
    return Promise.resolve(
      texts.map((text) => {
        const vector = new Float32Array(256);
        for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
          if (!this.vocabulary.has(word)) this.vocabulary.set(word, this.vocabulary.size);
          const slot = (this.vocabulary.get(word) as number) % 256;
          vector[slot] = (vector[slot] as number) + 1;
        }
        return vector;
      }),
    );
  }
}

const BEFORE = 'Port Aldwin lies on the coast.';
const AFTER = 'It is a sunny place.';

describe('spans compared by embedding (splits and merges the words alone do not reveal)', () => {
  it('matches a sentence split in two, reworded, to the old sentence', async () => {
    const embedder = new BagOfWords();
    const labels = await labelArticle(
      [BEFORE, 'The bridge, opened in 1932, carries a railway line across the river.', AFTER],
      [BEFORE, 'The bridge opened in 1932.', 'The bridge carries a railway line across the river.', AFTER],
      { embedder, nli: new HeuristicNli() },
    );
    expect(labels.sentences.slice(1, 3).map((l) => [l.label, l.step, l.oldIndices])).toEqual([
      ['unchanged', 'span', [1]],
      ['unchanged', 'span', [1]],
    ]);
    expect(labels.sentences[1]?.similarity).toBeGreaterThanOrEqual(0.9);
    expect(labels.deleted).toEqual([]);
    // Only the gap went to the model: never the anchored sentences around it.
    expect(embedder.seen).not.toContain(BEFORE);
  });

  it('matches two sentences merged into one, and refuses a merge whose numbers differ', async () => {
    const old = [BEFORE, 'The museum opened in 1990.', 'The museum holds maritime charts.', AFTER];
    const merged = await labelArticle(old, [BEFORE, 'The museum opened in 1990 and the museum now holds maritime charts.', AFTER], {
      embedder: new BagOfWords(),
      nli: new HeuristicNli(),
    });
    expect(merged.sentences[1]).toMatchObject({ label: 'unchanged', step: 'span', oldIndices: [1, 2] });
    const renumbered = await labelArticle(old, [BEFORE, 'The museum opened in 1991 and the museum now holds maritime charts.', AFTER], {
      embedder: new BagOfWords(),
      nli: new HeuristicNli(),
    });
    expect(renumbered.sentences[1]?.step).not.toBe('span');
    expect(renumbered.sentences[1]?.label).not.toBe('unchanged');
  });
});

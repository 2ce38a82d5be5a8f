import { describe, expect, it } from 'vitest';
import { labelBatches, type LabelPair } from '../../../src/queue/labelJob.js';

const sentences = (prefix: string, count: number) => Array.from({ length: count }, (_, k) => `${prefix} sentence ${k}.`);

describe('labelBatches', () => {
  it('queues first the pairs with the most sentences found in one version only, not the longest articles', () => {
    const pairs: LabelPair[] = [
      { pageId: 1, oldSentences: sentences('kept', 200), newSentences: [...sentences('kept', 200), 'One added.'] },
      { pageId: 2, oldSentences: null, newSentences: sentences('new', 300) },
      { pageId: 3, oldSentences: [...sentences('kept', 10), ...sentences('before', 5)], newSentences: [...sentences('kept', 10), ...sentences('after', 6)] },
      { pageId: 4, oldSentences: sentences('same', 50), newSentences: sentences('same', 50) },
    ];
    const order = labelBatches(pairs, {}, 1).map((batch) => batch.pairs.map((pair) => pair.pageId));
    expect(order).toEqual([[3], [1], [2], [4]]);
  });

  it('sums the cost of a job holding several pairs', () => {
    const changed = (pageId: number, count: number): LabelPair => ({ pageId, oldSentences: sentences(`old${pageId}`, count), newSentences: sentences(`new${pageId}`, count) });
    const order = labelBatches([changed(1, 1), changed(2, 1), changed(3, 3)], {}, 2).map((batch) => batch.pairs.map((pair) => pair.pageId));
    expect(order).toEqual([[3], [1, 2]]);
  });
});

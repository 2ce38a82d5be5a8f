/** The queue's pure parts: the address check, batching, and a labeling job's result surviving the trip through JSON. */
import { describe, expect, it } from 'vitest';
import { HeuristicNli } from '../../../src/models/heuristicNli.js';
import { inBatches, InProcessRunner } from '../../../src/queue/batchRunner.js';
import { parseQueueUrl } from '../../../src/queue/connection.js';
import { labelArticlesJob, type LabeledBatch } from '../../../src/queue/labelJob.js';
import { withCode } from '../../support/errorCodes.js';

/** Exact anchors and new articles need no embedding: a call would be a bug of this test's setup. */
const noEmbedder = {
  id: 'none',
  sameThreshold: 0.9,
  embed(): Promise<Float32Array[]> {
    throw new Error('no embedding expected');
  },
};

describe('queue address', () => {
  it('takes redis:// URLs with or without a port and refuses anything else with one line', () => {
    expect(parseQueueUrl('redis://10.0.0.5:6380')).toMatchObject({ host: '10.0.0.5', port: 6380 });
    expect(parseQueueUrl('redis://queue-host')).toMatchObject({ host: 'queue-host', port: 6379 });
    expect(() => parseQueueUrl('http://queue-host:6379')).toThrow(withCode('E_FLAG_INVALID'));
    expect(() => parseQueueUrl('queue-host:6379')).toThrow(withCode('E_FLAG_INVALID'));
    expect(() => parseQueueUrl('not a url')).toThrow(withCode('E_FLAG_INVALID'));
  });
});

describe('batches', () => {
  it('cuts items into consecutive batches, the last one shorter', () => {
    expect(inBatches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(inBatches([], 3)).toEqual([]);
  });

  it('runs a labeling batch in process, and its result reads back through JSON as it was', async () => {
    const runner = new InProcessRunner({ models: async () => ({ embedder: noEmbedder, nli: new HeuristicNli() }) });
    const batch = {
      thresholds: {},
      pairs: [
        { pageId: 7, oldSentences: ['Aldwin is a port.', 'It has 300 people.'], newSentences: ['It has 300 people.', 'Aldwin is a port.'] },
        { pageId: 9, oldSentences: null, newSentences: ['A new article.'] },
      ],
    };
    const results: Array<[LabeledBatch, number]> = [];
    await runner.run(labelArticlesJob, [batch], (output, index) => results.push([output, index]));
    expect(results).toHaveLength(1);
    const [output, index] = results[0] as [LabeledBatch, number];
    expect(index).toBe(0);
    expect(output.articles.map((article) => article.pageId)).toEqual([7, 9]);
    expect(output.articles[0]?.labels.sentences.map((label) => label.label)).toEqual(['unchanged', 'unchanged']);
    expect(output.articles[1]?.labels.sentences.map((label) => label.step)).toEqual(['new-article']);
    expect(labelArticlesJob.output.parse(JSON.parse(JSON.stringify(output)))).toEqual(JSON.parse(JSON.stringify(output)));
    expect(labelArticlesJob.data.safeParse({ pairs: [{ pageId: 'x' }], thresholds: {} }).success).toBe(false);
    // Every pair's every sentence labelled, no other page.
    expect(labelArticlesJob.unanswered?.(batch, output)).toBeNull();
    expect(labelArticlesJob.unanswered?.(batch, { ...output, articles: output.articles.slice(0, 1) })).toBe('page 9 (1 sentence) missing');
    const short = { ...output.articles[0]!, labels: { ...output.articles[0]!.labels, sentences: output.articles[0]!.labels.sentences.slice(1) } };
    expect(labelArticlesJob.unanswered?.(batch, { ...output, articles: [short, output.articles[1]!] })).toBe('page 7 (1 sentence) not in the batch');
  });
});

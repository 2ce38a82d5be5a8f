import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { generateFromChange, generateInitial, type GenerationContext } from '../../../src/growover/generator.js';
import type { DialogueRequest, GroundedQaRequest } from '../../../src/llm/growoverTasks.js';
import { OfflineGrowoverTasks } from '../../../src/llm/offlineGrowoverTasks.js';
import type { LabeledSentence } from '../../../src/model/growover.js';
import type { Embedder } from '../../../src/models/embedder.js';

/** A server gone: the QA request fails at once, the dialogue's a little later, while the first failure is handled. */
class ServerGone extends OfflineGrowoverTasks {
  override generateGroundedQa(_request: GroundedQaRequest): never {
    throw new Error('LLM server gone');
  }
  override async generateDialogue(_request: DialogueRequest): Promise<never> {
    await sleep(20);
    throw new Error('LLM server gone (dialogue)');
  }
}

const unused: Embedder = { id: 'unused', sameThreshold: 1, embed: () => Promise.reject(new Error('no embedding needed for one paragraph')) };

/** One paragraph of four sentences, 300 to 600 characters: one QA and one dialogue are asked for. */
const sentences = [0, 1, 2, 3].map((index) => ({ index, paragraph: 0, text: `Sentence ${index} of the harbour history names the year 19${10 + index} and the pier it built, ${'with details '.repeat(3)}.` }));
const context: GenerationContext = { tasks: new ServerGone(), embedder: unused, seed: 1, article: { snapshot: '2025-04', month: '2025-04', pageId: 7, title: 'Port Aldwin' }, sentences };

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);
afterEach(() => {
  unhandled.length = 0;
});

describe('generation when the LLM server fails', () => {
  it('rejects with the first failure and leaves no request of the article unobserved (a queue worker died of one)', async () => {
    await expect(generateInitial(context)).rejects.toThrow('LLM server gone');
    const labels: LabeledSentence[] = sentences.map(({ index }) => ({ index, label: 'new', oldIndices: [] }));
    await expect(generateFromChange(context, labels, [])).rejects.toThrow('LLM server gone');
    // The dialogue requests fail after the QA's: their rejections must find a handler.
    await sleep(60);
    expect(unhandled).toEqual([]);
  });
});

/**
 * The batch threads of a run without the queue: the weekly job kinds computed on worker threads
 * give what they give in process, a bad batch fails its call with its reason and starts none after
 * it, a kind the threads do not run is one line naming it, and a thread that dies fails its batch's
 * call and is replaced, so the runner never waits on a dead thread; nor on a batch past its deadline.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { SAMPLE_DUMP } from '../../../src/cli/commands/demo.js';
import { InProcessRunner } from '../../../src/queue/batchRunner.js';
import { diffPagesJob } from '../../../src/queue/diffJob.js';
import { labelArticlesJob } from '../../../src/queue/labelJob.js';
import { parseRevisionsJob, type ParseBatch, type ParsedBatch } from '../../../src/queue/parseJob.js';
import { articleSentencesJob } from '../../../src/queue/sentenceJob.js';
import { ThreadRunner } from '../../../src/queue/threadRunner.js';
import { readDump } from '../../../src/sources/dumpReader.js';
import { withCode } from '../../support/errorCodes.js';

const runner = new ThreadRunner(2);
afterAll(() => runner.close());
const inProcess = new InProcessRunner({ models: () => Promise.reject(new Error('no models expected')) });

async function sampleBatches(): Promise<ParseBatch[]> {
  const revisions: ParseBatch['revisions'] = [];
  for await (const event of readDump(Readable.from([readFileSync(SAMPLE_DUMP)]))) {
    if (event.kind === 'revision') revisions.push({ pageId: event.page.pageId, revId: event.revision.revId, text: event.revision.text, firstParagraph: revisions.length % 3 === 0 });
  }
  return Array.from({ length: Math.ceil(revisions.length / 7) }, (_, k) => ({ revisions: revisions.slice(7 * k, 7 * k + 7) }));
}

describe('ThreadRunner', () => {
  it('parses the sample on two threads as in process, each result handed over once with its index', async () => {
    const batches = await sampleBatches();
    expect(batches.length).toBeGreaterThan(5);
    const onThreads: Array<[number, ParsedBatch]> = [];
    await runner.run(parseRevisionsJob, batches, (output, index) => onThreads.push([index, output]));
    const here: Array<[number, ParsedBatch]> = [];
    await inProcess.run(parseRevisionsJob, batches, (output, index) => here.push([index, output]));
    expect(onThreads.map(([index]) => index).sort((a, b) => a - b)).toEqual(batches.map((_, index) => index));
    expect(onThreads.sort(([a], [b]) => a - b)).toEqual(here);
    expect(here.flatMap(([, output]) => output.revisions).filter((revision) => revision.infoboxes.length > 0).length).toBeGreaterThan(20);
  });

  it('fails a call on a batch its kind refuses, with the reason, starting no batch after it; the threads go on with the next call', async () => {
    const batches = await sampleBatches();
    const bad = { revisions: [{ pageId: 'one', revId: 1, text: 'x', firstParagraph: false }] } as unknown as ParseBatch;
    const handed: number[] = [];
    // Every batch behind the refused one: on a loaded machine the other thread may finish a few before the refusal is read, never all.
    await expect(runner.run(parseRevisionsJob, [bad, ...batches], (_output, index) => handed.push(index))).rejects.toThrow(/expected number/);
    expect(handed.length).toBeLessThan(batches.length);
    const again: number[] = [];
    await runner.run(parseRevisionsJob, batches.slice(0, 2), (_output, index) => again.push(index));
    expect(again.sort()).toEqual([0, 1]);
  });

  it('runs the diff job, and names a kind it does not run', async () => {
    const diffed = await new Promise<unknown>((resolve, reject) => {
      runner.run(diffPagesJob, [{ window: { start: '2025-01-06T00:00:00Z', end: '2025-01-13T00:00:00Z' }, revertHours: 48, pages: [] }], resolve).catch(reject);
    });
    expect(diffed).toEqual({ pages: [] });
    await expect(runner.run(labelArticlesJob, [{ thresholds: {}, pairs: [] }], () => undefined)).rejects.toThrow('batch threads do not run label-articles jobs');
  });

  it('fails a call whose batch kills its thread, on one thread with batches waiting, and runs the next calls on a new thread', { timeout: 30_000 }, async () => {
    const single = new ThreadRunner(1);
    try {
      const batches = await sampleBatches();
      // A request the thread cannot read throws outside any batch's computation, so the thread dies as on running out of memory.
      const killing = { ...parseRevisionsJob, name: 7 as unknown as string };
      const beside: number[] = [];
      const besideCall = single.run(parseRevisionsJob, batches.slice(0, 3), (_output, index) => beside.push(index));
      await expect(single.run(killing, batches.slice(0, 4), () => undefined)).rejects.toThrow(/^batch thread failed: /);
      await besideCall;
      expect(beside.sort()).toEqual([0, 1, 2]);
      const after: number[] = [];
      await single.run(parseRevisionsJob, batches.slice(0, 2), (_output, index) => after.push(index));
      expect(after.sort()).toEqual([0, 1]);
    } finally {
      await single.close();
    }
  });

  it('fails a run whose page outgrows a thread\'s heap with one line naming the page and the setting, and parses the next call on a new thread', { timeout: 60_000 }, async () => {
    const single = new ThreadRunner(1);
    try {
      // About 96 MB of wikitext: past the default heap once the parse copies it, yet smaller than the heap, which a text must be to reach the thread at all (docs/SCALE.md).
      const text = `{{Infobox settlement\n| population = 1\n}}\n${'lorem [[ipsum]] {{x|y}} '.repeat(4_000_000)}`;
      const huge = { revisions: [{ pageId: 42, revId: 7, text, firstParagraph: true }] };
      await expect(single.run(parseRevisionsJob, [huge], () => undefined)).rejects.toThrow(withCode('E_THREAD_OUT_OF_MEMORY', /batch thread ran out of its 256 MB heap on page 42 \(revision 7\): raise threadHeapMb/));
      const after: number[] = [];
      await single.run(parseRevisionsJob, (await sampleBatches()).slice(0, 2), (_output, index) => after.push(index));
      expect(after.sort()).toEqual([0, 1]);
    } finally {
      await single.close();
    }
  });

  it('stops a thread past the deadline the call gives, failing the batch with one line naming it and the setting, and cuts the next article on a new thread', { timeout: 60_000 }, async () => {
    const single = new ThreadRunner(1);
    try {
      // An unclosed comment over 100,000 words: wtf_wikipedia takes seconds on it, growing with the square of its length.
      const slow = { title: 'Unclosed', wikitext: `Start. <!-- ${'word '.repeat(100_000)}` };
      await expect(single.run(articleSentencesJob, [slow], () => undefined, { deadlineMs: 300 })).rejects.toThrow(
        withCode('E_THREAD_TOO_SLOW', /^a batch thread took more than 0\.3 s on the article "Unclosed": stopped \(parseDeadlineSeconds, WIKIDELTA_PARSE_DEADLINE_SECONDS\)$/),
      );
      let sentences: unknown;
      await single.run(articleSentencesJob, [{ title: 'Plain', wikitext: 'Plain Town is a town. It has a river.' }], (output) => (sentences = output), { deadlineMs: 30_000 });
      expect(sentences).toEqual([
        { index: 0, paragraph: 0, text: 'Plain Town is a town.' },
        { index: 1, paragraph: 0, text: 'It has a river.' },
      ]);
    } finally {
      await single.close();
    }
  });

  it('fails a call under way when the runner is closed, batches still waiting included, instead of leaving it waiting', async () => {
    const single = new ThreadRunner(1);
    const batches = await sampleBatches();
    const call = single.run(parseRevisionsJob, batches, () => undefined);
    await single.close();
    await expect(call).rejects.toThrow(/closed|stopped/);
  });

  it('stops its threads after an idle spell, giving their heaps back, and starts new ones for the next call', { timeout: 30_000 }, async () => {
    const idle = new ThreadRunner(2, undefined, 200);
    try {
      const batches = (await sampleBatches()).slice(0, 4);
      const first: ParsedBatch[] = [];
      await idle.run(parseRevisionsJob, batches, (output) => first.push(output));
      // Still up between the calls of a stage, which follow each other at once.
      expect(idle.threadsUp).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(idle.threadsUp).toBe(0);
      const again: ParsedBatch[] = [];
      await idle.run(parseRevisionsJob, batches, (output) => again.push(output));
      expect(idle.threadsUp).toBe(2);
      expect(again).toHaveLength(batches.length);
      expect(new Set(again.map((output) => JSON.stringify(output)))).toEqual(new Set(first.map((output) => JSON.stringify(output))));
    } finally {
      await idle.close();
    }
  });
});

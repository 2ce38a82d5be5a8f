/**
 * The chosen embedder run in a pool of worker threads, one per core by default (`--embed-threads`),
 * behind the same `Embedder` interface: ONNX Runtime (with one thread per call) and TensorFlow.js's
 * WebAssembly backend each keep a model call on one thread, so a month's sentences are split
 * across threads (docs/ARCHITECTURE.md §11). Each worker builds the same model from the same
 * ModelChoice; since a text's vector does not depend on the texts embedded with it, the pool
 * returns the in-thread embedder's vectors. The same threads read sentences' facts (compromise's
 * parse, the labeler's other heavy work) for the labeling thread, as a `FactReader`.
 */
import { z } from 'zod';
import { RequestThread, siblingModule } from '../requestThread.js';
import { FactSchema, type Fact, type FactReader } from '../text/facts.js';
import type { ModelChoice } from './choose.js';
import type { Embedder } from './embedder.js';

/** What a thread is asked: the texts' vectors, or their facts. */
type ThreadTask = 'embed' | 'facts';

const ThreadReply = z.union([
  z.object({ id: z.number().int(), vectors: z.array(z.instanceof(Float32Array)) }),
  z.object({ id: z.number().int(), facts: z.array(z.array(FactSchema)) }),
  z.object({ id: z.number().int(), error: z.string() }),
]);
type Answer = { vectors: Float32Array[] } | { facts: Fact[][] };

/**
 * Texts go out sorted by length so that a job's texts share token counts (the model's calls group
 * by them): a large call in jobs of at least MIN_JOB, JOBS_PER_THREAD per thread so that a slow job
 * does not hold the rest; a small one (the labeler embeds an article's gaps at a time) split
 * evenly, so that every thread takes part.
 */
const MIN_JOB = 16;
const JOBS_PER_THREAD = 4;

function jobSize(texts: number, threads: number): number {
  return Math.max(Math.ceil(texts / (threads * JOBS_PER_THREAD)), Math.min(MIN_JOB, Math.ceil(texts / threads)));
}

const THREAD_ENTRY = siblingModule('embedWorker', import.meta.url);

async function ask(thread: RequestThread, task: ThreadTask, texts: readonly string[]): Promise<Answer> {
  const reply = ThreadReply.parse(await thread.request({ task, texts }));
  if ('error' in reply) throw new Error(`embedding worker: ${reply.error}`);
  return reply;
}

export class WorkerEmbedder implements Embedder, FactReader {
  readonly id: string;
  readonly sameThreshold: number;
  private threads: RequestThread[] = [];
  private closed = false;

  /**
   * `inThread` is the embedder `choice` builds in this thread (src/models/choose.ts): its id and
   * threshold are the pool's, so a run records the same model whether or not it used the pool.
   */
  constructor(
    inThread: Embedder,
    private readonly choice: ModelChoice,
    readonly threadCount: number,
  ) {
    if (!Number.isInteger(threadCount) || threadCount < 1) throw new Error(`thread count must be a positive integer, got ${threadCount}`);
    this.id = inThread.id;
    this.sameThreshold = inThread.sameThreshold;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return this.spread('embed', texts, (answer) => ('vectors' in answer ? answer.vectors : []));
  }

  async readFacts(texts: readonly string[]): Promise<Fact[][]> {
    return this.spread('facts', texts, (answer) => ('facts' in answer ? answer.facts : []));
  }

  /** The texts cut into jobs over the threads, and each text's answer in the texts' order. */
  private async spread<T>(task: ThreadTask, texts: readonly string[], pick: (answer: Answer) => T[]): Promise<T[]> {
    if (this.closed) throw new Error('embedding pool closed');
    if (texts.length === 0) return [];
    // A thread that died failed the call it served; the next call gets a new one in its place.
    const threads = Array.from({ length: this.threadCount }, (_, slot) => {
      const thread = this.threads[slot];
      return thread && !thread.failed ? thread : new RequestThread('embedding worker', THREAD_ENTRY, { workerData: this.choice });
    });
    this.threads = threads;
    const order = texts.map((_, k) => k).sort((a, b) => (texts[a] as string).length - (texts[b] as string).length);
    const size = jobSize(order.length, threads.length);
    const jobs: number[][] = [];
    for (let at = 0; at < order.length; at += size) jobs.push(order.slice(at, at + size));
    const answers = new Array<T>(texts.length);
    let next = 0;
    await Promise.all(
      threads.map(async (thread) => {
        while (next < jobs.length) {
          const job = jobs[next++] as number[];
          const got = pick(await ask(thread, task, job.map((k) => texts[k] as string)));
          if (got.length !== job.length) throw new Error(`embedding worker answered ${got.length} of ${job.length} texts (${task})`);
          job.forEach((k, i) => (answers[k] = got[i] as T));
        }
      }),
    );
    return answers;
  }

  /** Stops the worker threads; the pool cannot embed afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread.terminate()));
  }
}

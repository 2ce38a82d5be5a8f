/**
 * The BatchRunner of a weekly run without `--queue` (docs/ARCHITECTURE.md §13): the batches run on
 * worker threads of this process, one per core, while this thread reads the source and writes the
 * store, so one process uses both cores. Each thread runs the job kinds' pure computations
 * (threadWorker.ts), exactly as a queue worker would, so results do not depend on where they ran.
 * Idle threads do not keep the process alive.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { BatchRunner, JobKind } from './batchRunner.js';

const ThreadReply = z.union([z.object({ id: z.number().int(), output: z.unknown() }), z.object({ id: z.number().int(), error: z.string() })]);

/** V8's default for a thread is three times larger; measured on the simulated week, it cost about 70 MB per thread for no speed. */
const YOUNG_GENERATION_MB = 16;

interface Task {
  kind: JobKind<unknown, unknown>;
  batch: unknown;
  done: (output: unknown) => void;
  failed: (error: Error) => void;
  /** Whether the call it belongs to has failed already: then it is not started. */
  abandoned: () => boolean;
}

class BatchThread {
  private readonly worker: Worker;
  private task: { id: number; task: Task } | null = null;
  private nextId = 0;
  private failure: Error | null = null;

  constructor(private readonly idle: (thread: BatchThread) => void) {
    // Under the test runner and tsx this module is TypeScript; its worker is too, loaded through tsx.
    const typescript = import.meta.url.endsWith('.ts');
    const entry = new URL(typescript ? './threadWorker.ts' : './threadWorker.js', import.meta.url);
    // A parse allocates much and briefly: a smaller young generation keeps each thread's resident memory down (docs/SCALE.md).
    const resourceLimits = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
    this.worker = typescript
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true, resourceLimits })
      : new Worker(entry, { resourceLimits });
    this.worker.on('message', (raw: unknown) => this.answer(raw));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`batch thread stopped (exit code ${code})`)));
    this.worker.unref();
  }

  get busy(): boolean {
    return this.task !== null;
  }

  start(task: Task): void {
    if (this.failure) {
      task.failed(this.failure);
      return;
    }
    const id = this.nextId++;
    this.task = { id, task };
    this.worker.ref();
    this.worker.postMessage({ id, kind: task.kind.name, batch: task.batch });
  }

  terminate(): Promise<number> {
    this.failure ??= new Error('batch threads closed');
    return this.worker.terminate();
  }

  private answer(raw: unknown): void {
    const reply = ThreadReply.parse(raw);
    const current = this.task;
    if (current === null || current.id !== reply.id) return;
    this.release();
    if ('error' in reply) current.task.failed(new Error(reply.error));
    else current.task.done(reply.output);
    this.idle(this);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const current = this.task;
    this.release();
    current?.task.failed(this.failure);
  }

  private release(): void {
    this.task = null;
    this.worker.unref();
  }
}

export class ThreadRunner implements BatchRunner {
  private threads: BatchThread[] | null = null;
  private readonly waiting: Task[] = [];

  constructor(readonly threadCount = availableParallelism()) {
    if (!Number.isInteger(threadCount) || threadCount < 1) throw new Error(`thread count must be a positive integer, got ${threadCount}`);
  }

  /**
   * Hands each batch to the next idle thread, batches of every call in the order they came, and
   * each result to `onResult` here. A batch is checked against its kind's schema in the thread; a
   * result, this program's own computation handed over within the process, is not checked again
   * (the check of a parse batch's infoboxes cost the writing thread as much as the writing).
   * A failure starts no further batch of the call and is thrown once those under way have ended.
   */
  async run<Data, Output>(kind: JobKind<Data, Output>, batches: readonly Data[], onResult: (output: Output, index: number) => void): Promise<void> {
    let failure: { error: unknown } | null = null;
    const settled = batches.map(
      (batch, index) =>
        new Promise<void>((resolve) => {
          this.waiting.push({
            kind: kind as unknown as JobKind<unknown, unknown>,
            batch,
            done: (output) => {
              try {
                if (!failure) onResult(output as Output, index);
              } catch (error) {
                failure ??= { error };
              }
              resolve();
            },
            failed: (error) => {
              failure ??= { error };
              resolve();
            },
            abandoned: () => failure !== null,
          });
        }),
    );
    this.dispatch();
    await Promise.all(settled);
    if (failure) throw (failure as { error: unknown }).error;
  }

  /** Stops the threads; the runner cannot run batches afterwards. */
  async close(): Promise<void> {
    const threads = this.threads ?? [];
    this.threads = [];
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  private dispatch(): void {
    this.threads ??= Array.from({ length: this.threadCount }, () => new BatchThread(() => this.dispatch()));
    for (const thread of this.threads) {
      if (thread.busy) continue;
      let task = this.waiting.shift();
      while (task?.abandoned()) {
        task.done(undefined);
        task = this.waiting.shift();
      }
      if (!task) return;
      thread.start(task);
    }
  }
}

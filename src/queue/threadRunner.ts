/**
 * The BatchRunner of a weekly run without `--queue` (docs/ARCHITECTURE.md §13): the batches run on
 * worker threads of this process, one per core, while this thread reads the source and writes the
 * store, so one process uses both cores. Each thread runs the job kinds' pure computations
 * (threadWorker.ts), exactly as a queue worker would, so results do not depend on where they ran.
 * Idle threads do not keep the process alive and are stopped after a few seconds (their heaps given
 * back), and a thread that dies is replaced; either way the next batch starts a new one.
 */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { fromCarried, UserError } from '../errors.js';
import { RequestThread, siblingModule } from '../requestThread.js';
import { DEFAULT_THREAD_HEAP_MB } from '../settings.js';
import type { BatchRunner, JobKind } from './batchRunner.js';

const ThreadReply = z.union([z.object({ id: z.number().int(), output: z.unknown() }), z.object({ id: z.number().int(), error: z.string() })]);

/** V8's default for a thread is three times larger; measured on the simulated week, it cost about 70 MB per thread for no speed. */
const YOUNG_GENERATION_MB = 16;

/**
 * How long the threads stay idle before they are stopped, giving their heaps back: a thread's heap
 * holds what its last batches left (the two gave back 370 MB after the simulated week's diff), and
 * the week's timeline, which runs on this thread alone, made the run's peak on top of theirs. The
 * next batch starts new threads (a few hundred milliseconds), far less often than this.
 */
const IDLE_THREADS_MS = 3000;

/** Under the test runner and tsx this module is TypeScript; its worker is too. */
const THREAD_ENTRY = siblingModule('threadWorker', import.meta.url);

interface Task {
  kind: JobKind<unknown, unknown>;
  batch: unknown;
  /** Past this, the thread is stopped and the batch fails (`E_THREAD_TOO_SLOW`); absent: no limit. */
  deadlineMs?: number;
  done: (output: unknown) => void;
  failed: (error: Error) => void;
  /** Whether the call it belongs to has failed already: then it is not started. */
  abandoned: () => boolean;
}

function batchThread(heapMb: number): RequestThread {
  // A parse allocates much and briefly: a smaller young generation keeps each thread's resident memory down (docs/SCALE.md).
  return new RequestThread('batch thread', THREAD_ENTRY, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: heapMb } });
}

/** A thread that died of its heap limit on a batch: the user's problem to solve with the setting, said in one line. */
function outOfMemory(error: Error, kind: JobKind<unknown, unknown>, batch: unknown, heapMb: number): Error {
  if ((error.cause as { code?: unknown } | undefined)?.code !== 'ERR_WORKER_OUT_OF_MEMORY') return error;
  const what = kind.describe?.(batch) ?? `a ${kind.name} batch`;
  return new UserError('E_THREAD_OUT_OF_MEMORY', `a batch thread ran out of its ${heapMb} MB heap on ${what}: raise threadHeapMb (WIKIDELTA_THREAD_HEAP_MB)`);
}

function tooSlow(task: Task): Error {
  const what = task.kind.describe?.(task.batch) ?? `a ${task.kind.name} batch`;
  return new UserError('E_THREAD_TOO_SLOW', `a batch thread took more than ${(task.deadlineMs ?? 0) / 1000} s on ${what}: stopped (parseDeadlineSeconds, WIKIDELTA_PARSE_DEADLINE_SECONDS)`);
}

/** The batch threads of a run that names no count: one per core, as this thread mostly waits on them. */
export function defaultThreadCount(): number {
  return availableParallelism();
}

/** This process's batch runners, by count and heap: kept for the process's later runs (their threads stop when idle). */
const sharedRunners = new Map<string, ThreadRunner>();

/** The process's batch threads of `count` threads with `heapMb` each, started with the first batch and kept for later runs. */
export function sharedThreadRunner(count = defaultThreadCount(), heapMb = DEFAULT_THREAD_HEAP_MB): ThreadRunner {
  const key = `${count}/${heapMb}`;
  let runner = sharedRunners.get(key);
  if (!runner) sharedRunners.set(key, (runner = new ThreadRunner(count, heapMb)));
  return runner;
}

export class ThreadRunner implements BatchRunner {
  private threads: RequestThread[] | null = null;
  private readonly waiting: Task[] = [];
  private closed = false;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly threadCount = defaultThreadCount(),
    private readonly heapMb = DEFAULT_THREAD_HEAP_MB,
    private readonly idleMs = IDLE_THREADS_MS,
  ) {
    if (!Number.isInteger(threadCount) || threadCount < 1) throw new Error(`thread count must be a positive integer, got ${threadCount}`);
  }

  /** How many threads are up: none before the first batch and after an idle spell, else `threadCount`. */
  get threadsUp(): number {
    return this.threads?.length ?? 0;
  }

  /**
   * Hands each batch to the next idle thread, batches of every call in the order they came, and
   * each result to `onResult` here. A batch is checked against its kind's schema in the thread; a
   * result, this program's own computation handed over within the process, is not checked again
   * (the check of a parse batch's infoboxes cost the writing thread as much as the writing).
   * A failure starts no further batch of the call and is thrown once those under way have ended.
   */
  async run<Data, Output>(
    kind: JobKind<Data, Output>,
    batches: readonly Data[],
    onResult: (output: Output, index: number) => void,
    options: { deadlineMs?: number } = {},
  ): Promise<void> {
    if (this.closed) throw new Error('batch threads closed');
    let failure: { error: unknown } | null = null;
    const settled = batches.map(
      (batch, index) =>
        new Promise<void>((resolve) => {
          this.waiting.push({
            kind: kind as unknown as JobKind<unknown, unknown>,
            batch,
            ...options,
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

  /** Stops the threads; the runner cannot run batches afterwards, and the calls under way fail rather than wait. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const threads = this.threads ?? [];
    this.threads = [];
    for (const task of this.waiting.splice(0)) task.failed(new Error('batch threads closed'));
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  /**
   * A thread that died failed the batch it held, so that batch's call; it is replaced before it
   * is given another batch, so batches of other calls and later calls run on, and since a new
   * thread is started only for a waiting batch, a thread that cannot start fails each call once.
   */
  private dispatch(): void {
    clearTimeout(this.idleTimer);
    this.threads ??= Array.from({ length: this.threadCount }, () => batchThread(this.heapMb));
    for (const [slot, current] of this.threads.entries()) {
      if (current.inFlight > 0) continue;
      let task = this.waiting.shift();
      while (task?.abandoned()) {
        task.done(undefined);
        task = this.waiting.shift();
      }
      if (!task) break;
      const thread = current.failed ? (this.threads[slot] = batchThread(this.heapMb)) : current;
      this.start(thread, task);
    }
    if (this.threads.every((thread) => thread.inFlight === 0)) {
      this.idleTimer = setTimeout(() => this.stopIdleThreads(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  /** Stops the threads while none has a batch; the next batch starts new ones. */
  private stopIdleThreads(): void {
    const threads = this.threads ?? [];
    if (threads.some((thread) => thread.inFlight > 0)) return;
    this.threads = null;
    for (const thread of threads) void thread.terminate();
  }

  private start(thread: RequestThread, task: Task): void {
    // A batch past its deadline stops its thread: a synchronous parse cannot be asked to stop, and the dead thread is replaced.
    let late = false;
    const deadline =
      task.deadlineMs === undefined
        ? undefined
        : setTimeout(() => {
            late = true;
            void thread.terminate();
          }, task.deadlineMs);
    thread
      .request({ kind: task.kind.name, batch: task.batch })
      .then((raw) => {
        const reply = ThreadReply.parse(raw);
        if ('error' in reply) throw fromCarried(reply.error);
        task.done(reply.output);
      })
      .catch((error: Error) => task.failed(late ? tooSlow(task) : outOfMemory(error, task.kind, task.batch, this.heapMb)))
      .finally(() => {
        clearTimeout(deadline);
        this.dispatch();
      });
  }
}

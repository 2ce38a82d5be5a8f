/**
 * One worker thread that answers requests by id, shared by the weekly batch threads
 * (src/queue/threadRunner.ts) and the embedding pool (src/models/workerEmbedder.ts). A thread that
 * fails (an uncaught error, running out of memory, an exit) fails every request it holds with one
 * line naming the thread, and every later one: its owner sees `failed` and starts a new thread, so
 * a dead thread never leaves a caller waiting nor fails the process's later calls.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { z } from 'zod';

const Reply = z.looseObject({ id: z.number().int() });

interface Pending {
  resolve: (reply: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The module `name` beside the module at `base` (its `import.meta.url`) as a thread's entry: the
 * compiled `.js` beside compiled code, the `.ts` beside TypeScript (under the test runner and tsx).
 *
 * @example siblingModule('threadWorker', import.meta.url) // …/src/queue/threadWorker.ts under tsx
 */
export function siblingModule(name: string, base: string): URL {
  return new URL(`./${name}.${base.endsWith('.ts') ? 'ts' : 'js'}`, base);
}

/**
 * A worker thread running the module `entry`: compiled JavaScript as it is, TypeScript (under the
 * test runner and tsx) through tsx's loader, registered in the thread before the module is imported.
 */
export function startThread(entry: URL, options: WorkerOptions = {}): Worker {
  return entry.pathname.endsWith('.ts')
    ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { ...options, eval: true })
    : new Worker(entry, options);
}

export class RequestThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | null = null;

  /** `name` opens the thread's errors (`batch thread failed: …`); `entry` is its module, TypeScript under the test runner and tsx. */
  constructor(
    private readonly name: string,
    entry: URL,
    options: WorkerOptions = {},
  ) {
    this.worker = startThread(entry, options);
    this.worker.on('message', (raw: unknown) => this.answer(raw));
    this.worker.on('error', (error) => this.fail(new Error(`${name} failed: ${error.message || error.name}`, { cause: error })));
    this.worker.on('exit', (code) => this.fail(new Error(`${name} stopped (exit code ${code})`)));
    // An idle thread does not keep the process alive; a request in flight does. After the
    // listeners, since listening for messages refs the worker again.
    this.worker.unref();
  }

  /** Whether the thread has died or been closed: it answers nothing more. */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** Requests sent and not answered yet. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Sends `{ id, ...request }`; resolves with the reply carrying that id, unchecked beyond its id (the owner parses it). */
  request(request: object): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      try {
        this.worker.postMessage({ id, ...request });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
    });
  }

  terminate(): Promise<number> {
    this.failure ??= new Error(`${this.name} closed`);
    return this.worker.terminate();
  }

  private answer(raw: unknown): void {
    const { id } = Reply.parse(raw);
    const pending = this.pending.get(id);
    if (!pending) return;
    this.settled(id);
    pending.resolve(raw);
  }

  /** The first error is the one that names the cause (an 'error' event comes before its 'exit'). */
  private fail(error: Error): void {
    this.failure ??= error;
    for (const [id, pending] of this.pending) {
      this.settled(id);
      pending.reject(this.failure);
    }
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }
}

/**
 * How a pipeline stage hands its CPU-heavy work out (docs/ARCHITECTURE.md §13): the stage cuts the
 * work into batches of one job kind and gets each batch's result back in the process that owns the
 * store, which alone writes it. The stage never knows where a batch ran: in this process (the
 * default) or on a worker of the BullMQ queue (`--queue`), so its code is the same either way.
 */
import type { z } from 'zod';
import type { LabelerModels } from '../labels/labeler.js';
import type { GrowoverTasks } from '../llm/growoverTasks.js';

/** What a computation may use besides its data: built once per process (a worker: per model choice). */
export interface ComputeEnv {
  models(): Promise<LabelerModels>;
  /** GrowOVER's LLM tasks (a worker: for the LLM choice the job carries); absent where no job generates items. */
  growoverTasks?(): GrowoverTasks;
}

/**
 * One kind of batch job: its name (the BullMQ job name a worker looks it up by), the shape of its
 * data and of its result (checked at the queue boundary both ways) and the pure computation.
 */
export interface JobKind<Data, Output> {
  readonly name: string;
  readonly data: z.ZodType<Data>;
  readonly output: z.ZodType<Output>;
  compute(data: Data, env: ComputeEnv): Promise<Output>;
  /** What a batch holds, in words for an error about it (`pages 12, 15 (4 revisions)`); absent: the kind's name. */
  describe?(data: Data): string;
  /**
   * What a result leaves out of its batch or adds to it, in words (`page 12 missing`); null when it
   * answers the batch exactly. A worker's result is checked with it before it is written: a well-formed
   * result for fewer pages would leave the stage done without them, one for others would overwrite theirs.
   */
  unanswered?(data: Data, output: Output): string | null;
}

/**
 * What a result's keys leave out of the batch's or add to them, in words; null when both hold the
 * same keys as often. `name` says a key in words: `revision 7 of page 3`.
 */
export function keysUnanswered<Key>(asked: readonly Key[], answered: readonly Key[], name: (key: Key) => string): string | null {
  const left = new Map<string, { key: Key; count: number }>();
  for (const key of asked) {
    const id = JSON.stringify(key);
    left.set(id, { key, count: (left.get(id)?.count ?? 0) + 1 });
  }
  for (const key of answered) {
    const entry = left.get(JSON.stringify(key));
    if (!entry || entry.count === 0) return `${name(key)} not in the batch`;
    entry.count--;
  }
  const missing = [...left.values()].find((entry) => entry.count > 0);
  return missing ? `${name(missing.key)} missing` : null;
}

export interface BatchRunner {
  /**
   * Computes every batch and hands each result, with its batch's index, to `onResult` in this
   * process, once per batch, in any order; resolves when every batch is done, rejects when one
   * failed past its retries.
   */
  run<Data, Output>(kind: JobKind<Data, Output>, batches: readonly Data[], onResult: (output: Output, index: number) => void): Promise<void>;
}

/**
 * Runs the batches here with the models the command built, `concurrency` at a time (in the batches'
 * order): while one batch waits for the embedder, another one's CPU work goes on, and their
 * embedder calls meet in larger model calls. A failure starts no further batch and is thrown once
 * those under way have ended.
 */
export class InProcessRunner implements BatchRunner {
  constructor(
    private readonly env: ComputeEnv,
    private readonly concurrency = 1,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a positive integer, got ${concurrency}`);
  }

  async run<Data, Output>(kind: JobKind<Data, Output>, batches: readonly Data[], onResult: (output: Output, index: number) => void): Promise<void> {
    let next = 0;
    let failure: { error: unknown } | null = null;
    const lane = async () => {
      while (!failure && next < batches.length) {
        const index = next++;
        try {
          onResult(await kind.compute(batches[index] as Data, this.env), index);
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, batches.length) }, lane));
    if (failure) throw (failure as { error: unknown }).error;
  }
}

/** Cuts items into consecutive batches of at most `size`. */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

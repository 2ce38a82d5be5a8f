/**
 * The worker loop of `wikidelta worker` (docs/ARCHITECTURE.md §13): takes batch jobs from the
 * BullMQ queue and runs their pure computation on the job's data, returning the result to the
 * owner of the store. It never opens the store. Models are built once per model choice and kept
 * (the default ones before the first job), so a worker pays for loading them once. A job's
 * failure reason carries its error's code (`CODE: line`), for the owner's line and the worker's
 * summary.
 */
import { UnrecoverableError, Worker, type Job, type JobJsonRaw } from 'bullmq';
import { chooseModels, ModelChoiceSchema } from '../models/choose.js';
import { CachingEmbedder } from '../models/embedder.js';
import { carried, codeOf, oneLine, parseCarried, RemoteError, type ErrorCode } from '../errors.js';
import { factsOf } from '../text/facts.js';
import type { Models } from '../models/modelSet.js';
import type { ComputeEnv, JobKind } from './batchRunner.js';
import { ownerKey, STAGE_JOB, type QueueJudge } from './bullmqRunner.js';
import { parseQueueUrl, QUEUE_NAME, requireReachable } from './connection.js';
import { diffPagesJob } from './diffJob.js';
import { tallyCodes, type CodeCount } from './failedJobs.js';
import { readDumpJob } from './dumpJob.js';
import { generateArticleJob } from './generateJob.js';
import { LlmChoiceSchema, workerTasksFor, type LlmChoice } from './llmChoice.js';
import { labelArticlesJob } from './labelJob.js';
import { parseRevisionsJob } from './parseJob.js';
import { nextTurn } from './nextTurn.js';
import { z } from 'zod';

/** Every job kind a worker runs, by name. */
const jobKinds: ReadonlyMap<string, JobKind<unknown, unknown>> = new Map(
  [labelArticlesJob, parseRevisionsJob, diffPagesJob, generateArticleJob, readDumpJob].map((kind) => [kind.name, kind as unknown as JobKind<unknown, unknown>]),
);

const Envelope = z.object({
  index: z.number().int().nonnegative(),
  // Absent from the jobs of an older wikidelta's owner: those are computed as before.
  owner: z.string().optional(),
  batch: z.unknown(),
  models: ModelChoiceSchema,
  judge: z.enum(['none', 'llm']),
  llm: LlmChoiceSchema,
});

/** Texts embedded, and pairs classified, between two turns of the event loop. */
const TEXTS_PER_TURN = 16;
const PAIRS_PER_TURN = 64;

/** Runs `call` on consecutive parts of `items`, giving the event loop a turn before each part. */
async function inTurns<T, R>(items: readonly T[], size: number, call: (part: readonly T[]) => Promise<R[]>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    await nextTurn();
    results.push(...(await call(items.slice(start, start + size))));
  }
  return results;
}

/**
 * The models, giving the event loop a turn every few texts: labeling a long article is CPU work of
 * minutes, and a loop blocked past the lock's duration loses the job's lock, so the job is taken
 * again while still running (the work done twice, the speedup gone). A text's vector does not
 * depend on the texts embedded with it (docs/ARCHITECTURE.md §11), so the parts change nothing.
 */
function takingTurns(models: Models): Models {
  const { embedder, nli } = models;
  return {
    embedder: { id: embedder.id, sameThreshold: embedder.sameThreshold, embed: (texts) => inTurns(texts, TEXTS_PER_TURN, (part) => embedder.embed(part)) },
    nli: { id: nli.id, classify: (pairs) => inTurns(pairs, PAIRS_PER_TURN, (part) => nli.classify(part)) },
  };
}

/** `make`, called once per distinct choice (compared by value) and remembered. */
function byChoice<Choice, Made>(make: (choice: Choice) => Made): (choice: Choice) => Made {
  const made = new Map<string, Made>();
  return (choice) => {
    const key = JSON.stringify(choice);
    if (!made.has(key)) made.set(key, make(choice));
    return made.get(key) as Made;
  };
}

export interface WorkerOptions {
  queueUrl: string;
  /** Jobs run at once by this process (CPU-bound work: one per core, in separate processes, is better). */
  concurrency: number;
  /**
   * How long a job stays claimed by a worker that stopped renewing its lock (killed, or its machine
   * gone) before stalled-job detection hands it to another worker.
   */
  lockMs: number;
  onEvent?: (event: WorkerEvent) => void;
}

export interface WorkerEvent {
  /** `error`: the worker's own trouble outside any job's code (a job it cannot read), `detail` its line. */
  kind: 'active' | 'completed' | 'failed' | 'error';
  job: string;
  /** Of a failure: its line. */
  detail?: string;
  /** Of a batch job's failure: its error's code. */
  code?: ErrorCode;
  /** Of a failure: whether the job is failed for good (no attempt left) rather than retried. */
  final?: boolean;
}

/** What a worker did over its life: batch jobs completed, and those failed for good by their errors' codes. */
export interface WorkerSummary {
  completed: number;
  failed: CodeCount[];
}

export interface RunningWorker {
  /**
   * Stops taking jobs and says what the worker did. It waits for the running jobs to finish, unless
   * `now` or the queue server cannot be reached: then a running job's result could not be handed
   * back anyway (BullMQ would wait for the server for ever), and its lock runs out so that another
   * worker takes it.
   */
  close(options?: { now?: boolean }): Promise<WorkerSummary>;
}

/**
 * The codes of a job's input itself (the dump's bytes, a page's wikitext): another attempt reads the
 * same input and fails the same way, so the job fails for good at once instead of after its retries'
 * back-off. A missing decompressor or file, a thread's heap or a prompt template belong to the
 * worker's machine and installation, and another worker may have them: those are retried.
 */
const INPUT_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['E_DUMP_EMPTY', 'E_DUMP_TRUNCATED', 'E_DUMP_NOT_MEDIAWIKI', 'E_DUMP_MALFORMED', 'E_DUMP_CORRUPT', 'E_DUMP_CHANGED', 'E_WIKITEXT_TOO_DEEP']);

/**
 * A worker that reads a job whose data is not JSON (written by hand, or damaged in Redis) as a job
 * holding `null`, so the job's own check fails it for good with one line. BullMQ parses the data
 * before the processor runs: the parse error came out as a worker error, and the job went back to
 * the queue after each lock, to be taken and fail again every `--lock-ms` for as long as the
 * worker ran.
 */
class JobReadingWorker extends Worker {
  protected override createJob(raw: JobJsonRaw, jobId: string): Job {
    try {
      return super.createJob(raw, jobId);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return super.createJob({ ...raw, data: 'null' }, jobId);
    }
  }
}

/** A job no worker should take again: its owner is gone, or no worker of this version can read it. */
const FINAL_QUEUE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['E_QUEUE_OWNER_GONE', 'E_QUEUE_JOB_INVALID']);

/** The error a job fails with: its reason `CODE: line`; BullMQ's no-retry class for broken input, and the stack BullMQ keeps, the error's own. */
function jobFailure(error: unknown): Error {
  const final = error instanceof UnrecoverableError || INPUT_CODES.has(codeOf(error)) || FINAL_QUEUE_CODES.has(codeOf(error));
  const failure = final ? new UnrecoverableError(carried(error)) : new Error(carried(error), { cause: error });
  if (error instanceof Error && error.stack !== undefined) failure.stack = error.stack;
  return failure;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const address = parseQueueUrl(options.queueUrl);
  await requireReachable(address);
  // An LLM choice's clients live as long as the worker: their concurrency and per-minute cap hold across jobs.
  const tasksFor = byChoice((choice: LlmChoice) => workerTasksFor(choice));
  // One embedding cache per model choice for the worker's life: sentences recur across batches.
  const modelsFor = byChoice(
    (choice: z.infer<typeof ModelChoiceSchema>): Promise<Models> =>
      chooseModels(choice)
        .then(takingTurns)
        .then((turnTaking) => ({ embedder: new CachingEmbedder(turnTaking.embedder), nli: turnTaking.nli })),
  );
  const envFor = (choice: z.infer<typeof ModelChoiceSchema>, judge: QueueJudge, llm: LlmChoice): ComputeEnv => ({
    growoverTasks: () => tasksFor(llm).growover,
    models: async () => ({ ...(await modelsFor(choice)), ...(judge === 'llm' ? { judge: tasksFor(llm).label } : {}) }),
  });
  // The default models, and compromise that reads sentences' facts, are loaded before the first
  // job, once for the worker's life, not inside some run's first job.
  const warmUp = 'The worker loads its three models in November.';
  await (await modelsFor({})).embedder.embed([warmUp]);
  factsOf(warmUp);
  const worker = new JobReadingWorker(
    QUEUE_NAME,
    async (job: Job) => {
      if (job.name === STAGE_JOB) return { done: true };
      try {
        const kind = jobKinds.get(job.name);
        if (!kind) throw new RemoteError('E_QUEUE_JOB_INVALID', `job ${job.id ?? ''} is of kind ${job.name}, which this worker does not run`);
        const envelope = Envelope.safeParse(job.data);
        const batch = envelope.success ? kind.data.safeParse(envelope.data.batch) : undefined;
        if (!envelope.success || !batch?.success) throw new RemoteError('E_QUEUE_JOB_INVALID', `job ${job.id ?? ''} of kind ${job.name} holds malformed data`);
        const { owner } = envelope.data;
        if (owner !== undefined && (await (await worker.client).get(worker.toKey(ownerKey(owner)))) === null) {
          throw new RemoteError('E_QUEUE_OWNER_GONE', `job ${job.id ?? ''}: the command that queued it is gone (killed or stopped), so its batch is not computed`);
        }
        return await kind.compute(batch.data, envFor(envelope.data.models, envelope.data.judge, envelope.data.llm));
      } catch (error) {
        throw jobFailure(error);
      }
    },
    {
      connection: { url: address.url, maxRetriesPerRequest: null },
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      maxStalledCount: 2,
    },
  );
  let completed = 0;
  // The codes only: a worker runs for months, and its summary counts them.
  const failedCodes: ErrorCode[] = [];
  // Without a listener BullMQ prints the error's stack over several lines, in the middle of a
  // worker's one-line (or JSON) log, every time it tries again.
  worker.on('error', (error) => options.onEvent?.({ kind: 'error', job: '', detail: oneLine(error) }));
  worker.on('active', (job) => options.onEvent?.({ kind: 'active', job: `${job.name} ${job.id ?? ''}` }));
  worker.on('completed', (job) => {
    if (job.name !== STAGE_JOB) completed += 1;
    options.onEvent?.({ kind: 'completed', job: `${job.name} ${job.id ?? ''}` });
  });
  worker.on('failed', (job, error) => {
    const name = job?.name ?? '';
    // BullMQ sets the finishing time only when it moves the job to failed, with no attempt left.
    const final = job?.finishedOn !== undefined;
    // A stage's job fails because a batch did ("child … failed"): that batch's code is the one counted.
    if (name === STAGE_JOB) {
      options.onEvent?.({ kind: 'failed', job: `${name} ${job?.id ?? ''}`, detail: error.message, final });
      return;
    }
    const { code, message } = parseCarried(error.message);
    if (final) failedCodes.push(code);
    options.onEvent?.({ kind: 'failed', job: `${name} ${job?.id ?? ''}`, detail: message, code, final });
  });
  await worker.waitUntilReady();
  const summary = (): WorkerSummary => ({ completed, failed: tallyCodes(failedCodes) });
  let closing: Promise<void> | undefined;
  return {
    close: async ({ now = false } = {}) => {
      // BullMQ answers a second close with the first one's promise: stopping now must not wait for it.
      if (closing !== undefined && now) return summary();
      closing ??= (now ? Promise.resolve(false) : requireReachable(address, 2000).then(() => true, () => false)).then((reachable) => worker.close(!reachable));
      await closing;
      return summary();
    },
  };
}

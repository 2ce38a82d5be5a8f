/**
 * The BatchRunner of `--queue` (docs/ARCHITECTURE.md §13): a stage's batches become one BullMQ flow,
 * a parent job for the stage with a child job per batch (retried with backoff), taken by `wikidelta
 * worker` processes. Results come back to this process, the store's owner, as children complete
 * (queue events) and once more from the parent when the flow is done, so none is lost to a missed
 * event; the owner hands each batch's result on once, read with its kind's schema (one it cannot
 * read, from a worker of another version, fails the stage), and writes by natural keys besides. A batch
 * failed past its retries fails the stage with one line that counts the failed batches' own error
 * codes (their failure reasons carry them, src/queue/worker.ts).
 *
 * Redis may lose the jobs (restarted without its data, emptied, a key evicted): no event ever
 * comes for them, and the owner would wait for ever while workers log "Missing key for job". So
 * while it waits, the owner looks every few seconds whether the stage's job and its unfinished
 * batches are still there, and ends with one line when they are not (or when Redis stops
 * answering); the run fails, and the command started again queues the work left.
 */
import { FlowProducer, Job, Queue, QueueEvents, type ConnectionOptions } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { codeOf, RemoteError } from '../errors.js';
import type { ModelChoiceInput } from '../models/choose.js';
import type { BatchRunner, JobKind } from './batchRunner.js';
import { parseQueueUrl, QUEUE_NAME, refusedByQueue, requireReachable, type QueueAddress } from './connection.js';
import { jobsFailed } from './failedJobs.js';
import type { LlmChoice } from './llmChoice.js';

/** The parent job of a stage's flow: done once every batch is. */
export const STAGE_JOB = 'stage';

/**
 * What a batch job carries: its place in the stage, the batch, and the models to compute it with:
 * the model choice, whether labeling asks the LLM judge, and the LLM (for the judge and for
 * generating items).
 */
export interface BatchEnvelope {
  index: number;
  /** The flow's id: its owner keeps `ownerKey(owner)` alive in Redis while it waits. */
  owner: string;
  batch: unknown;
  models: ModelChoiceInput;
  judge: QueueJudge;
  llm: LlmChoice;
}

/** Whether labeling on workers asks a judge: none, or the tasks of the job's LLM choice (its offline rules or its model). */
export type QueueJudge = 'none' | 'llm';

export const BATCH_RETRIES = { attempts: 3, backoff: { type: 'exponential', delay: 1000 } } as const;

/**
 * The failed jobs Redis keeps, trimmed each time another job fails: a failed batch holds its data
 * (megabytes of wikitext), and the batches of an owner killed each fail when a worker takes them, so
 * a queue serving cron for months would otherwise grow without end. A failing stage's owner removes
 * its own jobs at once; this bounds what is left where it cannot (killed, or a batch still running).
 * The same bounds the stages finished for an owner killed while its batches ran (they hold every
 * batch's result), trimmed each time another stage finishes.
 */
export const FAILED_JOBS_KEPT = { age: 24 * 3600, count: 1000 } as const;

/**
 * How long the key that says a flow's owner is alive lasts unrenewed: the owner renews it six
 * times as often, and a worker skips the batches of an owner killed (or stopped) longer ago.
 * Generous, since the owner's loop may be busy writing a large result for a few seconds.
 */
export const OWNER_ALIVE_MS = 60_000;

/** The key, under the queue's prefix, that lives while the owner of the flow `flowId` waits for it. */
export function ownerKey(flowId: string): string {
  return `owner:${flowId}`;
}

/**
 * How often the owner looks whether its jobs are still in Redis, how long it waits for an answer,
 * and how long for its connections to close once the stage ends.
 */
const LOST_JOBS_CHECK = { everyMs: 3000, answerWithinMs: 30_000, closeWithinMs: 5000 };

/**
 * How many times a batch job is started before the owner looks whether a worker can read it. Its
 * retries and the stalls of killed workers (worker.ts: maxStalledCount 2) start it at most 3 × 3 = 9
 * times; a job whose data in Redis is not JSON is started again every lock period for ever, the
 * owner waiting in silence, as BullMQ fails to read it before the worker's code sees it.
 */
export const STARTS_BEFORE_STUCK = 10;

export class BullmqRunner implements BatchRunner {
  private readonly address: QueueAddress;
  private readonly connection: ConnectionOptions;

  /** `models` is the command's model choice, `judge` its LLM judge and `llm` its LLM: workers build the same from them. */
  constructor(
    queueUrl: string,
    private readonly models: ModelChoiceInput,
    private readonly judge: QueueJudge,
    private readonly llm: LlmChoice,
  ) {
    this.address = parseQueueUrl(queueUrl);
    this.connection = { url: this.address.url, maxRetriesPerRequest: null };
  }

  async run<Data, Output>(kind: JobKind<Data, Output>, batches: readonly Data[], onResult: (output: Output, index: number) => void): Promise<void> {
    if (batches.length === 0) return;
    await requireReachable(this.address);
    const events = new QueueEvents(QUEUE_NAME, { connection: this.connection });
    const flows = new FlowProducer({ connection: this.connection });
    const queue = new Queue(QUEUE_NAME, { connection: this.connection });
    const flowId = randomUUID();
    const handed = new Set<number>();
    // A batch counts as handed on only once its result was read and written: one that fails here
    // fails the stage, instead of leaving the stage done without that batch's work.
    const hand = (raw: unknown, index: number) => {
      if (handed.has(index)) return;
      onResult(readResult(kind, raw, batches[index] as Data, `${flowId}-batch-${index}`), index);
      handed.add(index);
    };
    // A result handed on from a queue event: the event's emitter would swallow the error.
    let resultFailed: (error: unknown) => void = () => {};
    const unhandable = new Promise<never>((_resolve, reject) => (resultFailed = reject));
    unhandable.catch(() => {});
    let heartbeat: NodeJS.Timeout | undefined;
    const client = await queue.client;
    const owner = queue.toKey(ownerKey(flowId));
    const keepAlive = () => client.set(owner, String(process.pid), { PX: OWNER_ALIVE_MS });
    try {
      await keepAlive();
      heartbeat = setInterval(() => void keepAlive().catch(() => {}), OWNER_ALIVE_MS / 6);
      await events.waitUntilReady();
      const childPrefix = `${flowId}-batch-`;
      events.on('completed', ({ jobId, returnvalue }) => {
        if (!jobId.startsWith(childPrefix)) return;
        try {
          hand(returnvalue, Number(jobId.slice(childPrefix.length)));
        } catch (error) {
          resultFailed(error);
        }
      });
      // The stage fails naming only the child: the children's own reasons are what the owner's one
      // line says. A batch fails the stage's job only once it is failed for good, and the queue's
      // events come in order, so that batch's event is here before the stage's failure.
      const childFailures = new Map<string, string>();
      events.on('failed', ({ jobId, failedReason }) => {
        if (jobId.startsWith(childPrefix)) childFailures.set(jobId, failedReason);
      });
      const tree = await flows.add({
        name: STAGE_JOB,
        queueName: QUEUE_NAME,
        data: { kind: kind.name, batches: batches.length },
        // Done, the owner reads its children's results from it and removes it; an owner killed meanwhile
        // never does, so finished stages are bounded as failed jobs are (the results may be megabytes).
        opts: { jobId: `${flowId}-stage`, removeOnComplete: FAILED_JOBS_KEPT, removeOnFail: FAILED_JOBS_KEPT },
        children: batches.map((batch, index) => ({
          name: kind.name,
          queueName: QUEUE_NAME,
          data: { index, owner: flowId, batch, models: this.models, judge: this.judge, llm: this.llm } satisfies BatchEnvelope,
          // A failed batch fails the stage, so the owner stops instead of waiting for ever.
          opts: { jobId: `${childPrefix}${index}`, ...BATCH_RETRIES, failParentOnFailure: true, removeOnComplete: true, removeOnFail: FAILED_JOBS_KEPT },
        })),
      });
      const stageJob = tree.job;
      const watch = this.watchForLostJobs(queue, stageJob, kind.name);
      try {
        await Promise.race([
          stageJob.waitUntilFinished(events).catch((error: unknown) => {
            throw jobsFailed(kind.name, [...childFailures.values()], error);
          }),
          watch.lost,
          unhandable,
        ]);
      } finally {
        watch.stop();
      }
      // Children's results stay with the parent even once the children are removed.
      const finished = await Job.fromId(queue, stageJob.id ?? '');
      const values = finished ? await finished.getChildrenValues() : {};
      for (const [key, value] of Object.entries(values)) {
        const at = key.lastIndexOf(childPrefix);
        if (at >= 0) hand(value, Number(key.slice(at + childPrefix.length)));
      }
      const missing = batches.length - handed.size;
      if (missing > 0) throw new Error(`queue flow ${flowId}: ${missing} of ${batches.length} batch results never arrived`);
      await finished?.remove();
    } catch (error) {
      const refused = refusedByQueue(error, this.address);
      if (!refused && codeOf(error) !== 'E_QUEUE_UNREACHABLE') await withinTime(removeFlow(queue, `${flowId}-stage`), LOST_JOBS_CHECK.closeWithinMs);
      throw refused ?? error;
    } finally {
      clearInterval(heartbeat);
      // A Redis gone for good would hold these for ever (its clients wait for it without end), and
      // the stage's one line with them: past the time, the connections are dropped instead, not
      // waited for (their promises wait on the closes that never end).
      const closed = await withinTime(Promise.allSettled([client.del(owner), events.close(), flows.close(), queue.close()]), LOST_JOBS_CHECK.closeWithinMs);
      if (closed === 'no answer') for (const part of [events, flows, queue]) void part.disconnect().catch(() => {});
    }
  }

  /** A promise that rejects with one line once the stage's job or one of its unfinished batches is gone from Redis. */
  private watchForLostJobs(queue: Queue, stageJob: Job, kind: string): { lost: Promise<never>; stop(): void } {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const lost = new Promise<never>((_resolve, reject) => {
      const look = async (): Promise<void> => {
        const gone = await withinTime(missingJobs(queue, stageJob), LOST_JOBS_CHECK.answerWithinMs);
        // A batch no worker can read is made one the workers fail for good (and the stage with it) at its next take.
        const mended = gone === 'no answer' || gone > 0 ? 0 : await withinTime(mendUnreadableJobs(queue, stageJob), LOST_JOBS_CHECK.answerWithinMs);
        if (stopped) return;
        if (gone === 'no answer' || mended === 'no answer') {
          reject(new RemoteError('E_QUEUE_UNREACHABLE', `the queue at ${this.address.shown} has not answered for ${LOST_JOBS_CHECK.answerWithinMs / 1000} s while the ${kind} jobs were under way; run the command again once it answers`));
        } else if (gone > 0) {
          reject(
            new RemoteError(
              'E_QUEUE_JOBS_LOST',
              `the queue at ${this.address.shown} lost ${gone === Infinity ? 'the' : `${gone} of the`} ${kind} jobs of this stage (Redis restarted without its data, or was emptied): run the command again to queue the work left`,
            ),
          );
        } else {
          timer = setTimeout(() => void look().catch(reject), LOST_JOBS_CHECK.everyMs);
        }
      };
      timer = setTimeout(() => void look().catch(reject), LOST_JOBS_CHECK.everyMs);
    });
    // The race may settle first; a rejection after that is nobody's.
    lost.catch(() => {});
    return {
      lost,
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }
}

/**
 * A batch's result as the job kind reads it; one it cannot read (a worker of another wikidelta
 * version, or none at all, answered the job), or one that does not answer the batch it was given,
 * is one line naming the job.
 */
function readResult<Data, Output>(kind: JobKind<Data, Output>, raw: unknown, batch: Data, jobId: string): Output {
  let value: unknown;
  try {
    value = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    value = raw;
  }
  const read = kind.output.safeParse(value);
  let problem: string;
  if (read.success) {
    const unanswered = kind.unanswered?.(batch, read.data);
    if (!unanswered) return read.data;
    problem = `result that does not answer its batch (${unanswered})`;
  } else {
    const issue = read.error.issues[0];
    problem = `result this wikidelta cannot read (${issue?.path.join('.') || 'result'}: ${issue?.message ?? 'invalid'})`;
  }
  throw new RemoteError('E_QUEUE_RESULT_INVALID', `job ${jobId}: a worker returned a ${kind.name} ${problem}; run workers of this version and run the command again`);
}

/**
 * KEYS: the stage job's hash and the set of its unfinished batches. Run in Redis as one script, so
 * that a batch completing meanwhile (which leaves the set, then, with removeOnComplete, has its
 * hash deleted) is never seen as gone: read in two round trips it was, and failed the stage.
 */
const COUNT_MISSING_JOBS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local missing = 0
for _, child in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if redis.call('EXISTS', child) == 0 then missing = missing + 1 end
end
return missing`;
const COUNT_MISSING_JOBS_COMMAND = 'wikideltaCountMissingJobs';
/** The clients the script is defined on (ioredis sends it by hash after the first call). */
const clientsWithCount = new WeakSet<object>();

/**
 * KEYS: the set of the stage's unfinished batches; ARGV: the starts after which a batch is looked at.
 * A batch started that often whose data is not JSON has it replaced by an object no job kind reads.
 */
const MEND_UNREADABLE_JOBS = `
local mended = 0
for _, child in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local started = tonumber(redis.call('HGET', child, 'ats') or '0') or 0
  if started >= tonumber(ARGV[1]) then
    local data = redis.call('HGET', child, 'data')
    if data and not pcall(cjson.decode, data) then
      redis.call('HSET', child, 'data', ARGV[2])
      mended = mended + 1
    end
  end
end
return mended`;
const MEND_UNREADABLE_JOBS_COMMAND = 'wikideltaMendUnreadableJobs';
const clientsWithMend = new WeakSet<object>();

/** What an unreadable batch's data becomes: JSON that fails every job kind's check, so the batch fails for good naming it. */
export const UNREADABLE_JOB_DATA = JSON.stringify({ unreadable: "the job's data in Redis was not JSON" });

/**
 * Of the stage's unfinished batches started STARTS_BEFORE_STUCK times or more, those whose data is
 * not JSON get data a worker reads and refuses: BullMQ fails to read such a job before the
 * worker's code sees it and gives it back after each lock, for ever. How many, in one round trip.
 */
export async function mendUnreadableJobs(queue: Queue, stageJob: Job, startsBeforeStuck = STARTS_BEFORE_STUCK): Promise<number> {
  const client = await queue.client;
  if (!clientsWithMend.has(client)) {
    client.defineCommand(MEND_UNREADABLE_JOBS_COMMAND, { numberOfKeys: 1, lua: MEND_UNREADABLE_JOBS });
    clientsWithMend.add(client);
  }
  return Number(await client.runCommand(MEND_UNREADABLE_JOBS_COMMAND, [`${queue.toKey(stageJob.id ?? '')}:dependencies`, String(startsBeforeStuck), UNREADABLE_JOB_DATA]));
}

/** How many of the stage's unfinished batch jobs Redis no longer holds, in one round trip: Infinity when the stage's job itself is gone. */
export async function missingJobs(queue: Queue, stageJob: Job): Promise<number> {
  const stageKey = queue.toKey(stageJob.id ?? '');
  const client = await queue.client;
  if (!clientsWithCount.has(client)) {
    client.defineCommand(COUNT_MISSING_JOBS_COMMAND, { numberOfKeys: 2, lua: COUNT_MISSING_JOBS, readOnly: true });
    clientsWithCount.add(client);
  }
  const missing = Number(await client.runCommand(COUNT_MISSING_JOBS_COMMAND, [stageKey, `${stageKey}:dependencies`]));
  return missing < 0 ? Infinity : missing;
}

/**
 * Removes a failed stage's job and its batches, with their data, which are of no use any more. BullMQ
 * removes a flow whole or not at all, and not while a batch runs: it is tried again as those under way
 * end, until the caller's time is up; what is left then is FAILED_JOBS_KEPT's.
 */
async function removeFlow(queue: Queue, stageJobId: string): Promise<void> {
  try {
    while ((await queue.remove(stageJobId, { removeChildren: true })) === 0 && (await queue.getJob(stageJobId)) !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch {
    // Best effort: the stage's own error is the one to report.
  }
}

/** The promise's value, or 'no answer' when it takes longer than `ms`. */
async function withinTime<T>(promise: Promise<T>, ms: number): Promise<T | 'no answer'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<'no answer'>((resolve) => (timer = setTimeout(() => resolve('no answer'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

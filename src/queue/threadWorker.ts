/**
 * The entry of one batch thread (src/queue/threadRunner.ts): runs the job kinds that use no models
 * (the weekly parse and diff, the snapshot's sentence cut) on the batches it is sent, checking each batch against its kind's schema as a queue
 * worker does.
 */
import { parentPort } from 'node:worker_threads';
import { z } from 'zod';
import { carried } from '../errors.js';
import type { ComputeEnv, JobKind } from './batchRunner.js';
import { diffPagesJob } from './diffJob.js';
import { parseRevisionsJob } from './parseJob.js';
import { articleSentencesJob } from './sentenceJob.js';

const jobKinds: ReadonlyMap<string, JobKind<unknown, unknown>> = new Map(
  [parseRevisionsJob, diffPagesJob, articleSentencesJob].map((kind) => [kind.name, kind as unknown as JobKind<unknown, unknown>]),
);

const ThreadRequest = z.object({ id: z.number().int(), kind: z.string(), batch: z.unknown() });

const env: ComputeEnv = { models: () => Promise.reject(new Error('batch threads run the jobs that use no models')) };

const port = parentPort;
if (!port) throw new Error('threadWorker runs as a worker thread of ThreadRunner');

port.on('message', (raw: unknown) => {
  const request = ThreadRequest.parse(raw);
  const kind = jobKinds.get(request.kind);
  const output = kind ? Promise.resolve().then(() => kind.compute(kind.data.parse(request.batch), env)) : Promise.reject(new Error(`batch threads do not run ${request.kind} jobs`));
  output.then(
    (result) => port.postMessage({ id: request.id, output: result }),
    // As `CODE: line`, so a UserError's code reaches the command's line and the run's record.
    (error: unknown) => port.postMessage({ id: request.id, error: carried(error) }),
  );
});

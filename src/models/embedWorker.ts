/**
 * The entry of one embedding worker thread (src/models/workerEmbedder.ts): builds the embedder the
 * main thread chose, through the same src/models/choose.ts, and embeds each batch it is sent, or
 * reads the batch's facts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { parseFacts } from '../text/facts.js';
import { chooseModels, ModelChoiceSchema } from './choose.js';

const ThreadRequest = z.object({ id: z.number().int(), task: z.enum(['embed', 'facts']), texts: z.array(z.string()) });

const port = parentPort;
if (!port) throw new Error('embedWorker runs as a worker thread of WorkerEmbedder');
const { embedder } = await chooseModels(ModelChoiceSchema.parse(workerData));

port.on('message', (raw: unknown) => {
  const request = ThreadRequest.parse(raw);
  const answer =
    request.task === 'facts'
      ? Promise.resolve().then(() => ({ reply: { id: request.id, facts: request.texts.map(parseFacts) }, transfer: [] }))
      : embedder.embed(request.texts).then((vectors) => ({ reply: { id: request.id, vectors }, transfer: [...new Set(vectors.map((vector) => vector.buffer as ArrayBuffer))] }));
  answer.then(
    ({ reply, transfer }) => port.postMessage(reply, transfer),
    (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});

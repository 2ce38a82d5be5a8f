/**
 * The entry of one embedding worker thread (src/models/workerEmbedder.ts): builds the embedder the
 * main thread chose, through the same src/models/choose.ts, and embeds each batch it is sent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { chooseModels, ModelChoiceSchema } from './choose.js';

const EmbedRequest = z.object({ id: z.number().int(), texts: z.array(z.string()) });

const port = parentPort;
if (!port) throw new Error('embedWorker runs as a worker thread of WorkerEmbedder');
const { embedder } = await chooseModels(ModelChoiceSchema.parse(workerData));

port.on('message', (raw: unknown) => {
  const request = EmbedRequest.parse(raw);
  embedder.embed(request.texts).then(
    (vectors) => port.postMessage({ id: request.id, vectors }, [...new Set(vectors.map((vector) => vector.buffer as ArrayBuffer))]),
    (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});

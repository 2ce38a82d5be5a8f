/**
 * The thread of `ThreadedPredictionFile` (./threadedPredictions.ts): reads its files in turn with
 * `readPredictionFile`, numbers ids and dates as they first appear in any of them, and sends the
 * predictions in batches, each of one file; then the end, or the error that stopped the reading. It
 * stops when the caller does.
 */
import { z } from 'zod';
import { carried } from '../errors.js';
import { syncThreadPort, SyncThreadStopped } from '../syncThread.js';
import { readPredictionFile } from './predictions.js';
import { BATCH, type ReaderMessage } from './threadedPredictions.js';

const port = syncThreadPort();
const paths = z.array(z.string()).parse(port.data);
const keyOf = new Map<string, number>();
const dayOf = new Map<string, number>();
let batch = emptyBatch();
/** The file being read, by its place in `paths`: a batch holds lines of one file only. */
let file = 0;

function emptyBatch() {
  return { ids: [] as string[], dates: [] as string[], keys: new Int32Array(BATCH), days: new Int32Array(BATCH), lines: new Int32Array(BATCH), texts: [] as string[] };
}

function send(message: ReaderMessage, transfer: ArrayBuffer[] = []): void {
  port.send(message, transfer);
}

function flush(): void {
  const n = batch.texts.length;
  if (n === 0) return;
  const { ids, dates, texts } = batch;
  const [keys, days, lines] = [batch.keys.slice(0, n), batch.days.slice(0, n), batch.lines.slice(0, n)];
  send({ kind: 'batch', file, ids, dates, keys, days, lines, texts }, [keys.buffer, days.buffer, lines.buffer]);
  batch = emptyBatch();
}

/** The number of `text` in `map`, a new one (and `text` added to `fresh`) on its first appearance. */
function numbered(map: Map<string, number>, fresh: string[], text: string): number {
  let key = map.get(text);
  if (key === undefined) {
    key = map.size;
    map.set(text, key);
    fresh.push(text);
  }
  return key;
}

try {
  for (; file < paths.length; file++) {
    readPredictionFile(paths[file] as string, (prediction, _source, line) => {
      const at = batch.texts.length;
      batch.keys[at] = numbered(keyOf, batch.ids, prediction.id);
      batch.days[at] = prediction.date === null ? -1 : numbered(dayOf, batch.dates, prediction.date);
      batch.lines[at] = line;
      batch.texts.push(prediction.prediction);
      if (batch.texts.length === BATCH) flush();
    });
    flush();
  }
  send({ kind: 'end' });
} catch (error) {
  if (!(error instanceof SyncThreadStopped)) {
    try {
      // The predictions read before the error first: one of them may be at fault earlier in the file.
      flush();
      send({ kind: 'error', error: carried(error) });
    } catch (stopped) {
      if (!(stopped instanceof SyncThreadStopped)) throw stopped;
    }
  }
}

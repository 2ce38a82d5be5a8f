/**
 * A prediction file, or several read in turn as one, read on a second core (docs/SCALE.md): a thread
 * parses it with `readPredictionFile` while the caller reads the gold and then scores what was read,
 * and hands the predictions over in batches, each id and date numbered as it first appears in any of
 * the files, so that the scorer looks an id up once per feed rather than once per line
 * (`Prediction.key`). The caller stays synchronous (`SyncThread`), and the thread stays at most
 * QUEUED batches ahead of it, so a million predictions never sit in memory. What the thread meets (a
 * line that does not parse, an unreadable file) comes after the batches read before it, and is thrown
 * as `readPredictionFile` throws it, with its code.
 */
import { z } from 'zod';
import { fromCarried } from '../errors.js';
import { siblingModule } from '../requestThread.js';
import { SyncThread } from '../syncThread.js';
import type { PredictionSink } from './predictions.js';

/** Predictions per batch. */
export const BATCH = 4096;
/** Batches the thread may send before the caller has taken them. */
const QUEUED = 8;
/** The reading thread's garbage is lines parsed and sent: a small young generation holds it (the default took 50 MB). */
const YOUNG_GENERATION_MB = 8;

/**
 * What the thread sends: batches (the file read, by its place in the list; the ids and dates first
 * seen in the batch, in key order, then per prediction its id's key, its date's key or -1, its line
 * and its text), the end, or the error that ended the reading, as `carried` writes it.
 */
export const ReaderMessage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('batch'),
    file: z.number().int().nonnegative(),
    ids: z.array(z.string()),
    dates: z.array(z.string()),
    keys: z.instanceof(Int32Array),
    days: z.instanceof(Int32Array),
    lines: z.instanceof(Int32Array),
    // Checked as a list only: its strings come from the thread's reader, a million of them.
    texts: z.custom<string[]>((value) => Array.isArray(value)),
  }),
  z.object({ kind: z.literal('end') }),
  z.object({ kind: z.literal('error'), error: z.string() }),
]);
export type ReaderMessage = z.infer<typeof ReaderMessage>;

/**
 * A prediction file (or several, read in turn: one system's weekly files) read on a thread from the
 * moment it is opened, so that the reading starts while the caller does other work first (reads the
 * gold): `read` then hands the predictions over; `close` ends the thread, read or not.
 *
 * @example
 * const file = new ThreadedPredictionFile('gpt.jsonl');
 * try { file.read((prediction, source, line) => seen.push(prediction)); } finally { void file.close(); }
 */
export class ThreadedPredictionFile {
  private readonly thread: SyncThread;
  private readonly paths: readonly string[];

  constructor(path: string | readonly string[]) {
    this.paths = typeof path === 'string' ? [path] : path;
    this.thread = new SyncThread(`the thread reading ${this.paths.length === 1 ? this.paths[0] : `${this.paths.length} prediction files`}`, siblingModule('predictionReaderThread', import.meta.url), this.paths, {
      queued: QUEUED,
      youngGenerationMb: YOUNG_GENERATION_MB,
    });
  }

  /**
   * `readPredictionFile` of each file in turn, through the thread: the same predictions, in the same
   * order, with the same `source` and lines, each with the `key` of its id (one id, one key, in
   * whichever file); the same errors. Once.
   *
   * @throws UserError as `readPredictionFile` throws it
   */
  read(sink: PredictionSink): void {
    const ids: string[] = [];
    const dates: string[] = [];
    for (;;) {
      const message = ReaderMessage.parse(this.thread.receive());
      if (message.kind === 'end') return;
      if (message.kind === 'error') throw fromCarried(message.error);
      ids.push(...message.ids);
      dates.push(...message.dates);
      const { keys, days, lines, texts } = message;
      const source = this.paths[message.file] as string;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as number;
        const day = days[i] as number;
        sink({ id: ids[key] as string, prediction: texts[i] as string, date: day === -1 ? null : (dates[day] as string), key }, source, lines[i] as number);
      }
    }
  }

  /** Ends the thread, read or not; resolves once it has ended. */
  close(): Promise<number> {
    return this.thread.stop();
  }
}

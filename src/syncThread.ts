/**
 * A worker thread whose messages the thread that started it takes synchronously, for work split
 * across both cores inside a synchronous computation (scoring a million predictions: the file read
 * on one core while the other scores it, the bootstrap's groups shared between the two). The
 * started thread sends with `SyncThreadPort.send`, held at most `queued` messages ahead of the taker
 * on a shared counter; the starter blocks on the same counter in `receive`. Blocked, the starter
 * hears no event of the thread, so the thread marks the counter when it runs and when it ends: a
 * thread that never starts is an error after a minute, one that ends without its reply an error at
 * once (one that runs out of memory ends the process, as any thread without a heap cap does). The
 * starter may hand the thread work once it has started (`post`, taken by the thread's `receive`),
 * so that the thread's start overlaps other work. A thread reports its own failure as a message (its
 * code carried, `carried`); the starter stops it with `stop`.
 */
import { MessageChannel, receiveMessageOnPort, workerData, type MessagePort, type Transferable } from 'node:worker_threads';
import { z } from 'zod';
import { startThread } from './requestThread.js';

/**
 * The shared counter's cells: messages sent and not taken; 1 once the starter stops; 1 once the
 * thread runs; messages posted to the thread and not taken; 1 once the thread has ended.
 */
const [SENT, STOPPED, STARTED, POSTED, ENDED] = [0, 1, 2, 3, 4];
/** How long a wait sleeps before it looks again at what the other side may have said without a notify. */
const WAIT_MS = 100;
/** How long `receive` waits for a thread that has not started. */
const START_TIMEOUT_MS = 60_000;

const ThreadData = z.object({
  port: z.custom<MessagePort>((value) => typeof value === 'object' && value !== null && 'postMessage' in value),
  state: z.instanceof(SharedArrayBuffer),
  queued: z.number().int().positive(),
  data: z.unknown(),
});

/** The starter's side. */
export class SyncThread {
  private readonly state = new Int32Array(new SharedArrayBuffer(5 * Int32Array.BYTES_PER_ELEMENT));
  private readonly port: MessagePort;
  private readonly thread;
  private readonly started = Date.now();

  /**
   * @param name - names the thread in errors (`the thread reading p.jsonl`)
   * @param entry - the thread's module (`siblingModule('x', import.meta.url)`)
   * @param data - what the thread's `syncThreadPort().data` gives; cloned, as `postMessage` clones
   * @param options - `queued`: messages the thread may send before they are taken; `youngGenerationMb`:
   *   the thread's young generation, for a thread that makes much short-lived garbage (the default is tens of MB)
   */
  constructor(
    private readonly name: string,
    entry: URL,
    data: unknown,
    options: { queued?: number; youngGenerationMb?: number } = {},
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.thread = startThread(entry, {
      workerData: { port: port2, state: this.state.buffer, queued: options.queued ?? 1, data },
      transferList: [port2],
      ...(options.youngGenerationMb === undefined ? {} : { resourceLimits: { maxYoungGenerationSizeMb: options.youngGenerationMb } }),
    });
    // Never what keeps the process alive: its starter waits for it synchronously, and stops it.
    this.thread.unref();
    // A thread that ends on an error it did not report says so through ENDED, which `receive` reads
    // (blocked, the starter hears no event); the event itself would otherwise end the process.
    this.thread.on('error', () => {});
  }

  /** The thread's next message, waiting for it. */
  receive(): unknown {
    for (;;) {
      // Read before the port: a thread's messages are queued before it ends, so one that had ended
      // then and has nothing queued now sent nothing more. (Looking a second time after the end was
      // seen threw away a reply that came between the two looks, and then said there was none.)
      const ended = Atomics.load(this.state, ENDED) === 1;
      const received = receiveMessageOnPort(this.port);
      if (received !== undefined) {
        Atomics.sub(this.state, SENT, 1);
        Atomics.notify(this.state, SENT);
        return received.message;
      }
      // Ended with nothing more sent: an error it did not report.
      if (ended) throw new Error(`${this.name} stopped without its reply`);
      if (Atomics.load(this.state, STARTED) === 0 && Date.now() - this.started > START_TIMEOUT_MS) throw new Error(`${this.name} did not start`);
      Atomics.wait(this.state, SENT, 0, WAIT_MS);
    }
  }

  /** Hands the thread a message, which its `receive` takes (work known only once the thread has started). */
  post(message: unknown, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
    Atomics.add(this.state, POSTED, 1);
    Atomics.notify(this.state, POSTED);
  }

  /** Ends the thread, waiting or not; resolves with its exit code once it has ended. */
  stop(): Promise<number> {
    Atomics.store(this.state, STOPPED, 1);
    Atomics.notify(this.state, SENT);
    Atomics.notify(this.state, POSTED);
    this.port.close();
    return this.thread.terminate();
  }
}

/** Thrown by `send` once the starter has stopped: the thread's work is no longer wanted. */
export class SyncThreadStopped extends Error {}

/** The thread's side: what it was given, and how it sends. */
export interface SyncThreadPort {
  data: unknown;
  /** Sends a message once fewer than `queued` wait; throws SyncThreadStopped once the starter stopped. */
  send(message: unknown, transfer?: Transferable[]): void;
  /** The starter's next message (`SyncThread.post`), waiting for it; throws SyncThreadStopped once the starter stopped. */
  receive(): unknown;
}

/** In a thread started by SyncThread: marks it running and gives its port. */
export function syncThreadPort(): SyncThreadPort {
  const { port, state: shared, queued, data } = ThreadData.parse(workerData);
  const state = new Int32Array(shared);
  Atomics.store(state, STARTED, 1);
  process.on('exit', () => {
    Atomics.store(state, ENDED, 1);
    Atomics.notify(state, SENT);
  });
  return {
    data,
    send(message, transfer = []) {
      for (;;) {
        if (Atomics.load(state, STOPPED) === 1) throw new SyncThreadStopped();
        const waiting = Atomics.load(state, SENT);
        if (waiting < queued) break;
        Atomics.wait(state, SENT, waiting, WAIT_MS);
      }
      // The port stays open: closing it could drop the last messages; the starter ends the thread.
      port.postMessage(message, transfer);
      Atomics.add(state, SENT, 1);
      Atomics.notify(state, SENT);
    },
    receive() {
      for (;;) {
        if (Atomics.load(state, STOPPED) === 1) throw new SyncThreadStopped();
        const received = receiveMessageOnPort(port);
        if (received !== undefined) {
          Atomics.sub(state, POSTED, 1);
          return received.message;
        }
        Atomics.wait(state, POSTED, 0, WAIT_MS);
      }
    },
  };
}

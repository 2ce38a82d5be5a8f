import { describe, expect, it } from 'vitest';
import { boundedFetch, ReplyTooLarge, RequestTimedOut, withDeadline } from '../../../src/net/boundedFetch.js';

/** A fetch whose reply sends its headers and one chunk, then nothing until the request is aborted. */
const stalling: typeof fetch = async (_input, init) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([123]));
        init?.signal?.addEventListener('abort', () => controller.error(new Error('aborted by the reader')));
      },
    }),
  );

describe('withDeadline', () => {
  it('ends the work at the deadline with a RequestTimedOut, whatever the work rejected with', async () => {
    const never = (signal: AbortSignal) => new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled'))));
    await expect(withDeadline(50, never)).rejects.toBeInstanceOf(RequestTimedOut);
  });

  it('passes on the work result, and failures before the deadline as they are', async () => {
    await expect(withDeadline(1000, async () => 7)).resolves.toBe(7);
    await expect(withDeadline(1000, async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });

  it('aborts with the caller signal too', async () => {
    const caller = new AbortController();
    const seen = withDeadline(10_000, (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.aborted))), caller.signal);
    caller.abort();
    await expect(seen).resolves.toBe(true);
  });
});

describe('boundedFetch', () => {
  it('cuts a reply whose body stalls after its headers at the deadline', async () => {
    await expect(boundedFetch({ timeoutMs: 50, maxBytes: 1000 }, stalling)('http://wiki.invalid/')).rejects.toThrow(/no complete reply within 0.05 s/);
  });

  it('refuses a reply larger than the cap as it arrives', async () => {
    const large: typeof fetch = async () => new Response(new Uint8Array(2048));
    await expect(boundedFetch({ timeoutMs: 1000, maxBytes: 1024 }, large)('http://wiki.invalid/')).rejects.toBeInstanceOf(ReplyTooLarge);
  });
});

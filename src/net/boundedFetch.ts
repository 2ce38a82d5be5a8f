/**
 * A `fetch` whose every request is bounded as a whole: one deadline from the request to the last
 * byte of the reply, and a cap on the reply's size. A fetch's own timeout (and the openai SDK's)
 * ends once the headers arrive, so a server that sends headers and then drips its body held a
 * request for ever, and a server that sends gigabytes had them all read into memory.
 */

/** The request's deadline passed before the whole reply arrived. */
export class RequestTimedOut extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete reply within ${timeoutMs / 1000} s`);
    // Not a name with "timed out" in it: the openai SDK would file it as its own timeout and drop it.
    this.name = 'DeadlinePassed';
  }
}

/** The reply is larger than a reply may be: refused, not read further. */
export class ReplyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`a reply larger than ${formatBytes(maxBytes)}, the most a reply may hold, refused`);
    this.name = 'ReplyTooLarge';
  }
}

/** The limits `boundedFetch` holds a request to: its deadline and the largest reply. */
export interface FetchBounds {
  timeoutMs: number;
  maxBytes: number;
}

/**
 * `work` given a signal that aborts at `timeoutMs` (or with `outer`). A failure once the deadline
 * has passed is the RequestTimedOut, whatever abort error the work made of it (a body's reader
 * rejects with one of its own making), except a ReplyTooLarge, a refusal in its own right.
 */
export async function withDeadline<T>(timeoutMs: number, work: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal | null): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new RequestTimedOut(timeoutMs)), timeoutMs);
  try {
    return await work(outer ? AbortSignal.any([outer, deadline.signal]) : deadline.signal);
  } catch (error) {
    if (deadline.signal.aborted && !(error instanceof ReplyTooLarge)) throw deadline.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** `fetch` (the global one unless given) with the whole reply read within the bounds and handed on as a buffered Response. */
export function boundedFetch(bounds: FetchBounds, inner: typeof fetch = fetch): typeof fetch {
  return (input, init) =>
    withDeadline(
      bounds.timeoutMs,
      async (signal) => {
        const response = await inner(input, { ...init, signal });
        const body = await readCapped(response, bounds.maxBytes);
        return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      },
      init?.signal,
    );
}

/** The reply's body, refused as soon as it is known to pass `maxBytes` (by its Content-Length, or as it arrives). */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  if (response.body === null) return null;
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body.cancel().catch(() => {});
    throw new ReplyTooLarge(maxBytes);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ReplyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KB`;
  return `${bytes} bytes`;
}

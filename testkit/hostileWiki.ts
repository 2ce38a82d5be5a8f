/**
 * A hostile MediaWiki Action API on loopback (node:http), for the ways a wiki can fail to end what
 * it starts: every reply continuing with the same token, a reply of hundreds of megabytes, a
 * redirect to another host, headers followed by a body that drips a byte at a time. Every reply is
 * valid JSON of the API's shape, so only the behaviour is hostile. It counts requests and the bytes
 * it managed to send.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dripReply } from './drip.js';

export type HostileBehaviour =
  /** Every query reply continues, always with the same continuation. */
  | { kind: 'repeated-continue' }
  /** Every query reply lists the same page and continues, with a new continuation each time. */
  | { kind: 'moving-continue' }
  /** A reply of this many bytes, streamed in chunks without a Content-Length. */
  | { kind: 'huge-reply'; bytes: number }
  /**
   * 302 to this location, the query string kept: another host's URL, or a path on this one (whose
   * requests it then answers).
   */
  | { kind: 'redirect'; to: string }
  /** The headers, then one byte of the reply every `intervalMs`. */
  | { kind: 'drip'; intervalMs: number }
  /** This body, as is, with status 200, to every request (a proxy's `{}` or `null`, say). */
  | { kind: 'fixed'; body: string };

export interface HostileWiki {
  /** The API endpoint, `http://127.0.0.1:PORT/w/api.php`. */
  apiUrl: string;
  readonly requests: number;
  /** Bytes written to clients that did not close on them. */
  readonly bytesSent: number;
  stop(): Promise<void>;
}

/** A query reply every list and prop module a client may ask for accepts: nothing listed, and a continuation. */
const CONTINUED_REPLY = JSON.stringify({
  batchcomplete: true,
  continue: { lecontinue: '20210104000000|1', rccontinue: '20210104000000|1', apcontinue: 'A', continue: '-||' },
  query: { logevents: [], recentchanges: [], allpages: [], pages: [], search: [] },
});
const PLAIN_REPLY = JSON.stringify({ batchcomplete: true, query: { logevents: [], recentchanges: [], allpages: [], pages: [], search: [] } });

export async function startHostileWiki(behaviour: HostileBehaviour): Promise<HostileWiki> {
  let requests = 0;
  let bytesSent = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    if (behaviour.kind === 'repeated-continue') return send(res, CONTINUED_REPLY);
    if (behaviour.kind === 'moving-continue') {
      const token = `20210104000000|${requests}`;
      return send(res, JSON.stringify({ continue: { apcontinue: `A${requests}`, rccontinue: token, lecontinue: token, continue: '-||' }, query: { allpages: [{ pageid: 1, ns: 0, title: 'A' }] } }));
    }
    if (behaviour.kind === 'redirect') {
      if (behaviour.to.startsWith('/') && new URL(req.url ?? '/', 'http://127.0.0.1').pathname === behaviour.to) return send(res, PLAIN_REPLY);
      res.writeHead(302, { location: behaviour.to + (req.url?.slice(req.url.indexOf('?')) ?? '') });
      res.end();
      return;
    }
    if (behaviour.kind === 'huge-reply') return stream(res, behaviour.bytes);
    if (behaviour.kind === 'fixed') return send(res, behaviour.body);
    timers.add(dripReply(res, PLAIN_REPLY, behaviour.intervalMs, () => bytesSent++));
  });

  function send(res: ServerResponse, body: string): void {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    bytesSent += Buffer.byteLength(body);
  }

  /** A JSON reply of `bytes` bytes, one chunk at a time, as long as the client reads it. */
  function stream(res: ServerResponse, bytes: number): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    const head = '{"batchcomplete":true,"query":{"pages":[{"title":"';
    const tail = '"}]}}';
    const chunk = 'x'.repeat(64 << 10);
    let left = bytes - head.length - tail.length;
    let closed = false;
    res.on('close', () => (closed = true));
    res.write(head);
    const pump = (): void => {
      while (!closed && left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.slice(0, left);
        left -= piece.length;
        bytesSent += piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!closed) res.end(tail);
    };
    pump();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/w/api.php`,
    get requests() {
      return requests;
    },
    get bytesSent() {
      return bytesSent;
    },
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

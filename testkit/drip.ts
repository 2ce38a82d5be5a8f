/** A reply that drips: the headers at once, then one character of the body every `intervalMs`, as a stalled server sends it. */
import type { ServerResponse } from 'node:http';

/** Starts the drip; the timer is returned so a server can stop it when it stops itself. `onByte` counts what was sent. */
export function dripReply(res: ServerResponse, body: string, intervalMs: number, onByte: () => void = () => {}): NodeJS.Timeout {
  res.writeHead(200, { 'content-type': 'application/json' });
  let at = 0;
  const timer = setInterval(() => {
    if (at >= body.length) {
      clearInterval(timer);
      res.end();
      return;
    }
    res.write(body[at++] as string);
    onByte();
  }, intervalMs);
  res.on('close', () => clearInterval(timer));
  return timer;
}

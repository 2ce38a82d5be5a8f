/**
 * The audit server under load (docs/ARCHITECTURE.md §14), as `wikidelta serve` runs it in its own
 * process on loopback: judgments per second with 20 clients posting at once over real HTTP, every
 * judgment then counted in the store, and, half-way through, page latency (GET /a/TOKEN and
 * GET /api/next; one client, then 20 at once, each on its own kept-alive connection). Targets: p95
 * under 50 ms, at least 500 judgments/s.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditStore } from '../../src/store/auditStore.js';
import { openDatabase } from '../../src/store/database.js';
import { seedAudit } from '../../testkit/auditFixture.js';
import { cliPath } from '../../testkit/cli.js';
import { report } from './report.js';

const CLIENTS = 20;
/** Rounds of the fixture's seven items: 210 items, each assigned to all 20 annotators. */
const COPIES = 30;
const LATENCY_REQUESTS = 2000;
const WARM_UP_PER_CLIENT = 5;

const path = join(mkdtempSync(join(tmpdir(), 'wikidelta-bench-serve-')), 'store.sqlite');
const seedDb = openDatabase(path);
const names = Array.from({ length: CLIENTS }, (_, index) => `annotator${index + 1}`);
const seeded = seedAudit(seedDb, { annotators: names, copies: COPIES });
seedDb.close();

const server = spawn(process.execPath, [cliPath, '--db', path, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
let printed = '';
server.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
while (!printed.includes('\n')) await once(server.stdout, 'data');
const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1];
if (!url) throw new Error(`serve printed no URL: ${printed}`);

const headers = (token: string) => ({ authorization: `Bearer ${token}` });

async function timed(request: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await request();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return performance.now() - started;
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

/** `total` requests spread over `clients` loops, each waiting for its answer before the next. */
async function latencies(clients: number, total: number, request: (client: number) => Promise<Response>): Promise<number[]> {
  const samples: number[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = client; i < total; i += clients) samples.push(await timed(() => request(client)));
    }),
  );
  return samples;
}

try {
  const token = (client: number) => seeded.tokens[names[client] as string] as string;
  const verdicts = ['correct', 'debatable', 'wrong'] as const;
  /** Every client posts a judgment of each of `items`, one after the other; returns the seconds taken. */
  const judge = async (items: typeof seeded.items): Promise<number> => {
    const started = performance.now();
    await Promise.all(
      names.map(async (_, client) => {
        for (const [index, item] of items.entries()) {
          const verdict = verdicts[(client + index) % 3];
          const response = await fetch(`${url}/api/judgments`, {
            method: 'POST',
            headers: { ...headers(token(client)), 'content-type': 'application/json' },
            body: JSON.stringify({ item: item.id, verdict, seconds: 3, ...(verdict !== 'wrong' ? {} : item.content.kind === 'label' ? { label: 'new' } : { answer: 'x' }) }),
          });
          await response.arrayBuffer();
          if (response.status !== 201) throw new Error(`judgment refused: HTTP ${response.status}`);
        }
      }),
    );
    return (performance.now() - started) / 1000;
  };
  const half = Math.floor(seeded.items.length / 2);
  // Pages are timed in the middle of the audit, half of each annotator's items judged: the list of
  // verdicts a page reads is then as long as the items not yet judged.
  let seconds = await judge(seeded.items.slice(0, half));

  const routes: Array<{ name: string; request: (client: number) => Promise<Response> }> = [
    { name: 'GET /a/:token', request: (client) => fetch(`${url}/a/${token(client)}`) },
    { name: 'GET /api/next', request: (client) => fetch(`${url}/api/next`, { headers: headers(token(client)) }) },
  ];
  for (const clients of [1, CLIENTS]) {
    for (const route of routes) {
      // Each client's connection opened (and the route's code warmed) before the clock runs, as an
      // annotator's browser keeps its connection between items: the figure is a page, not a handshake.
      await latencies(clients, WARM_UP_PER_CLIENT * clients, route.request);
      const samples = await latencies(clients, LATENCY_REQUESTS, route.request);
      report(`audit_server_latency_p95`, percentile(samples, 0.95), 'ms', {
        route: route.name,
        clients,
        requests: samples.length,
        p50_ms: Number(percentile(samples, 0.5).toFixed(2)),
        items_per_annotator: seeded.items.length,
        judged_per_annotator: half,
        target_ms: 50,
        load: loadavg()[0],
      });
    }
  }

  seconds += await judge(seeded.items.slice(half));
  const posted = CLIENTS * seeded.items.length;
  const db = openDatabase(path, { readonly: true });
  const stored = new AuditStore(db).judgments(seeded.audit.id).length;
  db.close();
  report('audit_server_judgments_per_s', posted / seconds, 'judgments/s', {
    clients: CLIENTS,
    judgments: posted,
    stored,
    lost: posted - stored,
    seconds: Number(seconds.toFixed(3)),
    target: 500,
    load: loadavg()[0],
  });
} finally {
  server.kill('SIGTERM');
  await once(server, 'exit');
}

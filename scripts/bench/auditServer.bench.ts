/**
 * The audit server under load (docs/ARCHITECTURE.md §14), as `wikidelta serve` runs it in its own
 * process on loopback: judgments per second with 20 clients posting at once over real HTTP, every
 * judgment then counted in the store, and, half-way through, page latency (GET /a/TOKEN and
 * GET /api/next; one client, then 20 at once, each on its own kept-alive connection, each load
 * after a judgment as an annotator's is). Targets: p95 under 50 ms, at least 500 judgments/s.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/store.js';
import { correctionOf, seedAudit } from '../../testkit/auditFixture.js';
import { cliPath } from '../../testkit/cli.js';
import { report } from './report.js';

const CLIENTS = 20;
/** Rounds of the fixture's seven items: 420 items, each assigned to all 20 annotators. */
const COPIES = 60;
const LATENCY_REQUESTS = 1000;
const WARM_UP_PER_CLIENT = 5;

const path = join(mkdtempSync(join(tmpdir(), 'wikidelta-bench-serve-')), 'store.sqlite');
const seedStore = Store.open(path);
const names = Array.from({ length: CLIENTS }, (_, index) => `annotator${index + 1}`);
const seeded = seedAudit(seedStore, { annotators: names, copies: COPIES });
seedStore.close();

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

const verdicts = ['correct', 'debatable', 'wrong'] as const;
const token = (annotator: number) => seeded.tokens[names[annotator] as string] as string;
/** Each annotator's next item to judge: every item is judged once, as in a real audit. */
const cursor = names.map(() => 0);
let posted = 0;

/** The annotator's judgment of its next item. */
async function judgeNext(annotator: number): Promise<void> {
  const index = cursor[annotator] ?? 0;
  cursor[annotator] = index + 1;
  const item = seeded.items[index];
  if (!item) throw new Error(`annotator ${annotator + 1} has judged all ${seeded.items.length} items`);
  const verdict = verdicts[(annotator + index) % 3];
  const response = await fetch(`${url}/api/judgments`, {
    method: 'POST',
    headers: { ...headers(token(annotator)), 'content-type': 'application/json' },
    body: JSON.stringify({ item: item.id, verdict, seconds: 3, ...(verdict === 'wrong' ? correctionOf(item.content) : {}) }),
  });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`judgment refused: HTTP ${response.status}`);
  posted++;
}

/**
 * `total` page loads spread over `clients` loops, as annotators work: each judges its next item,
 * then loads the page again, and only the load is timed (one client takes the annotators in
 * turn). The judgment changes what the page reads, so no load is served from what the server read
 * for the one before.
 */
async function latencies(clients: number, total: number, load: (annotator: number) => Promise<Response>): Promise<number[]> {
  const samples: number[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = client; i < total; i += clients) {
        const annotator = clients === 1 ? i % names.length : client;
        await judgeNext(annotator);
        samples.push(await timed(() => load(annotator)));
      }
    }),
  );
  return samples;
}

/** Every annotator judges its next `count` items, all at once; returns the judgments and the seconds taken. */
async function judgeAll(count: (annotator: number) => number): Promise<{ judgments: number; seconds: number }> {
  const started = performance.now();
  const before = posted;
  await Promise.all(names.map(async (_, annotator) => {
    for (let k = count(annotator); k > 0; k--) await judgeNext(annotator);
  }));
  return { judgments: posted - before, seconds: (performance.now() - started) / 1000 };
}

try {
  // A quarter of each annotator's items judged before pages are timed, so that a page reads a long
  // list of verdicts and of items still to judge.
  const first = await judgeAll(() => seeded.items.length / 4);

  const routes: Array<{ name: string; request: (annotator: number) => Promise<Response> }> = [
    { name: 'GET /a/:token', request: (annotator) => fetch(`${url}/a/${token(annotator)}`) },
    { name: 'GET /api/next', request: (annotator) => fetch(`${url}/api/next`, { headers: headers(token(annotator)) }) },
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
        each_after_a_judgment: true,
        items_per_annotator: seeded.items.length,
        target_ms: 50,
        load: loadavg()[0],
      });
    }
  }

  const rest = await judgeAll((annotator) => seeded.items.length - (cursor[annotator] as number));
  const store = Store.open(path, { readonly: true });
  const stored = store.audits.judgments(seeded.audit.id).length;
  store.close();
  const judgments = first.judgments + rest.judgments;
  const seconds = first.seconds + rest.seconds;
  report('audit_server_judgments_per_s', judgments / seconds, 'judgments/s', {
    clients: CLIENTS,
    judgments,
    posted_in_all: posted,
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

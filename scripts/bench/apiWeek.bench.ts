/**
 * A week of English Wikipedia through the API source: 700,000 main-namespace edits on 250,000 pages
 * (the week's size; docs/SCALE.md says where the figures come from), served by the simulated wiki
 * of testkit/ in its own process, so this process's peak RSS is the source's with its listing
 * spooled in a store on disk, as the collect stage runs it. Texts are counted and dropped, as the
 * collect stage drops each part once stored. WIKIDELTA_BENCH_WEEK_EDITS and _PAGES scale it down.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ApiRevisionSource } from '../../src/sources/apiSource.js';
import { openDatabase } from '../../src/store/database.js';
import { RecentChangesStore } from '../../src/store/recentChangesStore.js';
import { peakRssMb, report } from './report.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EDITS = Number(process.env.WIKIDELTA_BENCH_WEEK_EDITS ?? 700_000);
const PAGES = Number(process.env.WIKIDELTA_BENCH_WEEK_PAGES ?? 250_000);
const WINDOW = { start: '2025-01-06T00:00:00Z', end: '2025-01-13T00:00:00Z' };
const FOLLOW_HOURS = 48;
const USER_AGENT = 'wikidelta-bench/0.1 (https://example.org/wikidelta; wikidelta-bench@example.org)';

const server = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'testkit/simulatedWiki.ts'), String(EDITS), String(PAGES), WINDOW.start], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const lines = createInterface({ input: server.stdout })[Symbol.asyncIterator]();
const apiUrl = (await lines.next()).value as string;

const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-week-'));
const db = openDatabase(join(dir, 'week.sqlite'));
try {
  // The window is older than the wiki's recent changes would reach from today; the simulated wiki keeps them all.
  const source = new ApiRevisionSource({ apiUrl, userAgent: USER_AGENT, rcMaxAgeDays: 36_500 });
  const started = performance.now();
  let pages = 0;
  let revisions = 0;
  let followers = 0;
  for await (const part of source.pagesChangedIn(WINDOW, { followHours: FOLLOW_HOURS, recentChanges: new RecentChangesStore(db) })) {
    if (part.kind === 'end') {
      pages++;
      followers += part.followers?.length ?? 0;
    } else revisions += part.revisions.length;
  }
  const seconds = (performance.now() - started) / 1000;
  server.stdin.end();
  const { requests } = JSON.parse((await lines.next()).value as string) as { requests: number };
  const figures = { edits: EDITS, pages, revisions, followers, requests, seconds: Number(seconds.toFixed(1)) };
  report('api_week_peak_rss', peakRssMb(), 'MB', { ...figures, limit_mb: 300 });
  report('api_week_requests_per_page', requests / Math.max(pages, 1), 'requests/page', figures);
  report('api_week_pages_per_second', pages / seconds, 'pages/s', figures);
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
  server.kill();
}

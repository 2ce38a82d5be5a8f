/**
 * A week of English Wikipedia end to end: `wikidelta weekly --stages collect,parse,diff,select,timeline`
 * (the built CLI, without the queue: its batch threads on every core) against the simulated wiki of
 * testkit/ in another process: 700,000 edits on 250,000 pages (docs/SCALE.md), each page one of the
 * English history sample's articles (their real sizes and infoboxes) edited as a week edits them
 * (EDIT_SHARES). Reports each stage's seconds, the total, the command's CPU seconds and peak RSS
 * (all its threads), the wiki's CPU seconds, and the load average before and after (the machine is
 * shared). WIKIDELTA_BENCH_WEEK_SCALE scales the week (0.01: 7,000 edits on 2,500 pages),
 * WIKIDELTA_BENCH_THREADS sets `--threads`, WIKIDELTA_BENCH_BIN names another build's
 * bin/wikidelta.js to measure against the same wiki (an earlier commit, side by side).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { childCpuSeconds, measureCommand, report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE = join(sharedData, 'enwiki-history-sample.xml');
const SCALE = Number(process.env.WIKIDELTA_BENCH_WEEK_SCALE ?? 1);
const EDITS = Math.round(700_000 * SCALE);
// The simulated wiki needs a page count that is no multiple of its stride (7919).
const PAGES = Math.round(250_000 * SCALE) + (Math.round(250_000 * SCALE) % 7919 === 0 ? 1 : 0);
const THREADS = process.env.WIKIDELTA_BENCH_THREADS;
const BIN = process.env.WIKIDELTA_BENCH_BIN ?? join(repoRoot, 'bin/wikidelta.js');
const PER_MINUTE_CEILING = 6000;
const STAGES = ['collect', 'parse', 'diff', 'select', 'timeline'];
const RunOutput = z.object({ stages: z.array(z.object({ stage: z.string(), seconds: z.number().nullable(), counts: z.record(z.string(), z.number()) })) });

const wiki = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'testkit/simulatedWiki.ts'), String(EDITS), String(PAGES), '2025-01-06T00:00:00Z', SAMPLE], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const wikiLines = createInterface({ input: wiki.stdout })[Symbol.asyncIterator]();
const apiUrl = (await wikiLines.next()).value as string;
const wikiCpuBefore = childCpuSeconds(wiki.pid as number);

const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-week-'));
const db = join(dir, 'week.sqlite');
try {
  const loadBefore = loadavg()[0] ?? 0;
  const args = ['--db', db, '--json', 'weekly', '--start', '2025-01-06', '--api', apiUrl, '--stages', STAGES.join(','), ...(THREADS ? ['--threads', THREADS] : [])];
  // The wiki is ours on loopback, so the request rate that keeps us polite to Wikimedia (perMinute)
  // is lifted to its ceiling: the benchmark measures this machine, not the cap (docs/SCALE.md).
  const env = {
    WIKIDELTA_PER_MINUTE: String(PER_MINUTE_CEILING),
    ...process.env,
    WIKIDELTA_USER_AGENT: 'wikidelta-bench/0.1 (https://example.org/wikidelta; wikidelta-bench@example.org)',
    WIKIDELTA_WIKI: 'simwiki',
  };
  const { seconds, cpuSeconds, peakRssMb, stdout } = await measureCommand(process.execPath, [BIN, ...args], env);
  const wikiCpu = childCpuSeconds(wiki.pid as number) - wikiCpuBefore;
  wiki.stdin.end();
  const { requests } = JSON.parse((await wikiLines.next()).value as string) as { requests: number };
  const run = RunOutput.parse(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
  const stage = (name: string) => run.stages.find((record) => record.stage === name);
  const figures = {
    bin: BIN,
    scale: SCALE,
    edits: EDITS,
    pages: PAGES,
    threads: THREADS ?? 'one per core',
    revisions: stage('collect')?.counts.revisions ?? 0,
    data_units: stage('select')?.counts.data_units ?? 0,
    requests,
    per_minute: Number(env.WIKIDELTA_PER_MINUTE),
    stage_seconds: Object.fromEntries(STAGES.map((name) => [name, Number((stage(name)?.seconds ?? 0).toFixed(1))])),
    seconds: Number(seconds.toFixed(1)),
    cpu_seconds: Number(cpuSeconds.toFixed(1)),
    wiki_cpu_seconds: Number(wikiCpu.toFixed(1)),
    store_mb: Math.round(statSync(db).size / 1e6),
    load_before: Number(loadBefore.toFixed(2)),
    load_after: Number((loadavg()[0] ?? 0).toFixed(2)),
  };
  report('week_end_to_end', seconds, 's', { ...figures, limit_s_whole_week: 3600 });
  report('week_end_to_end_revisions_per_second', figures.revisions / seconds, 'revisions/s', figures);
  report('week_end_to_end_peak_rss', peakRssMb, 'MB', { ...figures, limit_mb: 1000 });
} finally {
  rmSync(dir, { recursive: true, force: true });
  wiki.kill();
}

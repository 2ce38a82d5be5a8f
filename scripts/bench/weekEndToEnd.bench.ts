/**
 * A week of English Wikipedia end to end: `wikidelta weekly --stages collect,parse,diff,select,timeline`
 * (the built CLI, without the queue: its batch threads on every core) against the simulated wiki of
 * testkit/ in another process: 700,000 edits on 250,000 pages (docs/SCALE.md), each page one of the
 * English history sample's articles (their real sizes and infoboxes) edited as a week edits them
 * (EDIT_SHARES). Reports each stage's seconds, the total, the command's CPU seconds and peak RSS
 * (all its threads), the wiki's CPU seconds, and the load average before and after (the machine is
 * shared). WIKIDELTA_BENCH_WEEK_SCALE scales the week (0.01: 7,000 edits on 2,500 pages),
 * WIKIDELTA_BENCH_THREADS sets `--threads`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { report } from './report.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE = resolve(repoRoot, '../shared/data/enwiki-history-sample.xml');
const SCALE = Number(process.env.WIKIDELTA_BENCH_WEEK_SCALE ?? 1);
const EDITS = Math.round(700_000 * SCALE);
// The simulated wiki needs a page count that is no multiple of its stride (7919).
const PAGES = Math.round(250_000 * SCALE) + (Math.round(250_000 * SCALE) % 7919 === 0 ? 1 : 0);
const THREADS = process.env.WIKIDELTA_BENCH_THREADS;
const STAGES = ['collect', 'parse', 'diff', 'select', 'timeline'];
const CLOCK_TICKS = 100;

const RunOutput = z.object({ stages: z.array(z.object({ stage: z.string(), seconds: z.number().nullable(), counts: z.record(z.string(), z.number()) })) });

/** A process's CPU seconds (user and system, its threads included) from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** A process's peak resident set so far, in MB, from /proc. */
function peakRss(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

const wiki = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'testkit/simulatedWiki.ts'), String(EDITS), String(PAGES), '2025-01-06T00:00:00Z', SAMPLE], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const wikiLines = createInterface({ input: wiki.stdout })[Symbol.asyncIterator]();
const apiUrl = (await wikiLines.next()).value as string;
const wikiCpuBefore = cpuSeconds(wiki.pid as number);

const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-week-'));
const db = join(dir, 'week.sqlite');
try {
  const loadBefore = loadavg()[0] ?? 0;
  const started = performance.now();
  const args = ['--db', db, '--json', 'weekly', '--start', '2025-01-06', '--api', apiUrl, '--stages', STAGES.join(','), ...(THREADS ? ['--threads', THREADS] : [])];
  const command = spawn(process.execPath, [join(repoRoot, 'bin/wikidelta.js'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WIKIDELTA_USER_AGENT: 'wikidelta-bench/0.1 (https://example.org/wikidelta; wikidelta-bench@example.org)', WIKIDELTA_WIKI: 'simwiki' },
  });
  let stdout = '';
  let stderr = '';
  command.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  command.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  let peak = 0;
  let cpu = 0;
  const watch = setInterval(() => {
    try {
      peak = Math.max(peak, peakRss(command.pid as number));
      cpu = cpuSeconds(command.pid as number);
    } catch {
      // It has just ended.
    }
  }, 200);
  const code = await new Promise<number | null>((resolveExit) => command.once('close', resolveExit));
  clearInterval(watch);
  if (code !== 0) throw new Error(`weekly exited with ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`);
  const seconds = (performance.now() - started) / 1000;
  const wikiCpu = cpuSeconds(wiki.pid as number) - wikiCpuBefore;
  wiki.stdin.end();
  const { requests } = JSON.parse((await wikiLines.next()).value as string) as { requests: number };
  const run = RunOutput.parse(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
  const stage = (name: string) => run.stages.find((record) => record.stage === name);
  const figures = {
    scale: SCALE,
    edits: EDITS,
    pages: PAGES,
    threads: THREADS ?? 'one per core',
    revisions: stage('collect')?.counts.revisions ?? 0,
    data_units: stage('select')?.counts.data_units ?? 0,
    requests,
    stage_seconds: Object.fromEntries(STAGES.map((name) => [name, Number((stage(name)?.seconds ?? 0).toFixed(1))])),
    seconds: Number(seconds.toFixed(1)),
    // Sampled every 0.2 s: the last fraction of a second is missed, the stages' end is light.
    cpu_seconds: Number(cpu.toFixed(1)),
    wiki_cpu_seconds: Number(wikiCpu.toFixed(1)),
    store_mb: Math.round(statSync(db).size / 1e6),
    load_before: Number(loadBefore.toFixed(2)),
    load_after: Number((loadavg()[0] ?? 0).toFixed(2)),
  };
  report('week_end_to_end', seconds, 's', { ...figures, limit_s_whole_week: 3600 });
  report('week_end_to_end_revisions_per_second', figures.revisions / seconds, 'revisions/s', figures);
  report('week_end_to_end_peak_rss', peak, 'MB', { ...figures, limit_mb: 1000 });
} finally {
  rmSync(dir, { recursive: true, force: true });
  wiki.kill();
}

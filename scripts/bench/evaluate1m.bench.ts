/**
 * `evaluate weekly` on a million predictions, as a researcher runs it (target: at least 100,000
 * predictions/s and under 300 MB): the published DailyQA answers imported four times over (33,440
 * queries answered on 29 days, 969,760 answers), a JSONL file of one prediction per query and day
 * (exact, padded with words, wrong or empty) plus predictions for ids the store does not know, to
 * a million lines; scored over the 29 dates with the clustered bootstrap. Then `leaderboard` on two
 * systems of those lines (`leaderboard_2m`). Each command runs in its own process; its peak RSS is
 * read from inside it at exit. With WIKIDELTA_BENCH_KEEP=1 the store and the prediction file are
 * kept, and their directory named on stderr, to profile or compare the command on them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { SeededRandom } from '../../src/random.js';
import { report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';

const COPIES = 4;
const LINES = 1_000_000;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const releaseDir = join(sharedData, 'dailyqa-release');
const cli = join(root, 'bin/wikidelta.js');
const dir = mkdtempSync(join(tmpdir(), 'wikidelta-evaluate-1m-'));
const db = join(dir, 'store.sqlite');

function run(args: string[], extra: string[] = []): { seconds: number; cpuSeconds: number; stdout: string; stderr: string; rssMb: number } {
  // The command reports its own peak RSS and CPU time (user + system, µs, of every thread) on file
  // descriptor 3 as it exits: on a shared machine the wall time says as much about the neighbours as
  // about the command. Only the main thread reports: the hook is loaded in its worker threads too.
  const rss =
    'data:text/javascript,import{writeSync}from"node:fs";import{isMainThread}from"node:worker_threads";if(isMainThread)process.on("exit",()=>{const u=process.resourceUsage();writeSync(3,`${u.maxRSS} ${u.userCPUTime+u.systemCPUTime}`)})';
  const started = performance.now();
  const result = spawnSync(process.execPath, [...extra, '--import', rss, cli, '--db', db, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`wikidelta ${args.join(' ')} failed: ${result.stderr}`);
  const [maxRss = 0, cpuMicros = 0] = String(result.output[3] ?? '').split(' ').map(Number);
  return { seconds, cpuSeconds: cpuMicros / 1e6, stdout: result.stdout, stderr: result.stderr, rssMb: maxRss / 1024 };
}

try {
  const random = new SeededRandom(19);
  const days: Array<{ date: string; answers: Array<{ id: string; answer: string | null }> }> = [];
  const files: string[] = [];
  for (let day = 4; day <= 32; day++) {
    const stamp = day <= 31 ? `2501${String(day).padStart(2, '0')}` : '250201';
    const lines = gunzipSync(readFileSync(join(releaseDir, `qa_${stamp}.jsonl.gz`))).toString('utf8').split('\n').filter((line) => line !== '');
    const rows = lines.map((line) => JSON.parse(line) as { id: string; query: string; answer: string | null });
    const copies = Array.from({ length: COPIES }, (_, copy) => rows.map((row) => ({ ...row, id: `${row.id}~${copy}` }))).flat();
    const file = join(dir, `qa_${stamp}.jsonl`);
    writeFileSync(file, copies.map((row) => `${JSON.stringify(row)}\n`).join(''));
    files.push(file);
    days.push({ date: `20${stamp.slice(0, 2)}-${stamp.slice(2, 4)}-${stamp.slice(4, 6)}`, answers: copies.map(({ id, answer }) => ({ id, answer })) });
  }
  run(['import', 'dailyqa', ...files]);

  const pool = days.flatMap((day) => day.answers.map((row) => row.answer)).filter((answer): answer is string => answer !== null && answer !== '');
  const predictionFor = (gold: string | null): string => {
    const roll = random.next();
    if (gold === null || gold === '') return roll < 0.5 ? "I don't know" : random.pick(pool);
    if (roll < 0.4) return gold;
    if (roll < 0.7) return `As of today, the answer is ${gold}.`;
    if (roll < 0.95) return random.pick(pool);
    return '';
  };
  const predictions = join(dir, 'predictions.jsonl');
  const out: string[] = [];
  for (const day of days) for (const row of day.answers) out.push(`${JSON.stringify({ id: row.id, prediction: predictionFor(row.answer), date: day.date })}\n`);
  const expected = out.length;
  for (let i = 0; out.length < LINES; i++) out.push(`${JSON.stringify({ id: `unknown-${i}`, prediction: 'x', date: days[i % days.length]?.date })}\n`);
  writeFileSync(predictions, out.join(''));
  out.length = 0;
  // The store and the file were just written: their 100 MB go to disk now, not while the command is timed.
  spawnSync('sync');

  const scored = run(['--json', 'evaluate', 'weekly', '--predictions', predictions, '--from', '2025-01-04', '--to', '2025-02-01']);
  const result = JSON.parse(scored.stdout) as { n: number; queries: number; em: number; f1: number; ci: { f1: [number, number] }; outside: { n: number }; no_answer: { n: number }; empty_gold: number };
  report('evaluate_1m', LINES / scored.seconds, 'predictions/s', {
    lines: LINES,
    expected_answers: expected,
    seconds: Number(scored.seconds.toFixed(2)),
    cpu_seconds: Number(scored.cpuSeconds.toFixed(2)),
    predictions_per_cpu_second: Math.round(LINES / scored.cpuSeconds),
    load_average: loadavg().map((load) => Number(load.toFixed(2))),
    peak_rss_mb: Number(scored.rssMb.toFixed(1)),
    scored_values: result.n,
    no_answer: result.no_answer.n,
    empty_gold: result.empty_gold,
    queries: result.queries,
    outside: result.outside.n,
    f1: Number(result.f1.toFixed(2)),
    f1_ci: result.ci.f1.map((value) => Number(value.toFixed(2))),
    bootstrap: '1,000 resamples by query',
  });

  // The leaderboard on two systems of the same million lines: it holds neither, reading each file for
  // its dates and again as it scores it.
  const subs = join(dir, 'submissions');
  mkdirSync(subs);
  for (const system of ['system-a', 'system-b']) symlinkSync(predictions, join(subs, `${system}.jsonl`));
  const board = run(['--json', 'leaderboard', '--submissions', subs]);
  const ranked = JSON.parse(board.stdout) as { weekly: Array<{ f1: number }> };
  report('leaderboard_2m', (2 * LINES) / board.seconds, 'predictions/s', {
    systems: ranked.weekly.length,
    lines: 2 * LINES,
    seconds: Number(board.seconds.toFixed(2)),
    cpu_seconds: Number(board.cpuSeconds.toFixed(2)),
    peak_rss_mb: Number(board.rssMb.toFixed(1)),
    same_f1_as_evaluate: ranked.weekly.every((entry) => entry.f1 === result.f1),
  });
} finally {
  if (process.env.WIKIDELTA_BENCH_KEEP === '1') process.stderr.write(`evaluate_1m: store and predictions kept in ${dir}\n`);
  else rmSync(dir, { recursive: true, force: true });
}

/**
 * Start-up of the command as a user's script meets it: `wikidelta --help` and one `answer` against
 * a small store (two days of the published DailyQA release, five queries each), side by side with
 * `node -e 0` in one run, the three interleaved so load on the machine falls on all alike; medians.
 * Runs dist/ through bin/wikidelta.js, so `npm run bench` builds first.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { cliPath } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { report } from './report.js';

const REPETITIONS = 15;
const DAYS = ['250104', '250105'];
const LINES = 5;
/** The figure issue 9 asks of `answer`, in seconds. */
const TARGET_S = 0.3;

const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-'));
const db = join(dir, 'startup.sqlite');
const files = DAYS.map((day) => {
  const lines = gunzipSync(readFileSync(join(sharedData, `dailyqa-release/qa_${day}.jsonl.gz`))).toString('utf8').split('\n').slice(0, LINES);
  const file = join(dir, `qa_${day}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
});
const firstQuery = (JSON.parse(readFileSync(files[0] as string, 'utf8').split('\n')[0] as string) as { id: string }).id;

/** Seconds one run of `node ARGS` takes, from spawn to exit; a failing run stops the benchmark. */
function timed(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status ?? result.signal}: ${result.stderr.trim()}`);
  return seconds;
}

timed([cliPath, '--db', db, 'import', 'dailyqa', ...files]);
const commands = {
  node: ['-e', '0'],
  help: [cliPath, '--help'],
  answer: [cliPath, '--db', db, 'answer', '--query', firstQuery, '--date', '2025-01-04'],
};
const times: Record<keyof typeof commands, number[]> = { node: [], help: [], answer: [] };
for (let run = 0; run < REPETITIONS; run++) {
  for (const name of Object.keys(commands) as Array<keyof typeof commands>) times[name].push(timed(commands[name]));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

report('cli_startup', median(times.answer), 's', {
  answer_s: Number(median(times.answer).toFixed(3)),
  help_s: Number(median(times.help).toFixed(3)),
  node_s: Number(median(times.node).toFixed(3)),
  repetitions: REPETITIONS,
  target_answer_s: TARGET_S,
});
rmSync(dir, { recursive: true, force: true });

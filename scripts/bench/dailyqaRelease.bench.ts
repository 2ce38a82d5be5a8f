/**
 * The published DailyQA release (242,440 daily answers of 8,360 queries over 29 days) imported by
 * the command, then written as one range release (answers and queries as JSON lines and Parquet,
 * card, manifest, changes) by the command as a user runs it: its wall time, CPU time and peak
 * memory; the Parquet file's size against the same rows as gzip JSON lines and against the
 * published gzip files; the time of each part in this process; a release compared with a previous
 * one of the same rows.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { renderDailyQaRelease } from '../../src/release/dailyqaRelease.js';
import { writeRelease } from '../../src/release/writeRelease.js';
import { Store } from '../../src/store/store.js';
import { report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const published = join(sharedData, 'dailyqa-release');
const files = readdirSync(published).filter((name) => name.endsWith('.jsonl.gz')).sort().map((name) => join(published, name));
const [FROM, TO] = ['2025-01-04', '2025-02-01'];
const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-'));
const dbPath = join(dir, 'dailyqa.sqlite');
/** The command's own figures, printed by its process as it exits: peak RSS (KB) and CPU time (µs); by the main thread only, as the hook is loaded in worker threads too. */
const USAGE_HOOK = `data:text/javascript,import { isMainThread } from 'node:worker_threads'; if (isMainThread) process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('\\nusage ' + JSON.stringify({ maxRSS: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime }) + '\\n'); });`;

const cli = (args: string[]) => {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', USAGE_HOOK, join(root, 'bin/wikidelta.js'), '--db', dbPath, '--json', ...args], { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`wikidelta ${args.join(' ')}: ${result.stderr}`);
  const usage = JSON.parse(/^usage (.*)$/m.exec(result.stderr)?.[1] ?? '{}') as { maxRSS: number; cpu: number };
  return { seconds, cpu_s: usage.cpu / 1e6, peak_rss_mb: usage.maxRSS / 1024, output: JSON.parse(result.stdout) as Record<string, unknown> };
};

const imported = cli(['import', 'dailyqa', ...files]);
report('dailyqa_import', imported.seconds, 's', { command: 'wikidelta import dailyqa (29 files)', cpu_s: imported.cpu_s, peak_rss_mb: imported.peak_rss_mb, ...imported.output });

const release = join(dir, 'release');
const command = cli(['export', 'dailyqa', '--from', FROM, '--to', TO, '--out', release]);
const size = (name: string) => statSync(join(release, name)).size;
const answersJsonGzip = gzipSync(readFileSync(join(release, 'answers.jsonl'))).length;
const publishedGzip = files.reduce((sum, file) => sum + statSync(file).size, 0);
report('dailyqa_release', command.seconds, 's', {
  command: `wikidelta export dailyqa --from ${FROM} --to ${TO}`,
  cpu_s: command.cpu_s,
  peak_rss_mb: command.peak_rss_mb,
  ...(command.output.counts as Record<string, number>),
  answers_parquet_bytes: size('answers.parquet'),
  answers_jsonl_bytes: size('answers.jsonl'),
  answers_jsonl_gzip_bytes: answersJsonGzip,
  parquet_vs_gzip_jsonl: Number((size('answers.parquet') / answersJsonGzip).toFixed(3)),
  queries_parquet_bytes: size('queries.parquet'),
  published_gzip_bytes: publishedGzip,
  version: command.output.version,
});

const store = Store.open(dbPath);
const started = performance.now();
const { draft } = await renderDailyQaRelease(store, FROM, TO);
const rendered = performance.now();
const inProcess = await writeRelease(store, join(dir, 'in-process'), draft, 'none');
const finished = performance.now();
report('dailyqa_release_parts', (finished - started) / 1000, 's', {
  render_s: (rendered - started) / 1000,
  write_s: (finished - rendered) / 1000,
  same_version_as_command: inProcess.manifest.version === command.output.version,
});

const compared = join(dir, 'compared');
const diffStarted = performance.now();
const against = await writeRelease(store, compared, draft, { dir: release });
report('dailyqa_release_with_changes', (performance.now() - diffStarted) / 1000, 's', { previous: against.manifest.previous?.version, rows_compared: 2 * Number((command.output.counts as { answers: number }).answers) });
store.close();

rmSync(dir, { recursive: true, force: true });

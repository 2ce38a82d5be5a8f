/**
 * The weekly check stage's seconds for weeks of 1,500 and 3,000 questions (offline tasks, the local
 * BM25 index over the week's pages, as a week read from a dump checks), each week's store made by
 * the stages before it from a synthetic dump of towns (testkit/townDump.ts). Linear when the larger
 * week takes about twice as long: searches whose cost grew with the index made it four times.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runWeekly } from '../../pipelines/weekly.js';
import { windowFrom } from '../../src/dates.js';
import { JsonLinesReporter } from '../../src/runs/progress.js';
import { DumpRevisionSource } from '../../src/sources/dumpSource.js';
import { TOWN_WEEK_START, townDump } from '../../testkit/townDump.js';
import { report } from './report.js';
import { Store } from '../../src/store/store.js';

const reporter = new JsonLinesReporter(new PassThrough());
const timings: Record<number, number> = {};
for (const questions of [1500, 3000]) {
  const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-'));
  const dump = join(dir, 'towns.xml');
  writeFileSync(dump, townDump(questions));
  const store = Store.open(join(dir, 'bench.sqlite'));
  const input = {
    window: windowFrom(TOWN_WEEK_START, 7),
    wiki: 'dump',
    source: new DumpRevisionSource(dump),
    seed: 1,
    revertHours: 48,
    keepContent: false,
    articleBaseUrl: 'https://en.wikipedia.org/wiki/',
  };
  const params = { window: input.window, bench: 'check' };
  await runWeekly({ store, input, stages: ['collect', 'parse', 'diff', 'select', 'timeline', 'generate'], reporter, params });
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const outcome = await runWeekly({ store, input, stages: ['check'], reporter, params });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  timings[questions] = seconds;
  report(`check_${questions}_questions`, seconds, 's', {
    questions_per_s: questions / seconds,
    cpu_s: (cpu.user + cpu.system) / 1e6,
    counts: outcome.run.stages.find((stage) => stage.stage === 'check')?.counts,
  });
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
report('check_growth_3000_over_1500', (timings[3000] as number) / (timings[1500] as number), 'x', { linear: 2 });

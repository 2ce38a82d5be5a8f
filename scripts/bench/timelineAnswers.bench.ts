/**
 * Answer lookups per second and the time to export one date, on the published DailyQA release
 * imported into a fresh store (8,360 queries, 29 days).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeededRandom } from '../../src/random.js';
import { answerQuery } from '../../src/timeline/answers.js';
import { dailyQaDay } from '../../src/timeline/dailyqaExport.js';
import { importDailyQa } from '../../src/timeline/dailyqaImport.js';
import { report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';
import { Store } from '../../src/store/store.js';

const releaseDir = join(sharedData, 'dailyqa-release');
const files = readdirSync(releaseDir).filter((name) => name.endsWith('.jsonl.gz')).sort().map((name) => join(releaseDir, name));
const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-'));
const store = Store.open(join(dir, 'bench.sqlite'));

const importStarted = performance.now();
const imported = await importDailyQa(store, files);
const importSeconds = (performance.now() - importStarted) / 1000;

const ids = store.db.prepare('SELECT id FROM queries').pluck().all() as string[];
const dates = files.map((file) => `20${/qa_(\d{2})(\d{2})(\d{2})/.exec(file)?.slice(1).join('-')}`);
const random = new SeededRandom(7);
const lookups = Array.from({ length: 300_000 }, () => [random.pick(ids), random.pick(dates)] as const);
for (const [id, date] of lookups.slice(0, 10_000)) answerQuery(store, id, date);
const lookupStarted = performance.now();
let found = 0;
for (const [id, date] of lookups) if (answerQuery(store, id, date).status !== 'unknown') found++;
const lookupSeconds = (performance.now() - lookupStarted) / 1000;
report('answer_lookups', lookups.length / lookupSeconds, 'lookups/s', {
  lookups: lookups.length,
  answered: found,
  seconds: lookupSeconds,
  queries: imported.queries,
  daily_answers: imported.days,
  intervals: imported.intervals,
  import_seconds: importSeconds,
});

const timings: number[] = [];
let lines = 0;
for (const date of dates.slice(0, 7)) {
  const started = performance.now();
  lines = dailyQaDay(store, date).lines.split('\n').length - 1;
  timings.push((performance.now() - started) / 1000);
}
timings.sort((a, b) => a - b);
report('export_one_date', timings[Math.floor(timings.length / 2)] as number, 's', { queries: lines, dates_timed: timings.length, best_s: timings[0] });

store.close();
rmSync(dir, { recursive: true, force: true });

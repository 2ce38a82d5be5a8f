/**
 * Predictions scored per second on 100,000 predictions (target: at least 100,000/s), over the
 * published DailyQA answers with predictions that are exact, padded with words, wrong or empty:
 * each prediction's weekly scores (EM, F1, SM); the whole weekly report, whose 1,000 bootstrap
 * resamples of 100,000 draws are a cost of their own; GrowOVER's five groups; the file parsed.
 * CPU seconds are given beside wall seconds, since the machine may be shared.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parsePredictions, scoreGrowover, scoreWeekly, weeklyItemScore, type GrowoverCase, type WeeklyCase } from '../../src/evaluate/index.js';
import { SeededRandom } from '../../src/random.js';
import { report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';

const PREDICTIONS = 100_000;
const releaseDir = join(sharedData, 'dailyqa-release');
const answers = gunzipSync(readFileSync(join(releaseDir, 'qa_250120.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => (JSON.parse(line) as { answer: string | null }).answer)
  .filter((answer): answer is string => answer !== null && answer !== '');

const random = new SeededRandom(11);
const predictionFor = (gold: string): string => {
  const roll = random.next();
  if (roll < 0.4) return gold;
  if (roll < 0.7) return `As of today, the answer is ${gold}.`;
  if (roll < 0.95) return random.pick(answers);
  return '';
};
const domains = ['Sports and Entertainment', 'Politics and Law', 'Geography and Environment', 'Culture and Arts'];
const weekly: WeeklyCase[] = Array.from({ length: PREDICTIONS }, (_, i) => {
  const gold = random.pick(answers);
  return {
    gold: {
      id: `q${i}`,
      date: '2025-01-27',
      status: 'ok',
      answer: gold,
      changedAt: `2025-01-${String(10 + (i % 17)).padStart(2, '0')}T12:00:00Z`,
      domain: random.pick(domains),
      frequency: i % 3 === 0 ? 'frequent_update' : 'infrequent_update',
      week: '2025-01-20',
    },
    prediction: predictionFor(gold),
  };
});
const types = ['SAME', 'NEW', 'CHANGED'] as const;
const growover: GrowoverCase[] = weekly.map((c, i) => ({
  gold: { id: c.gold.id, type: types[i % 3] as (typeof types)[number], answer: c.gold.answer as string, oldAnswer: i % 3 === 2 ? random.pick(answers) : null },
  prediction: c.prediction,
}));

function perSecond(run: () => void): { rate: number; seconds: number; cpu_seconds: number } {
  run(); // warm-up
  const started = performance.now();
  const cpu = process.cpuUsage();
  run();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  return { rate: PREDICTIONS / seconds, seconds, cpu_seconds: (used.user + used.system) / 1e6 };
}

let scored = 0;
const itemRun = perSecond(() => {
  scored = 0;
  for (const c of weekly) scored += weeklyItemScore(c).f1;
});
report('evaluate_weekly_scoring', itemRun.rate, 'predictions/s', { predictions: PREDICTIONS, seconds: itemRun.seconds, cpu_seconds: itemRun.cpu_seconds, f1: Number((scored / PREDICTIONS).toFixed(4)) });

let em = 0;
const weeklyRun = perSecond(() => {
  em = scoreWeekly(weekly, { seed: 1 }).em;
});
report('evaluate_weekly', weeklyRun.rate, 'predictions/s', { predictions: PREDICTIONS, seconds: weeklyRun.seconds, cpu_seconds: weeklyRun.cpu_seconds, bootstrap_resamples: 1000, em: Number(em.toFixed(4)) });

let changedDel = 0;
const growoverRun = perSecond(() => {
  changedDel = scoreGrowover(growover, { seed: 1 }).CHANGED_DEL.em;
});
report('evaluate_growover', growoverRun.rate, 'predictions/s', { predictions: PREDICTIONS, seconds: growoverRun.seconds, cpu_seconds: growoverRun.cpu_seconds, changed_del_em: Number(changedDel.toFixed(4)) });

const jsonl = weekly.map((c) => JSON.stringify({ id: c.gold.id, prediction: c.prediction })).join('\n');
const parseRun = perSecond(() => {
  parsePredictions(jsonl, 'bench.jsonl');
});
report('evaluate_parse_predictions', parseRun.rate, 'predictions/s', { predictions: PREDICTIONS, seconds: parseRun.seconds, cpu_seconds: parseRun.cpu_seconds });

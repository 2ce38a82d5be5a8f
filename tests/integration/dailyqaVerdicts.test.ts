/**
 * Verdicts on the published DailyQA release (29 days, 8,360 queries): a system that answers each day
 * with the previous day's file knows the world one day late. Wherever the answer changed from one
 * value to another, it must be outdated, every time, by one change and one day; where the answer
 * stayed, current; where there is no value, `no_value`. The knowledge decay figure then shows it
 * outdated by the newest changes, and only by them.
 */
import { createReadStream, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { squadNormalise } from '../../src/text/normalise.js';
import { readDailyQaFile } from '../../src/timeline/dailyqaImport.js';
import { runCliOk, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';

const releaseDir = join(sharedData, 'dailyqa-release');
const files = readdirSync(releaseDir).filter((name) => name.endsWith('.jsonl.gz')).sort().map((name) => join(releaseDir, name));

interface Item {
  id: string;
  date: string;
  verdict: string;
  age_days: number | null;
  changes_ago: number | null;
}

describe('an outdated-only system on the published DailyQA days', () => {
  const dir = tempDir();
  const db = join(dir, 'dailyqa.sqlite');
  const answers = new Map<string, Map<string, string | null>>();
  const dates: string[] = [];
  let report: Record<string, any>;
  const items: Item[] = [];

  beforeAll(async () => {
    await runCliOk(['--db', db, 'import', 'dailyqa', ...files]);
    for (const file of files) {
      const day = await readDailyQaFile(file);
      dates.push(day.date);
      answers.set(day.date, new Map(day.rows.map((row) => [row.id, row.answer])));
    }
    // Each day from the second on, every query answered with the day before's answer ("unknown" for a null).
    const lines: string[] = [];
    for (let d = 1; d < dates.length; d++) {
      const previous = answers.get(dates[d - 1] as string) as Map<string, string | null>;
      for (const [id, answer] of previous) lines.push(`${JSON.stringify({ id, prediction: answer ?? 'unknown', date: dates[d] })}\n`);
    }
    const predictions = join(dir, 'yesterday.jsonl');
    writeFileSync(predictions, lines.join(''));
    const out = join(dir, 'evaluation');
    const scored = await runCliOk(['--db', db, '--json', 'evaluate', 'weekly', '--predictions', predictions, '--from', dates[1] as string, '--to', dates.at(-1) as string, '--out', out]);
    report = JSON.parse(scored.stdout);
    for await (const line of createInterface({ input: createReadStream(join(out, 'items.jsonl')), crlfDelay: Infinity })) {
      const { id, date, verdict, age_days, changes_ago } = JSON.parse(line) as Item;
      items.push({ id, date, verdict, age_days, changes_ago });
    }
  }, 300_000);

  it('is outdated, by one change and one day, wherever the answer changed from one value to another', () => {
    const isValue = (answer: string | null | undefined): answer is string => answer !== null && answer !== undefined && answer !== '';
    let changed = 0;
    let kept = 0;
    let unmatchable = 0;
    for (const item of items) {
      const before = answers.get(dates[dates.indexOf(item.date) - 1] as string)?.get(item.id);
      const now = answers.get(item.date)?.get(item.id);
      const where = `${item.id} on ${item.date}: ${String(before)} → ${String(now)}`;
      if (!isValue(now)) {
        expect(item.verdict, where).toBe('no_value');
      } else if (isValue(before) && squadNormalise(before) === squadNormalise(now)) {
        kept++;
        expect(item.verdict, where).toBe('current');
      } else if (isValue(before) && squadNormalise(before) !== '') {
        changed++;
        expect(item, where).toMatchObject({ verdict: 'outdated', age_days: 1, changes_ago: 1 });
      } else if (isValue(before)) {
        // A value with nothing left once normalised ("?", "-") is no answer anyone can give: yesterday's reply matches nothing.
        unmatchable++;
        expect(item.verdict, where).toBe('wrong');
      }
    }
    console.log(`DailyQA, yesterday's answers: ${changed} changed value → value (all outdated), ${kept} unchanged (all current), ${unmatchable} from a value like "?" (wrong), of ${items.length} items`);
    expect(changed).toBeGreaterThan(10_000);
    expect(report.outdated_detail).toEqual({ n: changed, by_age_days: { '1': changed }, by_changes_ago: { '1': changed } });
    expect(report.n).toBe(items.filter((item) => item.verdict !== 'no_value').length);
    expect(report.future).toBe(0);
  });

  it('is outdated only on answers changed the day before: the decay curve falls to zero after the first bin', () => {
    // Answers that changed overnight (0 days at 00:00) are the outdated ones; older ones are current.
    const bins = report.by_days_since_change as Record<string, { n: number; outdated: number }>;
    expect(bins['0']?.outdated).toBeGreaterThan(90);
    for (const [bin, group] of Object.entries(bins)) if (bin !== '0' && bin !== 'unknown') expect(group.outdated, bin).toBe(0);
    // Answers in effect since the first published day: no change was seen, so their days are unknown.
    expect(bins.unknown?.n).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'evaluation', 'report.json'), 'utf8')).toContain('"outdated_detail"');
  });
});

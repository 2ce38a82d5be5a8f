/**
 * The cron forms of the commands through the real CLI and a real store: weekly --last-week,
 * snapshot and monthly --last-month, and status --check on what they leave. The dates they choose
 * are tested with fixed clocks in tests/unit/runs/cronSchedule.test.ts; here they must match the clock.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { lastCompleteMonth, lastCompleteWeekStart, monthEnd } from '../../src/dates.js';

const SAMPLE = join(sharedData, 'enwiki-history-sample.xml');

describe('cron forms', () => {
  it('status --check refuses a misspelt --pipeline as a usage error rather than alarming that no such run ever ran', async () => {
    const db = join(tempDir(), 'w.sqlite');
    const misspelt = await runCli(['--db', db, 'status', '--check', '--pipeline', 'weeklyy']);
    expect([misspelt.code, misspelt.errorCode]).toEqual([2, 'E_USAGE']);
    expect(misspelt.stderr).toContain('weekly, sync, monthly-snapshot, monthly-label, monthly');
  });

  it('weekly --last-week runs the last complete Monday-to-Sunday week past its revert horizon and refuses --start or --days beside it', async () => {
    const db = join(tempDir(), 'w.sqlite');
    await runCliOk(['--db', db, '--json', 'weekly', '--last-week', '--dump', SAMPLE, '--stages', 'collect']);
    // The week whose 48 hours of revert horizon have passed.
    const start = lastCompleteWeekStart(new Date(), 48);
    const runs = jsonLines((await runCli(['--db', db, '--json', 'status'])).stdout)[0]?.runs as Array<{ params: { window: { start: string; end: string } } }>;
    expect(runs[0]?.params.window.start).toBe(`${start}T00:00:00Z`);
    expect(Date.parse(runs[0]?.params.window.end ?? '') - Date.parse(`${start}T00:00:00Z`)).toBe(7 * 86_400_000);
    for (const extra of [['--start', '2021-01-04'], ['--days', '3']]) {
      const refused = await runCli(['--db', db, 'weekly', '--last-week', ...extra, '--dump', SAMPLE]);
      expect(refused.code).toBe(2);
      expect([refused.errorCode, refused.stderr]).toEqual(['E_USAGE', expect.stringContaining('--last-week is a whole week: give it without --start or --days')]);
    }
    const neither = await runCli(['--db', db, 'weekly', '--dump', SAMPLE]);
    expect(neither.code).toBe(2);
    expect([neither.errorCode, neither.stderr]).toEqual(['E_USAGE', expect.stringContaining("--start <date>' not specified (or give --last-week)")]);
  });

  it('snapshot and monthly --last-month name the snapshot by the month and take it as of the month end; status --check passes', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const month = lastCompleteMonth(new Date());
    const town = join(dir, 'town.xml');
    const text = 'Tiny Town is a town in Examplia. It has a population of 100 people. The town lies on the Blue River. It was founded in 1850.';
    writeFileSync(
      town,
      `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10"><page><title>Tiny Town</title><ns>0</ns><id>1</id><revision><id>1</id><timestamp>2020-12-15T10:00:00Z</timestamp><contributor><username>A</username><id>1</id></contributor><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">${text}</text></revision></page></mediawiki>\n`,
    );
    const snapshot = await runCliOk(['--db', db, '--json', 'snapshot', '--last-month', '--dump', town]);
    expect(jsonLines(snapshot.stdout)[0]).toMatchObject({ snapshot: month, articles: 1 });
    const monthly = await runCliOk(['--db', db, 'monthly', '--last-month', '--llm', 'offline']);
    expect(monthly.stdout).toMatch(new RegExp(`^run \\d+ \\(done\\) monthly ${month}\\n`));
    const runs = jsonLines((await runCli(['--db', db, '--json', 'status'])).stdout)[0]?.runs as Array<{ pipeline: string; params: Record<string, unknown> }>;
    expect(JSON.stringify(runs.find((run) => run.pipeline === 'monthly-snapshot')?.params)).toContain(`${monthEnd(month)}T00:00:00Z`);
    const refused = await runCli(['--db', db, 'snapshot', '--last-month', '--name', 'x', '--dump', town]);
    expect(refused.code).toBe(2);
    const check = await runCliOk(['--db', db, 'status', '--check', '--max-age', '1']);
    expect(check.stdout).toMatch(/^ok: run 2 monthly done, finished /);
  }, 120_000);

  it('monthly --last-month runs a month snapshotted but never run before the last month, from its own snapshot; status shows months an earlier month made again cleared as to run again', async () => {
    const db = join(tempDir(), 'months.sqlite');
    const sample = join(repoRoot, 'data/sample/sample-history.xml');
    const monthBefore = (month: string) => lastCompleteMonth(new Date(`${month}-15T00:00:00Z`));
    const last = lastCompleteMonth(new Date());
    const [missed, first] = [monthBefore(last), monthBefore(monthBefore(last))];
    // Three months of the sample named as the three months before now; the middle one's monthly never ran.
    for (const [name, asOf] of [[first, '2025-01-15'], [missed, '2025-02-15'], [last, '2025-03-15']] as const) {
      await runCliOk(['--db', db, 'snapshot', '--name', name, '--as-of', asOf, '--dump', sample]);
      if (name === first) await runCliOk(['--db', db, 'monthly', '--new', first, '--llm', 'offline']);
    }
    const lastRun = (stdout: string) => {
      const block = stdout.slice(stdout.indexOf(`monthly ${missed} → ${last}`));
      return { kept: Number(/kept_qa=(\d+)/.exec(block)?.[1]), initial: Number(/initial_articles=(\d+)/.exec(block)?.[1]), articles: Number(/generate +done .*?articles=(\d+)/.exec(block)?.[1]) };
    };
    const due = await runCliOk(['--db', db, 'monthly', '--last-month', '--llm', 'offline']);
    expect(due.stdout).toMatch(new RegExp(`^run \\d+ \\(done\\) monthly ${first} → ${missed}\\n[\\s\\S]*^run \\d+ \\(done\\) monthly ${missed} → ${last}\\n`, 'm'));
    // The last month carries items over from the missed one, rather than starting over from a month without items.
    const made = lastRun(due.stdout);
    expect(made.kept).toBeGreaterThan(0);
    expect(made.initial).toBeLessThan(made.articles);
    await runCliOk(['--db', db, 'status', '--check', '--pipeline', 'monthly']);

    // The first month made again clears the items of the two after it: status says they are to run again.
    await runCliOk(['--db', db, 'monthly', '--new', first, '--llm', 'offline', '--redo', 'generate']);
    const status = await runCliOk(['--db', db, 'status']);
    for (const month of [missed, last]) expect(status.stdout).toMatch(new RegExp(`^run \\d+ monthly cleared .*\\n .*new=${month} .*\\n  note: the results of maintain, generate were cleared since`, 'm'));
    const runs = jsonLines((await runCliOk(['--db', db, '--json', 'status'])).stdout)[0]?.runs as Array<{ pipeline: string; status: string; params: Record<string, unknown> }>;
    expect(runs.filter((run) => run.pipeline === 'monthly').map((run) => [run.params.new, run.status])).toEqual([[last, 'cleared'], [missed, 'cleared'], [first, 'done']]);
    const check = await runCli(['--db', db, 'status', '--check', '--pipeline', 'monthly']);
    expect([check.code, check.errorCode]).toEqual([1, 'E_STATUS_UNHEALTHY']);
    expect(check.stderr).toMatch(/monthly cleared, finished .*: its results were cleared since/);
    // The cron form makes them again, in order, as the months made one after the other.
    const again = await runCliOk(['--db', db, 'monthly', '--last-month', '--llm', 'offline']);
    expect(lastRun(again.stdout)).toEqual(made);
    await runCliOk(['--db', db, 'status', '--check', '--pipeline', 'monthly']);
  }, 300_000);
});

/**
 * Runs as a hostile but fair user meets them, through the real command and a real store: stages run
 * out of order, runs killed with SIGKILL, stores locked, read-only or busy, and arguments that name
 * nothing sensible. Each ends in one line and the exit code the README promises, never in an empty
 * week that looks finished.
 */
import Sqlite from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliPath, collect, errorOf, jsonLines, repoRoot, runCli, runCliOk, startCli, tempDir, waitForOutput } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { TOWN_WEEK_START, townDump } from '../../testkit/townDump.js';

const SAMPLE = join(sharedData, 'enwiki-history-sample.xml');
const WEEK = ['weekly', '--start', '2021-01-04', '--dump', SAMPLE, '--llm', 'offline'];

/** The select stage's data units in a weekly run's summary. */
function dataUnits(stdout: string): number {
  return Number(/select +done +.*data_units=(\d+)/.exec(stdout)?.[1]);
}

/** A history dump of one article, revision by revision. */
function tinyDump(title: string, revisions: Array<[string, string]>): string {
  const entries = revisions.map(
    ([timestamp, text], index) =>
      `<revision><id>${index + 1}</id><timestamp>${timestamp}</timestamp><contributor><username>A</username><id>1</id></contributor><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">${text}</text></revision>`,
  );
  return `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10"><page><title>${title}</title><ns>0</ns><id>1</id>${entries.join('')}</page></mediawiki>\n`;
}

/** The one error line a failed command printed, as its stable code and its message. */
function oneLineError(stderr: string): { code: string; message: string } | null {
  expect(stderr.split('\n').filter((line) => line.startsWith('wikidelta:'))).toHaveLength(1);
  return errorOf(stderr);
}

describe('stage order', () => {
  it('refuses stages whose inputs are not done, naming the stage to run first, so the full run still finds the week', async () => {
    const db = join(tempDir(), 'w.sqlite');
    const early = await runCli(['--db', db, ...WEEK, '--stages', 'parse,diff,select']);
    expect(early.code).toBe(1);
    expect(oneLineError(early.stderr)).toEqual({ code: 'E_PREREQUISITE_MISSING', message: 'stage "parse" needs stage "collect" done first: add collect to --stages' });
    const reversed = await runCli(['--db', db, ...WEEK, '--stages', 'select,collect']);
    expect(reversed.code).toBe(1);
    expect(oneLineError(reversed.stderr)?.code).toBe('E_PREREQUISITE_MISSING');
    const full = await runCliOk(['--db', db, ...WEEK]);
    expect(dataUnits(full.stdout)).toBe(1);
  });

  it('redoes, after a collect made again, every stage that reads it, and documents --redo', async () => {
    const db = join(tempDir(), 'w.sqlite');
    await runCliOk(['--db', db, ...WEEK]);
    const recollect = await runCliOk(['--db', db, ...WEEK, '--stages', 'collect', '--redo', 'collect']);
    expect(recollect.stdout).toMatch(/collect +done/);
    const after = await runCliOk(['--db', db, ...WEEK]);
    expect(after.stdout).toMatch(/collect +done .*\(already done, skipped\)/);
    for (const stage of ['parse', 'diff', 'select', 'timeline', 'generate', 'check', 'classify', 'export']) {
      expect(after.stdout).toMatch(new RegExp(`\\n  ${stage} +done +[^\\n(]*\\n`));
    }
    expect(dataUnits(after.stdout)).toBe(1);
    expect((await runCli(['weekly', '--help'])).stdout).toMatch(/--redo <list> +stages to run again although done/);
  });
});

describe('a collect redone on purpose', () => {
  /** A dump's <sha1>: the text's SHA-1 in base 36, 31 digits. */
  const sha1Base36 = (text: string) => BigInt(`0x${createHash('sha1').update(text).digest('hex')}`).toString(36).padStart(31, '0');
  /** A town whose infobox says `population`, as one revision of a history dump. */
  const town = (title: string, population: number) =>
    `{{Infobox settlement\n| name = ${title}\n| population_total = ${population}\n}}\n'''${title}''' is a town with ${population} people.`;
  const dump = (pages: Array<[number, string, Array<[string, number]>]>) => {
    let revId = 0;
    const xml = pages.map(([pageId, title, revisions]) => {
      const entries = revisions.map(
        ([timestamp, population]) =>
          `<revision><id>${++revId}</id><timestamp>${timestamp}</timestamp><contributor><username>A</username><id>1</id></contributor><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">${town(title, population)}</text><sha1>${sha1Base36(town(title, population))}</sha1></revision>`,
      );
      return `<page><title>${title}</title><ns>0</ns><id>${pageId}</id>${entries.join('')}</page>`;
    });
    return `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10">${xml.join('')}</mediawiki>\n`;
  };

  it('reads every page again: a revert that came after the week and a page deleted since leave no question, as in a fresh run', async () => {
    const dir = tempDir();
    const before = join(dir, 'before.xml');
    const after = join(dir, 'after.xml');
    const gamma: [number, string, Array<[string, number]>] = [3, 'Gamma', [['2020-12-01T00:00:00Z', 7], ['2021-01-07T00:00:00Z', 8]]];
    // Alpha's change on Friday is undone on Monday after the week, within 48 hours; Beta is deleted after the week ran.
    writeFileSync(before, dump([[1, 'Alpha', [['2020-12-01T00:00:00Z', 100], ['2021-01-09T12:00:00Z', 999]]], [2, 'Beta', [['2020-12-01T00:00:00Z', 5], ['2021-01-05T00:00:00Z', 6]]], gamma]));
    writeFileSync(after, dump([[1, 'Alpha', [['2020-12-01T00:00:00Z', 100], ['2021-01-09T12:00:00Z', 999], ['2021-01-11T09:00:00Z', 100]]], gamma]));
    const week = (db: string, file: string, out: string, extra: string[] = []) =>
      runCliOk(['--db', db, 'weekly', '--start', '2021-01-04', '--dump', file, '--llm', 'offline', '--out', join(dir, out), ...extra]);
    const queries = (out: string) => jsonLines(readFileSync(join(dir, out, 'queries.jsonl'), 'utf8')).map((query) => `${query.title}: ${query.answer}`);

    const db = join(dir, 'cron.sqlite');
    expect(dataUnits((await week(db, before, 'first')).stdout)).toBe(3);
    const redone = await week(db, after, 'redone', ['--redo', 'collect']);
    expect(redone.stdout).toMatch(/collect +done +pages=2 .*skipped_pages=0/);
    await week(join(dir, 'fresh.sqlite'), after, 'fresh');
    expect(queries('fresh')).toEqual(['Gamma: 8']);
    expect(queries('redone')).toEqual(queries('fresh'));
    expect(readFileSync(join(dir, 'redone', 'qa_210111.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'fresh', 'qa_210111.jsonl'), 'utf8'));
  });
});

describe('status', () => {
  it('shows a run killed with SIGKILL as interrupted, not running, and the stage it was in too', async () => {
    const db = join(tempDir(), 'w.sqlite');
    // Reading the dump from a pipe that never ends keeps the run inside collect until it is killed.
    const child = startCli(['--db', db, '--json', 'weekly', '--start', '2021-01-04', '--dump', '-', '--llm', 'offline']);
    const ended = collect(child);
    child.stdin?.write('<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/">\n');
    await waitForOutput(child, 'stderr', /"stage":"collect"/);
    child.kill('SIGKILL');
    expect((await ended).signal).toBe('SIGKILL');
    const status = await runCliOk(['--db', db, 'status']);
    expect(status.stdout).toMatch(/^run 1 weekly interrupted \(process \d+ is gone\)/m);
    // The stage it was in is interrupted too, not running.
    expect(status.stdout).toMatch(/^ {2}collect +interrupted /m);
    expect(status.stdout).not.toMatch(/ running /);
    type Shown = { runs: Array<{ id: number; status: string; errorCode: string | null; stages: Array<{ stage: string; status: string; errorCode: string | null }>; failures: Array<{ stage: string | null; errorCode: string | null }> }> };
    const json = JSON.parse((await runCli(['--db', db, '--json', 'status'])).stdout) as Shown;
    expect(json.runs[0]?.status).toBe('interrupted');
    expect(json.runs[0]?.stages.find((stage) => stage.stage === 'collect')?.status).toBe('interrupted');

    // The next writer finds the lock stale and records the run as interrupted, with its code: shown the same.
    const broken = join(tempDir(), 'broken.xml');
    writeFileSync(broken, '<mediawiki><page><title>A</title>');
    expect((await runCli(['--db', db, 'weekly', '--start', '2022-01-03', '--dump', broken])).code).toBe(1);
    const after = JSON.parse((await runCliOk(['--db', db, '--json', 'status'])).stdout) as Shown;
    const killed = after.runs.find((run) => run.id === 1);
    expect([killed?.status, killed?.errorCode]).toEqual(['interrupted', 'E_RUN_INTERRUPTED']);
    expect(killed?.stages.find((stage) => stage.stage === 'collect')).toMatchObject({ status: 'interrupted', errorCode: 'E_RUN_INTERRUPTED' });
    expect(killed?.failures).toEqual([expect.objectContaining({ stage: null, errorCode: 'E_RUN_INTERRUPTED' })]);
  });

  it('shows a store with weekly, sync, snapshot, label and monthly runs, every failure of a run kept, and checks the newest for monitoring', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    // One small article in two versions keeps labeling and generation quick.
    const town = join(dir, 'town.xml');
    writeFileSync(town, tinyDump('Tiny Town', [
      ['2020-12-15T10:00:00Z', 'Tiny Town is a town in Examplia. It has a population of 100 people. The town lies on the Blue River. It was founded in 1850.'],
      ['2021-01-15T10:00:00Z', 'Tiny Town is a town in Examplia. It has a population of 120 people. The town lies on the Blue River. It was founded in 1850.'],
    ]));
    const steps = [
      WEEK,
      ['sync', '--until', '2021-02-01', '--dump', SAMPLE],
      ['snapshot', '--name', 'jan', '--dump', town, '--as-of', '2021-01-01'],
      ['monthly', '--new', 'jan', '--llm', 'offline'],
      ['snapshot', '--name', 'feb', '--dump', town, '--as-of', '2021-02-01'],
      ['label', '--old', 'jan', '--new', 'feb'],
      ['monthly', '--old', 'jan', '--new', 'feb', '--llm', 'offline'],
    ];
    for (const step of steps) {
      const result = await runCli(['--db', db, ...step]);
      expect(result.code, `${step.join(' ')}: ${result.stderr}`).toBe(0);
    }
    const broken = join(tempDir(), 'broken.xml');
    writeFileSync(broken, '<mediawiki><page><title>A</title>');
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await runCli(['--db', db, 'weekly', '--start', '2022-01-03', '--dump', broken])).code).toBe(1);
    }
    const status = await runCliOk(['--db', db, 'status']);
    for (const pipeline of ['weekly', 'sync', 'monthly-snapshot', 'monthly-label', 'monthly']) expect(status.stdout).toMatch(new RegExp(`^run \\d+ ${pipeline} `, 'm'));
    expect(status.stdout).toMatch(/old=jan new=feb/);
    expect(status.stdout).toMatch(/old=- new=jan/);
    expect(status.stdout.match(/^ {2}failure \d+: collect: /gm)).toHaveLength(2);
    // The newest run failed: the check says so in one line and exits 1; the monthly job is fine.
    const check = await runCli(['--db', db, 'status', '--check', '--max-age', '24']);
    expect(check.code).toBe(1);
    expect(oneLineError(check.stderr)?.code).toBe('E_STATUS_UNHEALTHY');
    const monthly = await runCliOk(['--db', db, 'status', '--check', '--max-age', '24', '--pipeline', 'monthly']);
    expect(monthly.stdout).toMatch(/^ok: run \d+ monthly done, finished .* \(0\.\d h ago\)\n$/);
    await runCliOk(['--db', db, 'status', '--check', '--pipeline', 'sync']);
  }, 180_000);
});

describe('exit codes and one-line refusals', () => {
  it('a store another process keeps locked past the busy timeout: exit 1 naming it', async () => {
    const db = join(tempDir(), 'w.sqlite');
    await runCliOk(['--db', db, ...WEEK, '--stages', 'collect']);
    const holder = spawn(process.execPath, [
      '-e',
      `const D = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))}); const db = new D(${JSON.stringify(db)}); db.exec('BEGIN EXCLUSIVE'); console.log('held'); setTimeout(() => {}, 60000);`,
    ]);
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    try {
      const busy = await runCli(['--db', db, ...WEEK]);
      expect(busy.code).toBe(1);
      expect(oneLineError(busy.stderr)?.code).toBe('E_STORE_BUSY');
    } finally {
      holder.kill('SIGKILL');
    }
  }, 60_000);

  it('a read-only store: exit 1 naming it', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const db = join(dir, 'w.sqlite');
    await runCliOk(['--db', db, ...WEEK, '--stages', 'collect']);
    const readOnly = join(dir, 'ro.sqlite');
    copyFileSync(db, readOnly);
    chmodSync(readOnly, 0o444);
    // As root no permission is ever missing: run the command as an unprivileged user.
    const result = spawnSync(process.execPath, [cliPath, '--db', readOnly, ...WEEK], { uid: 65534, gid: 65534, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(oneLineError(result.stderr)?.code).toBe('E_STORE_READ_ONLY');
  });

  it('--out naming a file where a directory is expected, or a path under a file: exit 1 naming it', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'not a directory\n');
    await runCliOk(['--db', db, ...WEEK]);
    for (const out of [file, join(file, 'release')]) {
      const result = await runCli(['--db', db, 'export', 'weekly', '--start', '2021-01-04', '--out', out]);
      expect(result.code, result.stderr).toBe(1);
      expect(oneLineError(result.stderr)?.code).toBe('E_OUTPUT_UNWRITABLE');
    }
    const underFile = await runCli(['--db', db, 'export', 'dailyqa', '--date', '2021-01-05', '--out', join(file, 'qa.jsonl')]);
    expect(underFile.code).toBe(1);
    expect(oneLineError(underFile.stderr)?.code).toBe('E_OUTPUT_UNWRITABLE');
  });

  it('--days far past any calendar: exit 1 naming the limit', async () => {
    const result = await runCli(['--db', join(tempDir(), 'w.sqlite'), 'weekly', '--start', '2021-01-04', '--days', '100000000', '--dump', SAMPLE]);
    expect(result.code).toBe(1);
    expect(oneLineError(result.stderr)?.code).toBe('E_DATE_RANGE_INVALID');
  });

  it('import dailyqa and export refuse while another run holds the lock', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    await runCliOk(['--db', db, ...WEEK]);
    const runner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    writeFileSync(`${db}.lock`, JSON.stringify({ pid: runner.pid, host: hostname(), startedAt: '2021-01-04T00:00:00Z', command: 'weekly' }));
    const file = join(dir, 'qa_210105.jsonl');
    writeFileSync(file, '{"id":"21010400-x","query":"q?","answer":"a"}\n');
    try {
      for (const args of [
        ['import', 'dailyqa', file],
        ['export', 'weekly', '--start', '2021-01-04', '--out', join(dir, 'release')],
        ['export', 'dailyqa', '--date', '2021-01-05'],
      ]) {
        const result = await runCli(['--db', db, ...args]);
        expect(result.code, args.join(' ')).toBe(1);
        expect(oneLineError(result.stderr)).toEqual({ code: 'E_STORE_LOCKED', message: expect.stringContaining(`is locked by another run (pid ${runner.pid} `) });
      }
    } finally {
      runner.kill('SIGKILL');
    }
  });

  it('refuses with one line: changes ending before they start, one snapshot as both old and new, unusable snapshot names', async () => {
    const db = join(tempDir(), 'w.sqlite');
    await runCliOk(['--db', db, ...WEEK, '--stages', 'collect']);
    const changes = await runCli(['--db', db, 'changes', '--start', '2021-01-10', '--end', '2021-01-04']);
    // A range that runs backwards is one code wherever it is met (export dailyqa, evaluate, changes).
    expect(changes.code).toBe(1);
    expect(oneLineError(changes.stderr)).toEqual({ code: 'E_DATE_RANGE_INVALID', message: expect.stringContaining('--end 2021-01-04 is before --start 2021-01-10') });
    const same = await runCli(['--db', db, 'monthly', '--old', 'jan', '--new', 'jan', '--llm', 'offline']);
    expect(same.code).toBe(2);
    expect(oneLineError(same.stderr)).toEqual({ code: 'E_USAGE', message: expect.stringContaining('--old and --new name the same snapshot "jan"') });
    for (const name of ['', '   ', 'a/b', 'a\nb']) {
      const result = await runCli(['--db', db, 'snapshot', '--name', name, '--dump', SAMPLE]);
      expect(result.code, JSON.stringify(name)).toBe(2);
      expect(oneLineError(result.stderr)).toEqual({ code: 'E_USAGE', message: expect.stringContaining('invalid snapshot name') });
    }
    const store = new Sqlite(db, { readonly: true });
    expect(store.prepare('SELECT COUNT(*) FROM snapshots').pluck().get()).toBe(0);
    store.close();
  });

  it("lists failures as JSON too, each with the code of the command's error line", async () => {
    const db = join(tempDir(), 'w.sqlite');
    const broken = join(tempDir(), 'broken.xml');
    writeFileSync(broken, '<mediawiki><page><title>A</title>');
    const failed = await runCli(['--db', db, 'weekly', '--start', '2022-01-03', '--dump', broken]);
    expect(failed.code).toBe(1);
    const { code, message } = oneLineError(failed.stderr) ?? {};
    expect(code).toBe('E_DUMP_TRUNCATED');
    type Shown = { errorCode: string; error: string; stages: Array<{ stage: string; errorCode: string | null; error: string | null }>; failures: Array<{ stage: string; errorCode: string; error: string }> };
    const runs = jsonLines((await runCliOk(['--db', db, '--json', 'status'])).stdout)[0]?.runs as Shown[];
    expect(runs[0]?.failures.map((failure) => [failure.stage, failure.errorCode, failure.error])).toEqual([['collect', 'E_DUMP_TRUNCATED', message]]);
    expect([runs[0]?.errorCode, runs[0]?.error]).toEqual(['E_DUMP_TRUNCATED', `collect: ${message}`]);
    const [collectStage, ...later] = runs[0]?.stages ?? [];
    expect([collectStage?.stage, collectStage?.errorCode, collectStage?.error]).toEqual(['collect', 'E_DUMP_TRUNCATED', message]);
    expect(later.length).toBeGreaterThan(3);
    expect(later.filter((stage) => stage.errorCode !== null || stage.error !== null)).toEqual([]);
    // The text shows the code as the command's line did, and --check's line carries it too.
    const status = await runCliOk(['--db', db, 'status']);
    expect(status.stdout).toMatch(/^ {2}collect +failed .* error: E_DUMP_TRUNCATED: /m);
    expect(status.stdout).toMatch(/^ {2}failure 1: collect: E_DUMP_TRUNCATED: /m);
    expect(errorOf((await runCli(['--db', db, 'status', '--check'])).stderr)?.message).toMatch(/: E_DUMP_TRUNCATED: collect: /);
  });
});

describe('data never dropped silently, titles as MediaWiki reads them', () => {
  it('import dailyqa refuses one id answered differently twice for one date, and imports nothing', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const plain = join(dir, 'qa_210104.jsonl');
    writeFileSync(plain, '{"id":"21010400-a","query":"Who?","answer":"Ada"}\n{"id":"21010400-a","query":"Who?","answer":"Grace"}\n');
    const result = await runCli(['--db', db, 'import', 'dailyqa', plain]);
    expect(result.code).toBe(1);
    expect(oneLineError(result.stderr)).toEqual({
      code: 'E_DAILYQA_CONFLICT',
      message: 'query 21010400-a has two answers for 2021-01-04: "Ada" (qa_210104.jsonl) and "Grace" (qa_210104.jsonl); keep one and import again',
    });
    // Nothing imported: not even the store the command would have made.
    expect(existsSync(db)).toBe(false);
    const other = join(dir, 'qa_210105.jsonl');
    writeFileSync(other, '{"id":"21010500-b","query":"Who?","answer":"Ada"}\n');
    await runCliOk(['--db', db, 'import', 'dailyqa', other]);
    const again = await runCli(['--db', db, 'import', 'dailyqa', plain]);
    expect(again.errorCode).toBe('E_DAILYQA_CONFLICT');
    const store = new Sqlite(db, { readonly: true });
    expect(store.prepare('SELECT id FROM queries').pluck().all()).toEqual(['21010500-b']);
    store.close();
  });

  it('answer --title finds a page given with a lowercase first letter and underscores', async () => {
    const db = join(tempDir(), 'w.sqlite');
    await runCliOk(['--db', db, ...WEEK]);
    const asStored = await runCliOk(['--db', db, '--json', 'answer', '--title', 'Ranma ½', '--key', 'author', '--date', '2021-01-05']);
    expect(asStored.stdout).toMatch(/Rumiko Takahashi/);
    const asTyped = await runCliOk(['--db', db, '--json', 'answer', '--title', 'ranma_½', '--key', 'author', '--date', '2021-01-05']);
    expect(asTyped.stdout).toBe(asStored.stdout);
  });
});

describe('signals during check', () => {
  it('ends a run stopped by SIGTERM during a check of 1,500 questions at once, and a second signal still removes the lock', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const dump = join(dir, 'towns.xml');
    writeFileSync(dump, townDump(1500));
    const week = ['weekly', '--start', TOWN_WEEK_START, '--dump', dump, '--llm', 'offline'];
    const prepared = await runCliOk(['--db', db, ...week, '--stages', 'collect,parse,diff,select,timeline,generate']);
    expect(prepared.stdout).toMatch(/generate +done +data_units=1500 /);

    const child = startCli(['--db', db, '--json', ...week]);
    const ended = collect(child);
    await waitForOutput(child, 'stderr', /"message":"stage started","stage":"check"/);
    const signalled = Date.now();
    child.kill('SIGTERM');
    child.kill('SIGTERM');
    const result = await ended;
    // The stage alone takes longer than this; a stage that never yields would finish before the signal is seen.
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(result.code).toBe(143);
    expect(existsSync(`${db}.lock`)).toBe(false);
    const status = await runCli(['--db', db, 'status']);
    // Stopped, not failed: no verdict on its input, and the run says so as a killed one does.
    expect(status.stdout).toMatch(/^run 1 weekly interrupted /m);
    expect(status.stdout).toMatch(/^ {2}check +interrupted .*error: E_RUN_INTERRUPTED: interrupted by SIGTERM/m);
    const resumed = await runCliOk(['--db', db, ...week]);
    expect(resumed.stdout).toMatch(/check +done +questions=1500 /);
  }, 120_000);
});

describe('the run lock', () => {
  it('is one lock per real file: a second writer through a symbolic link to the store is refused', async () => {
    const dir = tempDir();
    const db = join(dir, 'real.sqlite');
    await runCliOk(['--db', db, ...WEEK, '--stages', 'collect']);
    const link = join(dir, 'link.sqlite');
    symlinkSync(db, link);
    // Reading the dump from a pipe that never ends keeps the first run inside collect.
    const first = startCli(['--db', db, '--json', 'weekly', '--start', '2022-01-03', '--dump', '-', '--llm', 'offline']);
    const firstEnded = collect(first);
    first.stdin?.write('<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/">\n');
    try {
      await waitForOutput(first, 'stderr', /"stage":"collect"/);
      const second = await runCli(['--db', link, ...WEEK]);
      expect(second.code).toBe(1);
      expect(oneLineError(second.stderr)).toEqual({ code: 'E_STORE_LOCKED', message: expect.stringContaining(`link.sqlite is locked by another run (pid ${first.pid} `) });
      expect(existsSync(`${link}.lock`)).toBe(false);
    } finally {
      first.kill('SIGKILL');
      await firstEnded;
    }
  });

  it('is taken by exactly one of several starters that find it stale or still empty, in every trial', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    await runCliOk(['--db', db, ...WEEK, '--stages', 'collect']);
    const lockModule = pathToFileURL(join(repoRoot, 'dist/src/runs/lock.js')).href;
    // A winner holds the lock until the test has heard from every starter (a starter slow to start
    // on a busy machine must still find it held), then releases it when its input ends.
    const starter = `
      const { acquireLock } = await import(${JSON.stringify(lockModule)});
      const startAt = Number(process.argv[1]);
      while (Date.now() < startAt);
      try {
        const lock = acquireLock(${JSON.stringify(db)}, 'trial');
        process.stdout.write('won');
        process.stdin.on('end', () => lock.release()).resume();
      } catch (error) {
        process.stdout.write('refused: ' + error.message);
        process.stdin.resume();
      }`;
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    for (let trial = 0; trial < 10; trial++) {
      writeFileSync(`${db}.lock`, trial % 2 === 0 ? JSON.stringify({ pid: dead, host: hostname(), startedAt: '2021-01-04T00:00:00Z', command: 'weekly' }) : '');
      const startAt = String(Date.now() + 2500);
      const starters = Array.from({ length: 5 }, () => spawn(process.execPath, ['--input-type=module', '-e', starter, startAt]));
      const ended = starters.map((child) => collect(child));
      const said = await Promise.all(starters.map((child) => waitForOutput(child, 'stdout', /^(won|refused: .+)$/)));
      for (const child of starters) child.stdin?.end();
      await Promise.all(ended);
      const won = said.filter((outcome) => outcome === 'won');
      expect(won, `trial ${trial}: ${said.join(' | ')}`).toHaveLength(1);
      for (const outcome of said) if (outcome !== 'won') expect(outcome).toMatch(/^refused: database .* is locked by another run \(pid \d+ /);
      expect(existsSync(`${db}.lock`)).toBe(false);
    }
  }, 120_000);
});

describe('a store the user can only read', () => {
  it('answers answer, status, changes, evaluate and export, run as an unprivileged user on a read-only file in a read-only directory', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const storeDir = join(dir, 'store');
    mkdirSync(storeDir);
    const db = join(storeDir, 'w.sqlite');
    await runCliOk(['--db', db, ...WEEK]);
    chmodSync(db, 0o444);
    chmodSync(storeDir, 0o555);
    const out = join(dir, 'out');
    mkdirSync(out);
    chownSync(out, 65534, 65534);
    const predictions = join(out, 'predictions.jsonl');
    writeFileSync(predictions, '{"id":"21010400-26324-0","prediction":"Kitty Film"}\n');
    // As root no permission is ever missing: every command runs as nobody (uid 65534), as setpriv would start it.
    const asNobody = (args: string[]) => spawnSync(process.execPath, [cliPath, '--db', db, ...args], { uid: 65534, gid: 65534, encoding: 'utf8' });
    const commands = [
      ['status'],
      ['status', '--check'],
      ['answer', '--title', 'Ranma ½', '--key', 'author', '--date', '2021-01-05'],
      ['changes', '--start', '2021-01-04', '--end', '2021-01-10'],
      ['evaluate', 'weekly', '--predictions', predictions, '--date', '2021-01-05'],
      ['export', 'weekly', '--start', '2021-01-04', '--out', join(out, 'release')],
      ['export', 'dailyqa', '--date', '2021-01-05', '--out', join(out, 'qa.jsonl')],
    ];
    for (const args of commands) {
      const result = asNobody(args);
      expect(result.status, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.stdout + result.stderr, args.join(' ')).not.toMatch(/error/i);
    }
    expect(readdirSync(join(out, 'release'))).toContain('queries.jsonl');
    expect(jsonLines(readFileSync(join(out, 'qa.jsonl'), 'utf8'))).toHaveLength(1);
    expect(asNobody(['answer', '--title', 'Ranma ½', '--key', 'author', '--date', '2021-01-05']).stdout).toMatch(/Rumiko Takahashi/);
    expect(readdirSync(storeDir).filter((name) => name.startsWith('w.sqlite'))).toEqual(['w.sqlite']);
    // Writing stays refused with one line.
    const write = asNobody(WEEK);
    expect(write.status).toBe(1);
    expect(oneLineError(write.stderr)?.code).toBe('E_LOCK_UNWRITABLE');
  });
});

describe('a finished week run again', () => {
  it('says the week is done and names the dump it did not read, and writes the release to a new --out', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    await runCliOk(['--db', db, ...WEEK]);
    const other = join(dir, 'other.xml');
    writeFileSync(other, tinyDump('Tiny Town', [['2021-01-05T10:00:00Z', '{{Infobox settlement\n| population_total = 5\n}}']]));
    const out = join(dir, 'elsewhere');
    const again = await runCliOk(['--db', db, 'weekly', '--start', '2021-01-04', '--dump', other, '--llm', 'offline', '--out', out]);
    expect(again.stdout).toMatch(/\n {2}export +done +files=19 [^(]*\n/);
    expect(again.stdout.trimEnd().split('\n').at(-1)).toBe(
      `the week of 2021-01-04 was done already (run 1), so its stages were skipped; --dump ${other} was not read (--redo collect reads it); its release was written to ${out}`,
    );
    const release = join(dir, 'releases', 'weekly-2021-01-04');
    expect(readdirSync(out).sort()).toEqual(readdirSync(release).sort());
    expect(readFileSync(join(out, 'queries.jsonl'), 'utf8')).toBe(readFileSync(join(release, 'queries.jsonl'), 'utf8'));

    const plain = await runCliOk(['--db', db, ...WEEK]);
    expect(plain.stdout.trimEnd().split('\n').at(-1)).toBe(`the week of 2021-01-04 was done already (run 1), so its stages were skipped; --dump ${SAMPLE} was not read (--redo collect reads it)`);
  });
});

import Sqlite from 'better-sqlite3';
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEEKLY_STAGES, weeklyStages } from '../../pipelines/weekly.js';
import { windowFrom } from '../../src/dates.js';
import { DumpRevisionSource } from '../../src/sources/dumpSource.js';
import { collect, jsonLines, runCli, runCliOk, startCli, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { gatherHistories } from '../support/pageHistories.js';
import { snapshotStore } from '../support/storeSnapshot.js';

const sampleXml = join(sharedData, 'enwiki-history-sample.xml');
const year = ['--start', '2021-01-01', '--days', '365'];

describe('weekly pipeline on a real history dump', () => {
  const dir = tempDir();
  const db = join(dir, 'w.sqlite');

  it('collects, parses, diffs and selects, and lists the changes with the promised fields', async () => {
    const run = await runCliOk(['--db', db, 'weekly', ...year, '--dump', sampleXml]);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.stdout).toMatch(/run 1 \(done\)/);

    const listed = await runCliOk(['--db', db, 'changes', '--start', '2021-01-01', '--end', '2021-12-31']);
    const changes = jsonLines(listed.stdout);
    for (const change of changes) {
      for (const field of ['title', 'page_id', 'rev_id', 'timestamp', 'template', 'key', 'old', 'new']) expect(change).toHaveProperty(field);
    }
    const berlin = changes.filter((c) => c.title === 'Berlin' && c.key === 'population_total');
    expect(berlin.length).toBeGreaterThan(0);
    expect(berlin[0]).toMatchObject({ template: 'settlement' });
    expect(changes.some((c) => c.title === 'IKEA' && c.key === 'num_locations')).toBe(true);
    expect(changes.every((c) => !/^(image|image_size|bgcolor|module|embed)$/.test(String(c.key)))).toBe(true);

    const selected = jsonLines((await runCli(['--db', db, 'changes', '--start', '2021-01-01', '--end', '2021-12-31', '--selected'])).stdout);
    const pages = new Set(selected.map((unit) => unit.page_id));
    expect(selected.length).toBeGreaterThan(0);
    expect(selected.length).toBe(pages.size);
    expect(selected.every((unit) => unit.week === '2021-01-01')).toBe(true);
  });

  it('skips every finished stage on a rerun and changes nothing', async () => {
    const before = snapshotStore(db);
    const rerun = await runCliOk(['--db', db, 'weekly', ...year, '--dump', sampleXml]);
    expect(rerun.stdout.match(/already done, skipped/g)?.length).toBe(weeklyStages.filter((stage) => !stage.repeatable).length);
    expect(snapshotStore(db)).toEqual(before);
  });

  it('does all of a stage again with --redo: every question asked and checked again, to the same release', async () => {
    const release = async (name: string) => {
      const out = join(dir, name);
      await runCliOk(['--db', db, 'export', 'weekly', ...year, '--out', out]);
      return Object.fromEntries(['queries.jsonl', 'answers.jsonl'].map((file) => [file, readFileSync(join(out, file), 'utf8')]));
    };
    const before = await release('before-redo');
    const check = await runCliOk(['--db', db, 'weekly', ...year, '--dump', sampleXml, '--redo', 'check']);
    expect(check.stdout).toMatch(/check +done +questions=[1-9]\d* already_done=0 /);
    const generate = await runCliOk(['--db', db, 'weekly', ...year, '--dump', sampleXml, '--redo', 'generate']);
    expect(generate.stdout).toMatch(/generate +done +data_units=[1-9]\d* already_done=0 /);
    // The questions made again are checked again (their earlier checks judged the earlier text), the release the same.
    expect(generate.stdout).toMatch(/check +done +questions=[1-9]\d* already_done=0 /);
    expect(await release('after-redo')).toEqual(before);
  });

  it('gives the same store from the .bz2 file, from standard input and from a named pipe', async () => {
    const fromBz2 = join(dir, 'bz2.sqlite');
    await runCliOk(['--db', fromBz2, 'weekly', ...year, '--dump', `${sampleXml}.bz2`]);
    const fromStdin = join(dir, 'stdin.sqlite');
    await runCliOk(['--db', fromStdin, 'weekly', ...year, '--dump', '-'], { input: readFileSync(sampleXml) });
    // A pipe is read once, as standard input is (its head, read for the wiki's name, is kept for the pass).
    const pipe = join(dir, 'dump.fifo');
    execFileSync('mkfifo', [pipe]);
    const writer = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', sampleXml, pipe]);
    const fromPipe = join(dir, 'fifo.sqlite');
    await runCliOk(['--db', fromPipe, 'weekly', ...year, '--dump', pipe]);
    writer.kill();
    expect(snapshotStore(fromBz2)).toEqual(snapshotStore(db));
    expect(snapshotStore(fromStdin)).toEqual(snapshotStore(db));
    expect(snapshotStore(fromPipe)).toEqual(snapshotStore(db));
  });

  it('shows runs and stages in status', async () => {
    const status = await runCli(['--db', db, '--json', 'status']);
    const { runs } = JSON.parse(status.stdout) as { runs: Array<{ status: string; stages: Array<{ stage: string; status: string }> }> };
    expect(runs[0]?.status).toBe('done');
    expect(runs[0]?.stages.map((s) => s.stage)).toEqual([...WEEKLY_STAGES]);
    // No runs to show is no answer to "how many": refused where the command line is read.
    for (const limit of ['0', '-3']) {
      const refused = await runCli(['--db', db, 'status', '--limit', limit]);
      expect([refused.code, refused.errorCode, refused.stderr]).toEqual([2, 'E_USAGE', expect.stringContaining(`expected a whole number of at least 1, got ${limit}`)]);
    }
  });
});

describe('bad input', () => {
  const xml = readFileSync(sampleXml);

  it.each([
    // A head that is no dump is refused before a run starts (its <siteinfo> names the run's wiki); a
    // dump that breaks later fails the run it began.
    ['a truncated dump', xml.subarray(0, Math.floor(xml.length * 0.6)), 'E_DUMP_TRUNCATED', /truncated/, 'failed'],
    ['a file that is not XML', Buffer.from('%PDF-1.4 this is not xml at all\n'), 'E_DUMP_NOT_MEDIAWIKI', /not .*XML|not a MediaWiki/, 'refused'],
    ['an empty file', Buffer.alloc(0), 'E_DUMP_EMPTY', /empty/, 'refused'],
  ])('%s: one line naming the problem, the run failed with it or never began, no partial page, a rerun with good input completes', async (_name, content, code, message, outcome) => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const bad = join(dir, 'dump.xml');
    writeFileSync(bad, content);
    const run = await runCli(['--db', db, 'weekly', ...year, '--dump', bad]);
    expect(run.code).toBe(1);
    expect(run.errorCode).toBe(code);
    expect(run.stderr).toMatch(message);

    // Refused before its run began: nothing written, not even the store it would have made.
    if (outcome === 'refused') expect(existsSync(db)).toBe(false);
    else {
      const store = new Sqlite(db, { readonly: true });
      const runs = store.prepare('SELECT status, error FROM runs').all() as Array<{ status: string; error: string }>;
      expect(runs.map((row) => row.status)).toEqual(['failed']);
      expect(runs[0]?.error).toMatch(message);
      // Every stored page is complete: exactly the revisions the source gives for it, no fewer.
      const stored = store.prepare('SELECT page_id AS pageId, rev_id AS revId FROM revisions WHERE metadata_only = 0').all() as Array<{ pageId: number; revId: number }>;
      store.close();
      const complete = await completeHistories();
      for (const pageId of new Set(stored.map((row) => row.pageId))) {
        expect(stored.filter((row) => row.pageId === pageId).map((row) => row.revId).sort()).toEqual(complete.get(pageId));
      }
    }

    const good = await runCliOk(['--db', db, 'weekly', ...year, '--dump', sampleXml]);
    expect(good.stdout).toMatch(/\(done\)/);
  });

  it.each([
    [['weekly', '--start', '2021-01-01', '--dump', sampleXml, '--frobnicate'], 'E_USAGE', /unknown option '--frobnicate'/],
    [['weekly', '--start', '2021-13-01', '--dump', sampleXml], 'E_USAGE', /invalid --start date|2021-13-01/],
    [['weekly', '--start', '2021-01-01'], 'E_FLAG_MISSING', /a source is needed/],
    [['weekly', '--start', '9999-12-27', '--dump', sampleXml], 'E_DATE_RANGE_INVALID', /invalid --start 9999-12-27: the week has not begun \(today is \d{4}-\d\d-\d\d, UTC\)/],
    [['weekly', '--start', '1999-01-04', '--dump', sampleXml], 'E_DATE_RANGE_INVALID', /before 2001-01-15, when Wikipedia began/],
    [['weekly', '--start', '2021-01-01', '--dump', '/nonexistent/dump.xml'], 'E_FILE_UNREADABLE', /\/nonexistent\/dump\.xml/],
    [['changes', '--start', '2021-01-01', '--end', 'yesterday'], 'E_USAGE', /invalid .*"yesterday"/],
    [['weekly', '--start', '2021-01-01', '--dump', sampleXml, '--stages', 'collect,frob'], 'E_FLAG_INVALID', /unknown stage "frob"/],
  ])('%j is refused with one line naming the problem', async (args, code, message) => {
    const db = join(tempDir(), 'w.sqlite');
    const result = await runCli(['--db', db, ...args]);
    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(result.errorCode).toBe(code);
    expect(lines.at(-1)).toMatch(message);
    expect(lines.filter((line) => line.startsWith('wikidelta:'))).toHaveLength(1);
    // Refused before anything was written: no store of its own making left behind.
    expect(readdirSync(dirname(db))).toEqual([]);
  });

  it('keeps a store it refused to write to when that store was there before', async () => {
    const db = join(tempDir(), 'w.sqlite');
    await runCliOk(['--db', db, 'weekly', '--start', '2021-01-04', '--dump', sampleXml, '--stages', 'collect']);
    const refused = await runCli(['--db', db, 'weekly', '--start', '2021-01-11']);
    expect(refused.errorCode).toBe('E_FLAG_MISSING');
    expect(readdirSync(dirname(db))).toContain('w.sqlite');
    expect((await runCliOk(['--db', db, 'status'])).stdout).toMatch(/run 1 /);
  });
});

describe('crashes and concurrent runs', () => {
  it('resumes a run killed with SIGKILL during collect and ends with exactly the data of an uninterrupted run', async () => {
    const dir = tempDir();
    const reference = join(dir, 'reference.sqlite');
    await runCliOk(['--db', reference, 'weekly', ...year, '--dump', sampleXml]);

    const db = join(dir, 'killed.sqlite');
    const xml = readFileSync(sampleXml);
    const child = startCli(['--db', db, 'weekly', ...year, '--dump', '-']);
    const done = collect(child);
    // Feed part of the dump, wait until some pages are committed, then kill the process mid-stage.
    child.stdin?.write(xml.subarray(0, Math.floor(xml.length * 0.7)));
    await waitFor(() => countRows(db, 'window_pages') > 0);
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(`${db}.lock`)).toBe(true);
    const committed = countRows(db, 'window_pages');
    expect(committed).toBeGreaterThan(0);

    const resumed = await runCliOk(['--db', db, 'weekly', ...year, '--dump', sampleXml]);
    expect(resumed.stderr).toMatch(/stale lock left by dead process/);
    expect(resumed.stdout).toMatch(/continued/);
    expect(snapshotStore(db)).toEqual(snapshotStore(reference));
  });

  it('refuses a second run on a database whose lock is held', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const holder = startCli(['--db', db, 'weekly', ...year, '--dump', '-']);
    const holderDone = collect(holder);
    await waitFor(() => existsSync(`${db}.lock`));
    const second = await runCli(['--db', db, 'weekly', ...year, '--dump', sampleXml]);
    expect(second.code).toBe(1);
    expect(second.errorCode).toBe('E_STORE_LOCKED');
    // The holder then finishes normally with its input.
    const input = createReadStream(sampleXml);
    input.pipe(holder.stdin!);
    expect((await holderDone).code).toBe(0);
  });
});

/** Page id → revision ids that a complete collection of the year stores. */
async function completeHistories(): Promise<Map<number, number[]>> {
  const histories = new Map<number, number[]>();
  for (const history of await gatherHistories(new DumpRevisionSource(sampleXml), windowFrom('2021-01-01', 365))) {
    histories.set(history.page.pageId, history.revisions.map((revision) => revision.revId).sort());
  }
  return histories;
}

function countRows(path: string, table: string): number {
  if (!existsSync(path)) return 0;
  try {
    const db = new Sqlite(path, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * One store, week after week, as cron runs it: a week's release and its answers do not depend on
 * what ran before it in the store (docs/ARCHITECTURE.md §5). Every week of the embedded sample run
 * alone on a fresh store is the reference; the same weeks run one after another into one store, an
 * earlier week run again, the weeks run out of order, and all of them after `sync`, must give the
 * same day files, queries and answers.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatDate, parseDate } from '../../src/dates.js';
import { answerQuery, type Answer } from '../../src/timeline/answers.js';
import { jsonLines, repoRoot, runCli, tempDir, type CliResult } from '../../testkit/cli.js';
import { Store } from '../../src/store/store.js';
import { sampleMadeOn } from '../support/laterSample.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const WEEKS = Array.from({ length: 13 }, (_, week) => formatDate(addDays(parseDate('2025-01-06'), 7 * week)));
const SAMPLE_END = '2025-04-07';
/** Latest first: every week runs with all that later weeks know (moves, later revisions) already in the store. */
const REVERSED = [...WEEKS].reverse();

const dir = tempDir();

async function ok(args: string[]): Promise<CliResult> {
  const run = await runCli(args);
  expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(0);
  return run;
}

function weekly(db: string, week: string, out: string, extra: string[] = []): Promise<CliResult> {
  return ok(['--db', db, 'weekly', '--start', week, '--dump', SAMPLE, '--llm', 'offline', '--out', out, ...extra]);
}

/**
 * What a week's release says that must not depend on the store's past: the day files, the queries,
 * and each question's checks (native.jsonl: the local search ranks the week's pages, not the store's).
 */
function releaseOf(out: string): Record<string, string> {
  const files = readdirSync(out).filter((name) => /^qa_\d{6}\.jsonl$/.test(name) || name === 'queries.jsonl');
  const checks = jsonLines(readFileSync(join(out, 'native.jsonl'), 'utf8')).map(({ id, kept, checks }) => JSON.stringify({ id, kept, checks }));
  return { ...Object.fromEntries(files.sort().map((name) => [name, readFileSync(join(out, name), 'utf8')])), 'native.jsonl checks': checks.join('\n') };
}

/**
 * The same day files and queries as the week alone, but for the update frequency: a store that holds
 * the weeks after this one may know a frequency the week alone leaves pending (never another class).
 */
function expectSameRelease(actual: Record<string, string>, reference: Record<string, string> | undefined, week: string): void {
  const frequencyKnown = (release: Record<string, string>, decided: Array<Record<string, unknown>>) => ({
    ...release,
    'queries.jsonl': jsonLines(release['queries.jsonl'] ?? '')
      .map((query, index) => (query.update_frequency === 'pending' ? { ...query, update_frequency: decided[index]?.update_frequency } : query))
      .map((query) => JSON.stringify(query)),
  });
  const decided = jsonLines(actual['queries.jsonl'] ?? '');
  expect(frequencyKnown(actual, decided), week).toEqual(frequencyKnown(reference ?? {}, decided));
}

type DayAnswer = { key: string } & Answer;

/** Every query of the week's release answered on every day of the week and the day after, as `answer` does. */
function answersOf(db: string, release: Record<string, string>, week: string): DayAnswer[] {
  const store = Store.open(db, { readonly: true });
  try {
    const ids = jsonLines(release['queries.jsonl'] ?? '').map((query) => String(query.id));
    const days = Array.from({ length: 8 }, (_, day) => formatDate(addDays(parseDate(week), day)));
    return ids.flatMap((id) => days.map((day) => ({ key: `${id} on ${day}`, ...answerQuery(store, id, day) })));
  } finally {
    store.close();
  }
}

/**
 * The same answers and statuses as the week alone. A value's interval is what the store knows of it:
 * a store holding more of the page's history may know it began earlier, or when it ended, so its
 * interval holds the one of the week alone, and ends where that one ends whenever that one ends.
 */
function expectSameAnswers(actual: DayAnswer[], reference: DayAnswer[]): void {
  expect(actual.map(({ key, answer, status }) => ({ key, answer, status }))).toEqual(reference.map(({ key, answer, status }) => ({ key, answer, status })));
  actual.forEach((answer, index) => {
    const known = reference[index] as DayAnswer;
    if (known.valid_from === null) return;
    expect((answer.valid_from ?? '') <= known.valid_from, answer.key).toBe(true);
    if (answer.valid_from === known.valid_from) expect(answer.rev_id, answer.key).toBe(known.rev_id);
    if (known.valid_to !== null) expect(answer.valid_to, answer.key).toBe(known.valid_to);
  });
}

/** Runs tasks two at a time, the machine's cores. */
async function inPairs<T>(items: readonly T[], task: (item: T) => Promise<unknown>): Promise<void> {
  for (let at = 0; at < items.length; at += 2) await Promise.all(items.slice(at, at + 2).map(task));
}

describe('one store, week after week', () => {
  const alone = new Map<string, { release: Record<string, string>; answers: DayAnswer[] }>();
  const aloneDb = (week: string) => join(dir, `alone-${week}.sqlite`);

  beforeAll(async () => {
    await inPairs(WEEKS, async (week) => {
      const out = join(dir, 'alone', week);
      await weekly(aloneDb(week), week, out);
      const release = releaseOf(out);
      alone.set(week, { release, answers: answersOf(aloneDb(week), release, week) });
    });
  }, 600_000);

  it('gives every week the release and the answers it has run alone, weeks run one after another into one store', async () => {
    const shared = join(dir, 'shared.sqlite');
    let answered = 0;
    for (const week of WEEKS) {
      const out = join(dir, 'shared', week);
      await weekly(shared, week, out);
      const release = releaseOf(out);
      expect(release, week).toEqual(alone.get(week)?.release);
      const answers = answersOf(shared, release, week);
      expectSameAnswers(answers, alone.get(week)?.answers ?? []);
      answered += answers.filter((answer) => answer.status === 'ok').length;
    }
    // The sample's weeks hold values: most of their day answers are values, not "no value then".
    expect(answered).toBeGreaterThan(250);

    // An earlier week collected again from scratch, then every week's release written again from the store.
    await weekly(shared, WEEKS[3] as string, join(dir, 'rerun', WEEKS[3] as string), ['--redo', 'collect']);
    expectSameRelease(releaseOf(join(dir, 'rerun', WEEKS[3] as string)), alone.get(WEEKS[3] as string)?.release, WEEKS[3] as string);
    for (const week of WEEKS) {
      const out = join(dir, 'reexport', week);
      await ok(['--db', shared, 'export', 'weekly', '--start', week, '--out', out]);
      expectSameRelease(releaseOf(out), alone.get(week)?.release, week);
    }
  }, 600_000);

  it('gives the same with the weeks run out of order, latest first, and after sync the same as each week alone synced', async () => {
    const reversed = join(dir, 'reversed.sqlite');
    for (const week of REVERSED) {
      const out = join(dir, 'reversed', week);
      await weekly(reversed, week, out);
      expect(releaseOf(out), week).toEqual(alone.get(week)?.release);
      expectSameAnswers(answersOf(reversed, releaseOf(out), week), alone.get(week)?.answers ?? []);
    }

    // A dump made on SAMPLE_END: the weeks' own runs hold their last days from the sample alone.
    const madeLater = sampleMadeOn(dir, SAMPLE_END);
    await ok(['--db', reversed, 'sync', '--until', SAMPLE_END, '--dump', madeLater]);
    await inPairs(WEEKS, (week) => ok(['--db', aloneDb(week), 'sync', '--until', SAMPLE_END, '--dump', madeLater]));
    let classified = 0;
    for (const week of WEEKS) {
      const fromAlone = join(dir, 'synced-alone', week);
      const fromReversed = join(dir, 'synced-reversed', week);
      await Promise.all([
        ok(['--db', aloneDb(week), 'export', 'weekly', '--start', week, '--out', fromAlone]),
        ok(['--db', reversed, 'export', 'weekly', '--start', week, '--out', fromReversed]),
      ]);
      expect(releaseOf(fromReversed), week).toEqual(releaseOf(fromAlone));
      classified += jsonLines(releaseOf(fromAlone)['queries.jsonl'] ?? '').filter((query) => query.update_frequency !== 'pending').length;
    }
    // sync classes the update frequency of the weeks its timelines now hold for 21 days.
    expect(classified).toBeGreaterThan(0);
  }, 600_000);

  it("gives a week run again with its first seed the first run's release, after a run with another seed remade the week's questions", async () => {
    // 2025-01-20: a revision that changed several keys, so the seed picks which one is asked about.
    const week = WEEKS[2] as string;
    const db = join(dir, 'seeds.sqlite');
    await weekly(db, week, join(dir, 'seeds', 'first'));
    await weekly(db, week, join(dir, 'seeds', 'two'), ['--seed', '2']);
    expect(releaseOf(join(dir, 'seeds', 'two'))['queries.jsonl']).not.toBe(alone.get(week)?.release['queries.jsonl']);
    // Run 1 again: it was done, but run 2 has made the week's questions since; they are made again.
    const again = await weekly(db, week, join(dir, 'seeds', 'again'));
    expectSameRelease(releaseOf(join(dir, 'seeds', 'again')), alone.get(week)?.release, week);
    expect(again.stderr).toMatch(/the week's questions were made by run 2 with other settings/);
    // Once more: done, and nothing replaced it since.
    const idle = await weekly(db, week, join(dir, 'seeds', 'idle'));
    expect(idle.stdout).toMatch(/was done already/);
    expectSameRelease(releaseOf(join(dir, 'seeds', 'idle')), alone.get(week)?.release, week);
  });

  it('answers the third week of a shared store as cron left it (the reproduction of the empty releases)', async () => {
    const db = join(dir, 'cron.sqlite');
    for (const week of WEEKS.slice(0, 3)) await weekly(db, week, join(dir, 'cron', week));
    const days = Object.entries(releaseOf(join(dir, 'cron', WEEKS[2] as string))).filter(([name]) => name.startsWith('qa_'));
    const answers = days.flatMap(([, text]) => jsonLines(text));
    expect(answers.length).toBe(24);
    expect(answers.filter((line) => line.answer === null)).toEqual([]);
    const answer = await ok(['--db', db, '--json', 'answer', '--query', '25012000-101-0', '--date', '2025-01-22']);
    expect(JSON.parse(answer.stdout)).toMatchObject({ status: 'ok', rev_id: 1013 });
  });
});

describe('sync on a store with gaps', () => {
  const store = (name: string) => join(dir, `${name}.sqlite`);
  const answersBetween = (db: string, ids: readonly string[], from: string, days: number) => {
    const opened = Store.open(db, { readonly: true });
    try {
      return ids.flatMap((id) => Array.from({ length: days }, (_, day) => formatDate(addDays(parseDate(from), day))).map((day) => ({ key: `${id} on ${day}`, ...answerQuery(opened, id, day) })));
    } finally {
      opened.close();
    }
  };

  it('fills the weeks between two collected weeks, as a store that holds only the first week gets them from sync', async () => {
    // The later run holds every page of the first week again, to the sample's end: no page's latest
    // instant held is before the sync date, yet none holds the weeks between.
    const [first, later] = [WEEKS[2] as string, WEEKS[8] as string];
    await weekly(store('gap'), first, join(dir, 'gap', first));
    await weekly(store('gap'), later, join(dir, 'gap', later), ['--days', '35']);
    await ok(['--db', store('gap'), 'sync', '--until', SAMPLE_END, '--dump', SAMPLE]);
    await weekly(store('first-only'), first, join(dir, 'first-only', first));
    await ok(['--db', store('first-only'), 'sync', '--until', SAMPLE_END, '--dump', SAMPLE]);
    const ids = jsonLines(readFileSync(join(dir, 'first-only', first, 'queries.jsonl'), 'utf8')).map((query) => String(query.id));
    expect(ids.length).toBeGreaterThan(0);
    const days = 7 * 6;
    const gap = answersBetween(store('gap'), ids, first, days);
    expect(gap.filter((answer) => answer.status === 'unknown').map((answer) => answer.key)).toEqual([]);
    expectSameAnswers(gap, answersBetween(store('first-only'), ids, first, days));
  }, 300_000);

  it('holds no day still to come: an --until later than now syncs up to now, and says so', async () => {
    const db = store('future');
    await weekly(db, WEEKS[2] as string, join(dir, 'future', WEEKS[2] as string));
    const run = await ok(['--db', db, 'sync', '--until', '2999-01-01', '--dump', SAMPLE]);
    expect(run.stderr).toMatch(/--until 2999-01-01 is still to come: synced up to now/);
    // Nor any the dump does not hold: the sample ends on 2025-03-27.
    expect(run.stdout).toMatch(/sync up to 2025-03-27T17:40:00Z \(the dump holds nothing later; not \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\): /);
    const id = String(jsonLines(readFileSync(join(dir, 'future', WEEKS[2] as string, 'queries.jsonl'), 'utf8'))[0]?.id);
    const later = formatDate(addDays(new Date(), 30));
    expect(JSON.parse((await ok(['--db', db, '--json', 'answer', '--query', id, '--date', later])).stdout)).toMatchObject({ status: 'unknown' });
  }, 120_000);
});

describe('windows whose query ids would collide', () => {
  // A query's id is DailyQA's: the window's first day and the page id, neither the window's length nor the wiki.
  const store = (name: string) => join(dir, `${name}.sqlite`);
  const queriesOf = (out: string) => readFileSync(join(out, 'queries.jsonl'), 'utf8');
  const dayIds = (out: string, day: string) => jsonLines(readFileSync(join(out, `qa_${day}.jsonl`), 'utf8')).map((line) => String(line.id));

  it('refuses a window starting on the day another window of the store starts (another length), leaving that window whole', async () => {
    const db = store('lengths');
    const long = join(dir, 'lengths', 'long');
    await weekly(db, '2025-01-27', long, ['--days', '14']);
    const run = await runCli(['--db', db, 'weekly', '--start', '2025-01-27', '--dump', SAMPLE, '--llm', 'offline', '--out', join(dir, 'lengths', 'week')]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.errorCode).toBe('E_WINDOW_CONFLICT');
    expect(run.stderr).toMatch(/2025-01-27T00:00:00Z \.\. 2025-02-10T00:00:00Z/);
    const again = join(dir, 'lengths', 'long-again');
    await ok(['--db', db, 'export', 'weekly', '--start', '2025-01-27', '--days', '14', '--out', again]);
    expect(queriesOf(again)).toBe(queriesOf(long));
    const ids = jsonLines(queriesOf(again)).map((query) => String(query.id));
    expect(dayIds(again, '250128')).toEqual(ids);
  }, 120_000);

  it('refuses the same week of another wiki in the store, whose pages have the same ids', async () => {
    const db = store('wikis');
    const other = join(dir, 'other-wiki.xml');
    writeFileSync(other, readFileSync(SAMPLE, 'utf8').replace('<dbname>samplewiki</dbname>', '<dbname>otherwiki</dbname>'));
    const first = join(dir, 'wikis', 'sample');
    await weekly(db, '2025-01-20', first);
    const run = await runCli(['--db', db, 'weekly', '--start', '2025-01-20', '--dump', other, '--llm', 'offline', '--out', join(dir, 'wikis', 'other')]);
    expect(run.errorCode, run.stderr).toBe('E_WINDOW_CONFLICT');
    const again = join(dir, 'wikis', 'sample-again');
    await ok(['--db', db, 'export', 'weekly', '--start', '2025-01-20', '--wiki', 'samplewiki', '--out', again]);
    expect(queriesOf(again)).toBe(queriesOf(first));
  }, 120_000);
});

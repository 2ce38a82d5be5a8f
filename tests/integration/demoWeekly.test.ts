import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderWeeklyRelease } from '../../src/release/weeklyRelease.js';
import { answerQuery } from '../../src/timeline/answers.js';
import { jsonLines, runCliOk, tempDir } from '../../testkit/cli.js';
import { Store } from '../../src/store/store.js';
import { SAMPLE_DUMP } from '../../src/cli/commands/demo.js';

describe('demo: the weekly half on the embedded sample', () => {
  it('makes offline questions with checks and domains, prints answers by date, and writes a release per week', async () => {
    const dir = tempDir();
    const run = await runCliOk(['--db', join(dir, 'demo.sqlite'), 'demo']);
    expect(run.stdout).toMatch(/35 questions generated \(provider: offline\), 35 kept after the checks and the domain cap\./);
    // The sample ends on 27 March: sync holds the pages up to there, not to the last week's end, and the weeks not yet seen for 21 days stay pending.
    expect(run.stdout).toMatch(/synced every tracked page to 2025-03-27 17:40 UTC, where the sample ends; update frequency: 7 frequent, 23 infrequent, 5 pending/);
    // The weeks the sample ends in say so, and the sync after them; the weeks before it say nothing.
    const ends = run.stderr.split('\n').filter((line) => line.includes('the dump holds no revision after'));
    expect(ends.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual([
      ...['2025-03-31', '2025-04-07'].map((end) => `the dump holds no revision after 2025-03-27T17:40:00Z, before the week's end (${end}T00:00:00Z): the days after it are answered as the pages stood then`),
      'the dump holds no revision after 2025-03-27T17:40:00Z: synced up to there, not up to 2025-04-07T00:00:00Z',
    ]);
    expect(run.stdout).toMatch(/ {2}\d{8}-\d+-0 {2}\[(Science and Technology|Culture and Arts|Geography and Environment|Politics and Law|Business and Economics|Sports and Entertainment|Others)\] What is the /);
    expect(run.stdout).toMatch(/\d{4}-\d{2}-\d{2}: ("[^"]*"|\((ok|no_key|no_page|deleted|unknown)\)) {3}\d{4}-\d{2}-\d{2}: /);
    const releases = readdirSync(join(dir, 'releases')).sort();
    expect(releases).toHaveLength(13);
    expect(releases[0]).toBe('weekly-2025-01-06');
    const week = join(dir, 'releases', 'weekly-2025-02-03');
    for (const day of ['03', '04', '05', '06', '07', '08', '09']) expect(existsSync(join(week, `qa_2502${day}.jsonl`))).toBe(true);
    // Each week's release, written by its run in the one demo store, answers every day of its week: a
    // page collected again weeks later keeps its history whole (the releases from the third week on held only nulls).
    for (const release of releases) {
      for (const record of jsonLines(readFileSync(join(dir, 'releases', release, 'native.jsonl'), 'utf8'))) {
        const statuses = (record.answers as Array<{ status: string }>).map((answer) => answer.status);
        expect(statuses, `${release} ${String(record.id)}`).not.toContain('unknown');
      }
    }
    // The releases shipped are the finished store's, written after sync: a week rendered again gives
    // the same files (they were written before it and shipped every query pending, its intervals
    // open), and its native records' answers are the queries' answers one by one.
    const store = Store.open(join(dir, 'demo.sqlite'), { readonly: true });
    try {
      let compared = 0;
      for (const release of releases) {
        const [first] = jsonLines(readFileSync(join(dir, 'releases', release, 'queries.jsonl'), 'utf8'));
        if (first === undefined) continue;
        const window = { start: String(first.window_start), end: String(first.window_end) };
        const { files } = (await renderWeeklyRelease(store, String(first.wiki), window)).draft;
        for (const name of ['queries.jsonl', 'native.jsonl']) expect(readFileSync(join(dir, 'releases', release, name), 'utf8'), `${release} ${name}`).toBe(String(files.get(name)));
        const native = String(files.get('native.jsonl') ?? '');
        for (const record of jsonLines(native)) {
          for (const { date, ...answer } of record.answers as Array<{ date: string }>) {
            expect(answer, `${String(record.id)} on ${date}`).toEqual(answerQuery(store, String(record.id), date));
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(35 * 7);
    } finally {
      store.close();
    }
    // The demo names the wiki as the commands do, from the dump: its store takes a week and a sync by
    // hand from the same dump (they found another wiki's week there, and no tracked page).
    const db = ['--db', join(dir, 'demo.sqlite')];
    const again = await runCliOk([...db, 'weekly', '--start', '2025-03-31', '--dump', SAMPLE_DUMP, '--llm', 'offline', '--out', join(dir, 'again')]);
    // The demo's own run of the week, continued: only its release was left to write.
    expect(again.stdout).toMatch(/^run 13 \(done\) weekly 2025-03-31T00:00:00Z \.\. 2025-04-07T00:00:00Z, continued$/m);
    expect(again.stdout).toMatch(/^ {2}export +done +files=\d+/m);
    expect(readFileSync(join(dir, 'again', 'native.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'releases', 'weekly-2025-03-31', 'native.jsonl'), 'utf8'));
    // A day past the sample's end is unknown, and answer says why, as the exports do.
    const unknown = await runCliOk([...db, 'answer', '--query', '25012000-101-0', '--date', '2025-09-01']);
    expect([unknown.stdout, unknown.stderr]).toEqual([
      '(unknown)\n',
      "why: its page's history held ends at 2025-03-27T17:40:00Z: sync --until 2025-09-01 from a source that holds that day (a newer dump, or the API) extends it\n",
    ]);
    const synced = await runCliOk([...db, 'sync', '--until', '2025-04-07', '--dump', SAMPLE_DUMP]);
    expect(synced.stdout).toMatch(/^run \d+ sync up to 2025-03-27T17:40:00Z \(the dump holds nothing later; not 2025-04-07\): .* 11 pages synced$/m);
  });
});

/**
 * Facts that live on Wikidata, through the same weekly command, store and release (docs/ARCHITECTURE.md
 * §16): three weeks of history built from the real entities of ../shared/data/wikidata (a new preferred
 * statement, rank changes, an end time added, a value vandalised and reverted), named by a labels dump.
 * The weeks alone, one after another into one store and out of order give the same day files, queries
 * and answers; answers and releases on world time; evaluate on either axis.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatDate, parseDate } from '../../src/dates.js';
import { answerQuery } from '../../src/timeline/answers.js';
import { WeeklyContentSchema } from '../../src/audit/kinds/weekly.js';
import { AuditStore } from '../../src/store/auditStore.js';
import { openDatabase } from '../../src/store/database.js';
import { jsonLines, runCli, tempDir, type CliResult } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { entityHistoryDump } from '../../testkit/entityHistories.js';
import { BIELEFELD, ENGLISH_NAMES, ENTITY_WEEKS, entityWeeksPages, labelsDump, namedEntityPages } from '../../testkit/entityWeeks.js';
import { Store } from '../../src/store/store.js';

const dir = tempDir();
const history = join(dir, 'wikidata-history.xml');
const labels = join(dir, 'labels.json');

async function ok(args: string[]): Promise<CliResult> {
  const run = await runCli(args);
  expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(0);
  return run;
}

function weekly(db: string, week: string, out: string, extra: string[] = []): Promise<CliResult> {
  return ok(['--db', db, 'weekly', '--start', week, '--dump', history, '--labels', labels, '--llm', 'offline', '--out', out, ...extra]);
}

function releaseOf(out: string): Record<string, string> {
  const files = readdirSync(out).filter((name) => /^qa_\d{6}\.jsonl$/.test(name) || name === 'queries.jsonl');
  return Object.fromEntries(files.sort().map((name) => [name, readFileSync(join(out, name), 'utf8')]));
}

/** Every query of a release on every day of its week and the day after, on edit time: answer and status. */
function answersOf(db: string, release: Record<string, string>, week: string): Array<Record<string, unknown>> {
  const store = Store.open(db, { readonly: true });
  try {
    const days = Array.from({ length: 8 }, (_, day) => formatDate(addDays(parseDate(week), day)));
    return jsonLines(release['queries.jsonl'] ?? '').flatMap((query) =>
      days.map((day) => {
        const { answer, status, aliases } = answerQuery(store, String(query.id), day);
        return { id: query.id, day, answer, status, aliases };
      }),
    );
  } finally {
    store.close();
  }
}

beforeAll(() => {
  writeFileSync(history, entityHistoryDump(entityWeeksPages(sharedData)));
  writeFileSync(labels, labelsDump());
});

describe('Wikidata entity revisions through the weekly pipeline', () => {
  const alone = new Map<string, { release: Record<string, string>; answers: Array<Record<string, unknown>> }>();

  beforeAll(async () => {
    for (const week of ENTITY_WEEKS) {
      const db = join(dir, `alone-${week}.sqlite`);
      const out = join(dir, 'alone', week);
      await weekly(db, week, out);
      alone.set(week, { release: releaseOf(out), answers: answersOf(db, releaseOf(out), week) });
    }
  }, 300_000);

  it('asks about the entity by its label, the property by its label, with the new best-ranked value as the answer', () => {
    const queries = (week: string) => jsonLines(alone.get(week)?.release['queries.jsonl'] ?? '');
    expect(queries('2023-01-02').map(({ query, answer, key, key_label, domain, template }) => ({ query, answer, key, key_label, domain, template }))).toEqual([
      // Neihu District: its latest population back as the new preferred statement.
      { query: 'What is the population of Neihu District?', answer: '287746', key: 'P1082', key_label: 'population', domain: 'Others', template: 'wikibase-item' },
      // A rank change: politician becomes his preferred occupation; the domain from the occupation of a human.
      { query: 'What is the occupation of Henning Christophersen?', answer: 'politician', key: 'P106', key_label: 'occupation', domain: 'Politics and Law', template: 'wikibase-item' },
    ]);
    // Bielefeld: the new preferred population (the mayor made preferred in the same edit has no label: never asked about).
    expect(queries('2023-01-09').map(({ query, answer, url, domain }) => ({ query, answer, url, domain }))).toEqual([
      { query: 'What is the population of Bielefeld?', answer: '334002', url: 'https://www.wikidata.org/wiki/Q2112', domain: 'Geography and Environment' },
    ]);
    expect(queries('2023-01-16').map(({ query, answer }) => ({ query, answer }))).toEqual([
      { query: 'What is the population of Bielefeld?', answer: '334009' },
      { query: 'What is the population of Neihu District?', answer: '287735' },
    ]);
  });

  it('keeps a revision whose content is not JSON as metadata: no fact reads as removed by it, the week is the same, the run says so', async () => {
    const pages = entityWeeksPages(sharedData);
    const bielefeld = pages.find((page) => page.pageId === BIELEFELD.pageId);
    const last = bielefeld?.revisions.at(-1);
    if (!bielefeld || !last) throw new Error('no Bielefeld history');
    // The page's latest revision, its JSON cut short: read as an entity without statements, every fact would end on the 18th.
    bielefeld.revisions.push({ ...last, revId: last.revId + 1, timestamp: '2023-01-18T10:00:00Z', comment: 'broken', text: '{"type":"item","id":"Q2112","claims":{"P1082":[' });
    const broken = join(dir, 'wikidata-history-broken.xml');
    writeFileSync(broken, entityHistoryDump(pages));
    const db = join(dir, 'broken.sqlite');
    const week = '2023-01-16';
    const out = join(dir, 'broken');
    const run = await ok(['--db', db, '--json', 'weekly', '--start', week, '--dump', broken, '--labels', labels, '--llm', 'offline', '--out', out]);
    const stages = (JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { stages: Array<{ stage: string; counts: Record<string, number> }> }).stages;
    expect(stages.find((stage) => stage.stage === 'collect')?.counts).toMatchObject({ unreadable: 1 });
    expect(run.stderr).toMatch(/unreadable content, kept as metadata: not JSON/);
    expect(releaseOf(out)).toEqual(alone.get(week)?.release);
    expect(answersOf(db, releaseOf(out), week)).toEqual(alone.get(week)?.answers);
    for (const time of ['edit', 'world']) {
      expect(JSON.parse((await ok(['--db', db, '--json', 'answer', '--title', 'Bielefeld', '--key', 'P1082', '--date', '2023-01-20', '--time', time])).stdout)).toMatchObject({ answer: '334009', status: 'ok' });
    }
  }, 120_000);

  it("says in its card that its facts are Wikidata's statements, under Wikidata's CC0, not Wikipedia's CC BY-SA", () => {
    const card = readFileSync(join(dir, 'alone', '2023-01-09', 'README.md'), 'utf8');
    expect(card).toMatch(/^---\n[\s\S]*^license: cc0-1\.0$/m);
    expect(card).toContain('Time-sensitive questions made from the Wikidata statements that changed in the week');
    expect(card).toMatch(/come from Wikidata, whose structured data is available under\nthe Creative Commons CC0 1\.0 public domain dedication, as is this release/);
    expect(card).not.toMatch(/Wikipedia|CC BY-SA/);
  });

  it('never shows the vandalised value reverted within the hour, on any day', () => {
    const week = alone.get('2023-01-09');
    const days = Object.entries(week?.release ?? {}).filter(([name]) => name.startsWith('qa_'));
    expect(days.length).toBe(8);
    const answers = days.flatMap(([, text]) => jsonLines(text).map((line) => line.answer));
    expect(answers).toContain('333509');
    expect(answers).toContain('334002');
    expect(answers).not.toContain('1');
  });

  it('gives every week the release and answers it has alone, in one store week after week and out of order', async () => {
    const shared = join(dir, 'shared.sqlite');
    for (const week of ENTITY_WEEKS) {
      const out = join(dir, 'shared', week);
      await weekly(shared, week, out);
      expect(releaseOf(out), week).toEqual(alone.get(week)?.release);
      expect(answersOf(shared, releaseOf(out), week), week).toEqual(alone.get(week)?.answers);
    }
    const shuffled = join(dir, 'shuffled.sqlite');
    for (const week of [ENTITY_WEEKS[2], ENTITY_WEEKS[0], ENTITY_WEEKS[1]]) {
      const out = join(dir, 'shuffled', week);
      await weekly(shuffled, week, out);
      expect(releaseOf(out), week).toEqual(alone.get(week)?.release);
      expect(answersOf(shuffled, releaseOf(out), week), week).toEqual(alone.get(week)?.answers);
    }
    // Written again from the store after the later weeks, a release is the same.
    await ok(['--db', shared, 'export', 'weekly', '--start', '2023-01-09', '--out', join(dir, 'reexport')]);
    expect(releaseOf(join(dir, 'reexport'))).toEqual(alone.get('2023-01-09')?.release);
  }, 300_000);
});

describe('answers on world time', () => {
  it('reads what held in the world from the latest known revision: an end time added ends the term', async () => {
    const db = join(dir, 'world.sqlite');
    const term = (date: string) => ok(['--db', db, '--json', 'answer', '--title', 'Henning Christophersen', '--key', 'P39', '--date', date, '--time', 'world']);
    // The week before holds only the revision where his term as commissioner has no end.
    await weekly(db, '2022-12-26', join(dir, 'world', 'before'));
    expect(JSON.parse((await term('2000-01-01')).stdout)).toMatchObject({ status: 'ok', answer: 'Q651703', valid_to: null });
    await weekly(db, '2023-01-02', join(dir, 'world', 'week1'));
    expect(JSON.parse((await term('2000-01-01')).stdout)).toMatchObject({ status: 'no_key', answer: null });
    // Two offices at once are one answer, in statement order (the positions have no English label here: their ids stay).
    expect(JSON.parse((await term('1990-01-01')).stdout)).toMatchObject({ status: 'ok', answer: 'Q651703; Q1780230', valid_to: '1995-01-23T00:00:00Z' });
    // A position with an end and no start holds from as far back as the key is known.
    expect(JSON.parse((await term('1970-01-01')).stdout)).toMatchObject({ status: 'ok', answer: 'Q12311817', valid_from: '0001-01-01T00:00:00Z', valid_to: '1977-01-01T00:00:00Z' });
    // A fact without dates has no world time; on edit time it has its value.
    expect(JSON.parse((await ok(['--db', db, '--json', 'answer', '--title', 'Henning Christophersen', '--key', 'P106', '--date', '2023-01-05', '--time', 'world'])).stdout)).toMatchObject({ status: 'unknown' });
    expect(JSON.parse((await ok(['--db', db, '--json', 'answer', '--title', 'Henning Christophersen', '--key', 'P106', '--date', '2023-01-05'])).stdout)).toMatchObject({ status: 'ok', answer: 'politician' });
  }, 120_000);

  it('exports a week, predicts and scores on either axis: the P585 series against what the page said', async () => {
    const db = join(dir, 'world-export.sqlite');
    await weekly(db, '2023-01-09', join(dir, 'world-export', 'edit'));
    const out = join(dir, 'world-export', 'world');
    await ok(['--db', db, 'export', 'weekly', '--start', '2023-01-09', '--time', 'world', '--out', out]);
    const [query] = jsonLines(readFileSync(join(out, 'queries.jsonl'), 'utf8'));
    const id = String(query?.id);
    // On 2023-01-09 the page still said 333509 (the 2020 count); in the world, the latest count before it was 334002.
    expect(jsonLines(readFileSync(join(dir, 'world-export', 'edit', 'qa_230109.jsonl'), 'utf8'))).toEqual([{ id, query: query?.query, answer: '333509' }]);
    expect(jsonLines(readFileSync(join(out, 'qa_230109.jsonl'), 'utf8'))).toEqual([{ id, query: query?.query, answer: '334002' }]);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('world time');
    // No edit-time figure rides along: the update frequency and the answer-changes figure are on world time too.
    const [editQuery] = jsonLines(readFileSync(join(dir, 'world-export', 'edit', 'queries.jsonl'), 'utf8'));
    expect([editQuery?.update_frequency, query?.update_frequency]).toEqual(['pending', 'infrequent_update']);
    expect(jsonLines(readFileSync(join(out, 'native.jsonl'), 'utf8')).map((item) => item.update_frequency)).toContain('infrequent_update');
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('![Answers changed per day on world time');
    expect(readFileSync(join(dir, 'world-export', 'edit', 'README.md'), 'utf8')).not.toContain('on world time (what held');
    const predictions = join(dir, 'predictions.jsonl');
    writeFileSync(predictions, `${JSON.stringify({ id, prediction: '334002', date: '2023-01-09' })}\n`);
    const score = async (axis: string) =>
      JSON.parse((await ok(['--db', db, '--json', 'evaluate', 'weekly', '--predictions', predictions, '--date', '2023-01-09', '--time', axis])).stdout) as { em: number; n: number };
    expect(await score('world')).toMatchObject({ em: 100, n: 1 });
    expect(await score('edit')).toMatchObject({ em: 0, n: 1 });
    // The golden document on either axis: the page as it stood, or the count that held in the world.
    const golden = async (axis: string, date = '2023-01-09') => {
      const file = join(dir, `golden-${axis}-${date}.jsonl`);
      await ok(['--db', db, 'predict', 'weekly', '--system', 'golden-doc', '--date', date, '--time', axis, '--llm', 'offline', '--out', file]);
      return jsonLines(readFileSync(file, 'utf8'));
    };
    expect(await golden('edit')).toEqual([{ id, prediction: '333509' }]);
    expect(await golden('world')).toEqual([{ id, prediction: '334002' }]);
    // Years before the page was known: on world time the count of mid-2021, not the latest revision's.
    expect(await golden('world', '2021-06-01')).toEqual([{ id, prediction: '339842' }]);
    // The leaderboard on either axis: the world-time baseline leads on world time, the page's on edit time.
    const submissions = join(dir, 'submissions');
    mkdirSync(submissions);
    copyFileSync(join(dir, 'golden-edit-2023-01-09.jsonl'), join(submissions, 'page.jsonl'));
    copyFileSync(join(dir, 'golden-world-2023-01-09.jsonl'), join(submissions, 'world.jsonl'));
    const board = async (axis: string) => {
      const run = await ok(['--db', db, '--json', 'leaderboard', '--submissions', submissions, '--date', '2023-01-09', '--time', axis]);
      return (JSON.parse(run.stdout) as { time: string; weekly: Array<{ system: string; em: number }> });
    };
    expect(await board('world')).toMatchObject({ time: 'world', weekly: [{ system: 'world', em: 100 }, { system: 'page', em: 0 }] });
    expect(await board('edit')).toMatchObject({ time: 'edit', weekly: [{ system: 'page', em: 100 }, { system: 'world', em: 0 }] });
  }, 120_000);
});

describe('labels and names', () => {
  it('keeps aliases of named entities with the interval and ships them in native.jsonl', async () => {
    const db = join(dir, 'aliases.sqlite');
    await weekly(db, '2023-01-09', join(dir, 'aliases'));
    const country = JSON.parse((await ok(['--db', db, '--json', 'answer', '--title', 'Bielefeld', '--key', 'P17', '--date', '2023-01-12'])).stdout);
    expect(country).toMatchObject({ status: 'ok', answer: 'Germany', aliases: ['Federal Republic of Germany', 'FRG', 'DE'] });
    const [native] = jsonLines(readFileSync(join(dir, 'aliases', 'native.jsonl'), 'utf8'));
    expect(native?.answers).toEqual(expect.arrayContaining([expect.objectContaining({ date: '2023-01-12', answer: '334002', aliases: [] })]));
    // Without a labels file nothing names the population property: no question, the ids kept where values show.
    const bare = join(dir, 'bare.sqlite');
    const run = await ok(['--db', bare, '--json', 'weekly', '--start', '2023-01-09', '--dump', history, '--llm', 'offline', '--out', join(dir, 'bare')]);
    const stages = (JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { stages: Array<{ stage: string; counts: Record<string, number> }> }).stages;
    expect(stages.find((stage) => stage.stage === 'select')?.counts).toMatchObject({ candidates: 0, data_units: 0 });
    expect(stages.find((stage) => stage.stage === 'labels')?.counts.unresolved).toBeGreaterThan(100);
    expect(JSON.parse((await ok(['--db', bare, '--json', 'answer', '--title', 'Bielefeld', '--key', 'P17', '--date', '2023-01-12'])).stdout)).toMatchObject({ answer: 'Q183' });
  }, 120_000);

  it('names ids from the entities of the same dump whose edits all fall outside the week, with no labels file and no API', async () => {
    // "human", the occupations, "occupation" and "instance of" edited only last year, and once more after the week: the dump's last word names them.
    const named = join(dir, 'wikidata-history-named.xml');
    const pages = namedEntityPages(['Q5', 'Q82955', 'Q188094', 'Q193391', 'P31', 'P106'], ['2022-03-01T10:00:00Z', '2022-06-01T10:00:00Z']);
    const renamedLater = namedEntityPages(['Q5'], ['2022-03-01T10:00:00Z', '2023-02-01T10:00:00Z']);
    writeFileSync(named, entityHistoryDump([...entityWeeksPages(sharedData), ...pages.filter((page) => page.pageId !== 5), ...renamedLater]));
    const db = join(dir, 'named.sqlite');
    const run = await ok(['--db', db, '--json', 'weekly', '--start', '2023-01-02', '--dump', named, '--llm', 'offline', '--out', join(dir, 'named')]);
    const stages = (JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { stages: Array<{ stage: string; counts: Record<string, number> }> }).stages;
    // Only the week's entities are stored as pages: the named ones are not.
    expect(stages.find((stage) => stage.stage === 'collect')?.counts).toMatchObject({ pages: 2 });
    expect(stages.find((stage) => stage.stage === 'labels')?.counts).not.toHaveProperty('from_wbgetentities');
    // The occupation question is asked (its key, value and the P31 class for its domain all named); the population one is not (P1082 unnamed).
    expect(jsonLines(readFileSync(join(dir, 'named', 'queries.jsonl'), 'utf8')).map(({ query, answer, key_label, domain }) => ({ query, answer, key_label, domain }))).toEqual([
      { query: 'What is the occupation of Henning Christophersen?', answer: 'politician', key_label: 'occupation', domain: 'Politics and Law' },
    ]);
    expect(JSON.parse((await ok(['--db', db, '--json', 'answer', '--title', 'Henning Christophersen', '--key', 'P31', '--date', '2023-01-05'])).stdout)).toMatchObject({ answer: 'human', aliases: ['person'] });
  }, 120_000);

  it('does not ask about a change whose old value names an entity without a label: its days before the change would answer an id', async () => {
    const { Q193391: _diplomat, ...names } = ENGLISH_NAMES;
    const partial = join(dir, 'labels-without-diplomat.json');
    writeFileSync(partial, labelsDump(names));
    const out = join(dir, 'without-diplomat');
    const run = await ok(['--db', join(dir, 'without-diplomat.sqlite'), 'weekly', '--start', '2023-01-02', '--dump', history, '--labels', partial, '--llm', 'offline', '--out', out]);
    expect(run.stdout).toMatch(/select +done +candidates=\d+ unnamed=[1-9]/);
    const release = releaseOf(out);
    expect(jsonLines(release['queries.jsonl'] ?? '').map((query) => query.query)).toEqual(['What is the population of Neihu District?']);
    const answers = Object.entries(release).filter(([name]) => name.startsWith('qa_')).flatMap(([, text]) => jsonLines(text).map((line) => String(line.answer)));
    expect(answers.filter((answer) => /\bQ\d+\b/.test(answer))).toEqual([]);
  }, 120_000);

  it('refuses a labels file that is missing or is not a Wikidata JSON dump, in one line, the store intact', async () => {
    const db = join(dir, 'bad-labels.sqlite');
    const missing = await runCli(['--db', db, 'weekly', '--start', '2023-01-09', '--dump', history, '--labels', join(dir, 'nope.json')]);
    expect(missing.code).not.toBe(0);
    expect(missing.errorCode).toBe('E_FILE_UNREADABLE');
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '[\n{"id":"P1082", "labels": 5\n]\n');
    const broken = await runCli(['--db', db, 'weekly', '--start', '2023-01-09', '--dump', history, '--labels', junk, '--llm', 'offline']);
    expect(broken.code).not.toBe(0);
    expect([broken.errorCode, broken.stderr]).toEqual(['E_LABELS_FILE_INVALID', expect.stringMatching(/labels file .*junk\.json is not a Wikidata JSON dump: line 2/)]);
    // The stages before it kept their work: a rerun with a good file goes on from the labels stage.
    const rerun = await ok(['--db', db, 'weekly', '--start', '2023-01-09', '--dump', history, '--labels', labels, '--llm', 'offline', '--out', join(dir, 'bad-labels')]);
    expect(rerun.stdout).toMatch(/collect\s+done.*already done, skipped/);
    expect(jsonLines(readFileSync(join(dir, 'bad-labels', 'queries.jsonl'), 'utf8')).map((query) => query.answer)).toEqual(['334002']);
  }, 120_000);
});

describe('an audit of an entity week', () => {
  it('freezes the infobox before and after as the data unit reads: entities and properties by label, unnamed ids kept', async () => {
    const db = join(dir, 'audit.sqlite');
    await weekly(db, '2023-01-02', join(dir, 'audit'));
    const created = JSON.parse((await ok(['--db', db, '--json', 'audit', 'create', '--name', 'entities', '--of', 'weekly', '--week', '2023-01-02', '--annotators', 'alice,bob,carol'])).stdout) as { audit: { id: number } };
    const store = openDatabase(db);
    try {
      const items = new Map(
        new AuditStore(store).items(created.audit.id).map((item) => {
          const content = WeeklyContentSchema.parse(item.content);
          return [content.title, content];
        }),
      );
      expect([...items.keys()].sort()).toEqual(['Henning Christophersen', 'Neihu District']);
      for (const content of items.values()) {
        for (const value of [...Object.values(content.infoboxBefore), ...Object.values(content.infoboxAfter)]) expect(value).not.toMatch(/\{\{[QP]\d+\}\}/);
        // Both sides are named the same way: a value the week left alone reads the same before and after.
        for (const [key, value] of Object.entries(content.infoboxAfter)) if (key !== content.key && key in content.infoboxBefore) expect(content.infoboxBefore[key], key).toBe(value);
      }
      const neihu = items.get('Neihu District');
      expect(neihu?.infoboxBefore.P17).toBe('Taiwan');
      expect(neihu?.keyLabels).toMatchObject({ P1082: 'population', P17: 'country' });
      // The occupations before the rank change, named (a change whose old value names an entity without a label is not asked about);
      // a value the week did not change keeps an id without a label as it is.
      const henning = items.get('Henning Christophersen');
      expect(henning?.infoboxBefore.P106).toBe('diplomat; politician; economist');
      expect(henning?.infoboxBefore.P27).toBe('Q756617');
      expect(henning?.infoboxAfter.P106).toBe('politician');
      expect(henning?.keyLabels?.P106).toBe('occupation');
    } finally {
      store.close();
    }
  }, 120_000);
});

describe('sync and Wikidata-driven infoboxes', () => {
  it('extends entity timelines with sync, naming what the new revisions name', async () => {
    const db = join(dir, 'sync.sqlite');
    await weekly(db, '2023-01-09', join(dir, 'sync'));
    const population = async (date: string) => JSON.parse((await ok(['--db', db, '--json', 'answer', '--title', 'Bielefeld', '--key', 'P1082', '--date', date])).stdout) as Record<string, unknown>;
    expect(await population('2023-01-20')).toMatchObject({ status: 'unknown' });
    const sync = await ok(['--db', db, 'sync', '--until', '2023-01-23', '--dump', history, '--labels', labels]);
    expect(await population('2023-01-18')).toMatchObject({ status: 'ok', answer: '334009', rev_id: 21120005 });
    // The dump's newest revision is of 2023-01-18 10:00: it vouches for no later day.
    expect(sync.stdout).toMatch(/sync up to 2023-01-18T10:00:00Z \(the dump holds nothing later; not 2023-01-23\)/);
    expect(await population('2023-01-20')).toMatchObject({ status: 'unknown' });
  }, 120_000);

  it("reports the French sample's Wikidata-driven infobox in the week's summary and in status", async () => {
    const db = join(dir, 'frwiki.sqlite');
    const run = await ok(['--db', db, 'weekly', '--start', '2005-01-01', '--days', '7000', '--dump', join(sharedData, 'frwiki-history-sample.xml'), '--stages', 'collect,parse']);
    // The collect stage parses as it collects (docs/ARCHITECTURE.md §4); the parse stage counts the window's Wikidata-driven pages.
    expect(run.stdout).toMatch(/collect\s+done\s+pages=2 revisions=83 .*infoboxes=38/);
    expect(run.stdout).toMatch(/parse\s+done\s+revisions=0 infoboxes=0 wikidata_driven_pages=1 wikidata_driven:biographie2=1/);
    expect(run.stderr).toMatch(/infoboxes filled from Wikidata/);
    const status = await ok(['--db', db, 'status']);
    expect(status.stdout).toContain("note: infoboxes filled from Wikidata on 1 page(s) (biographie2: 1): their facts change in the pages' Wikidata entities");
  }, 120_000);
});

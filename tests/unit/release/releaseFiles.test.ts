/**
 * The release files without a pipeline: a Parquet table of every column type read back by DuckDB
 * with its card features, row groups sized by rows and by bytes, the same records giving the same
 * bytes; a release's manifest, the release it follows (given, held by the directory, beside it, or
 * none), an unchanged release written again byte for byte, and verify catching an edited manifest.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANSWERS_TABLE } from '../../../src/release/answerTable.js';
import { tableFiles } from '../../../src/release/formats/index.js';
import { cardFeatures, parquetOf, type TableSpec } from '../../../src/release/parquetTable.js';
import { diffReleases, directorySource } from '../../../src/release/releaseDiff.js';
import { readManifest } from '../../../src/release/manifest.js';
import { verifyRelease } from '../../../src/release/verifyRelease.js';
import { defaultReleaseDir } from '../../../src/release/weeklyRelease.js';
import { growoverReleasesBetween, writeRelease, type ReleaseDraft } from '../../../src/release/writeRelease.js';
import { Store } from '../../../src/store/store.js';
import { tempDir } from '../../../testkit/cli.js';
import { compareWithTwin, duckdbRows, parquetRows } from '../../support/datasetCard.js';
import { withCode } from '../../support/errorCodes.js';

const EVERY_TYPE: TableSpec = {
  name: 'every',
  columns: [
    { name: 's', type: 'string' },
    { name: 'maybe', type: 'string', nullable: true, repeats: true },
    { name: 'd', type: 'date', repeats: true },
    { name: 't', type: 'timestamp', nullable: true },
    { name: 'i', type: 'int32' },
    { name: 'big', type: 'int64', nullable: true },
    { name: 'x', type: 'float64', nullable: true },
    { name: 'b', type: 'bool' },
    { name: 'names', type: 'strings' },
    { name: 'numbers', type: 'int32s' },
  ],
};

const records = [
  { s: 'Zürich "quoted" \\ ü', maybe: null, d: '2025-01-04', t: '2025-01-26T22:10:00Z', i: -3, big: 2 ** 40, x: 0.5, b: true, names: ['a', 'b'], numbers: [1, 2, 3] },
  { s: '', maybe: 'x', d: '1999-12-31', t: null, i: 0, big: null, x: null, b: false, names: [], numbers: [] },
  { s: 'no optional keys', d: '2025-01-04', i: 7, b: true },
];

describe('a release table', () => {
  it('writes every column type that DuckDB reads back as the JSON lines give it, with the features the card declares', async () => {
    const dir = tempDir();
    const files = await tableFiles([{ spec: EVERY_TYPE, records }]);
    for (const [name, content] of files) writeFileSync(join(dir, name), content);
    const { columns } = await parquetRows(join(dir, 'every.parquet'));
    expect(columns.map((column) => column.type)).toEqual(['VARCHAR', 'VARCHAR', 'DATE', 'TIMESTAMP WITH TIME ZONE', 'INTEGER', 'BIGINT', 'DOUBLE', 'BOOLEAN', 'VARCHAR[]', 'INTEGER[]']);
    expect(cardFeatures(EVERY_TYPE).map((feature) => ('dtype' in feature ? feature.dtype : `list of ${feature.sequence}`))).toEqual([
      'string',
      'string',
      'date32',
      'timestamp[ms, tz=UTC]',
      'int32',
      'int64',
      'float64',
      'bool',
      'list of string',
      'list of int32',
    ]);
    const twin = String(files.get('every.jsonl')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(twin[2]).toEqual({ s: 'no optional keys', maybe: null, d: '2025-01-04', t: null, i: 7, big: null, x: null, b: true, names: null, numbers: null });
    await compareWithTwin(join(dir, 'every.parquet'), twin);
  });

  it('gives the same bytes for the same records, and refuses a null in a required column or a date that is not one', async () => {
    expect(Buffer.from(await parquetOf(EVERY_TYPE, records)).equals(Buffer.from(await parquetOf(EVERY_TYPE, records)))).toBe(true);
    await expect(parquetOf(EVERY_TYPE, [{ ...records[0], i: null }])).rejects.toThrow('column i of a release table is null');
    await expect(parquetOf(EVERY_TYPE, [{ ...records[0], d: '2025-02-30x' }])).rejects.toThrow('column d of a release table holds "2025-02-30x", not a date');
  });

  it('cuts row groups at 65,536 rows, and sooner when rows are long', async () => {
    const dir = tempDir();
    const answer = { id: 'q', date: '2025-01-04', answer: 'a', status: 'ok', valid_from: null, valid_to: null, aliases: [] };
    writeFileSync(join(dir, 'many.parquet'), await parquetOf(ANSWERS_TABLE, Array.from({ length: 70_000 }, () => answer)));
    const long = { ...answer, answer: 'x'.repeat(1 << 20) };
    writeFileSync(join(dir, 'long.parquet'), await parquetOf(ANSWERS_TABLE, Array.from({ length: 70 }, () => long)));
    const groups = async (file: string) =>
      (await duckdbRows(`SELECT row_group_id, ANY_VALUE(row_group_num_rows) AS n FROM parquet_metadata('${join(dir, file)}') GROUP BY ALL ORDER BY 1`)).map((row) => Number(row.n));
    expect(await groups('many.parquet')).toEqual([65_536, 4464]);
    expect(await groups('long.parquet')).toEqual([31, 31, 8]);
  });
});

/** A small answers release of one query; `answer` sets its one answer, `question` what it asks. */
async function draft(date: string, answer: string, aliases: string[] = [], question = 'What is q1?'): Promise<ReleaseDraft> {
  const rows = [{ id: 'q1', date, answer, status: 'ok', valid_from: `${date}T00:00:00Z`, valid_to: null, aliases }];
  const queries = `${JSON.stringify({ id: 'q1', query: question })}\n`;
  return {
    kind: 'dailyqa',
    series: 'dailyqa',
    date,
    command: `wikidelta export dailyqa --from ${date} --to ${date}`,
    parameters: { from: date, to: date },
    files: new Map([...(await tableFiles([{ spec: ANSWERS_TABLE, records: rows }])), ['queries.jsonl', queries], ['README.md', '# card\n']]),
  };
}

/** A GrowOVER release of a month: its active QA items, and in native.jsonl those retired that month with their reason. */
function growoverDraft(snapshot: string, active: string[], retired: Record<string, string> = {}): ReleaseDraft {
  const qa = `${JSON.stringify({ Article: active.map((id) => ({ id, question: `${id}?`, answer: 'a' })) })}\n`;
  const native = Object.entries(retired).map(([id, reason]) => `${JSON.stringify({ kind: 'qa', id, snapshot, status: 'retired', retired_snapshot: snapshot, reason })}\n`);
  return {
    kind: 'growover',
    series: 'growover samplewiki',
    date: snapshot,
    command: `wikidelta export growover --snapshot ${snapshot}`,
    parameters: { snapshot },
    files: new Map([['qa.jsonl', qa], ['turn.jsonl', ''], ['native.jsonl', native.join('')]]),
  };
}

describe('GrowOVER releases that are not consecutive', () => {
  const store = Store.open(':memory:');

  it("gives an item retired in a month between them its reason from that month's release beside them, else says it retired in between", async () => {
    const parent = tempDir();
    await writeRelease(store, join(parent, 'feb'), growoverDraft('2025-02-01', ['a', 'b', 'c']));
    const march = await writeRelease(store, join(parent, 'mar'), growoverDraft('2025-03-01', ['a', 'c'], { b: 'evidence sentence 8 changed' }));
    const april = await writeRelease(store, join(parent, 'apr'), growoverDraft('2025-04-01', ['a'], { c: 'evidence sentence 2 deleted' }), { dir: join(parent, 'feb') });
    const retired = [
      { change: 'item_retired', item: 'qa', id: 'b', reason: 'evidence sentence 8 changed', retired_in: march.manifest.version },
      { change: 'item_retired', item: 'qa', id: 'c', reason: 'evidence sentence 2 deleted' },
    ];
    expect(april.changes !== 'unchanged' && april.changes.records.filter((record) => record.change === 'item_retired')).toEqual(retired);
    expect(readFileSync(join(parent, 'apr', 'CHANGES.md'), 'utf8')).toContain(`| \`b\` | evidence sentence 8 changed (retired in release ${march.manifest.version}) |`);
    // release diff: the months between found beside the newer release.
    const [feb, apr] = [readManifest(join(parent, 'feb')), readManifest(join(parent, 'apr'))];
    const between = await growoverReleasesBetween(join(parent, 'apr'), feb, apr);
    expect(diffReleases(directorySource(join(parent, 'feb'), feb), directorySource(join(parent, 'apr'), apr), between).records.filter((record) => record.change === 'item_retired')).toEqual(retired);
    // Without March's release at hand, b's reason is nowhere to read: said as such, never taken for April's.
    rmSync(join(parent, 'mar'), { recursive: true });
    const alone = diffReleases(directorySource(join(parent, 'feb'), feb), directorySource(join(parent, 'apr'), apr), await growoverReleasesBetween(join(parent, 'apr'), feb, apr));
    expect(alone.records.find((record) => record.id === 'b')).toEqual({ change: 'item_retired', item: 'qa', id: 'b', reason: null });
    expect(alone.body).toContain('| `b` | retired in a month between the two releases; no release of that month beside this one says why |');
  });
});

describe('a release and the release it follows', () => {
  const store = Store.open(':memory:');

  it('follows the newest earlier release of its series beside it, or the one given, or none', async () => {
    const parent = tempDir();
    await writeRelease(store, join(parent, 'a'), await draft('2025-01-01', 'one'));
    await writeRelease(store, join(parent, 'c'), await draft('2025-01-03', 'three'));
    mkdirSync(join(parent, 'not-a-release'));
    writeFileSync(join(parent, 'not-a-release', 'MANIFEST.json'), '{"broken": ');
    const b = await writeRelease(store, join(parent, 'b'), await draft('2025-01-02', 'two'));
    expect(b.manifest.previous).toEqual({ version: readManifest(join(parent, 'a')).version, directory: 'a' });
    // The same query on other days: nothing added, retired or changed.
    expect(b.changes !== 'unchanged' && b.changes.records).toEqual([]);
    const given = await writeRelease(store, join(parent, 'd'), await draft('2025-01-04', 'four'), { dir: join(parent, 'a') });
    expect(given.manifest.previous?.directory).toBe('a');
    const none = await writeRelease(store, join(parent, 'e'), await draft('2025-01-05', 'five'), 'none');
    expect(none.manifest.previous).toBeNull();
    expect(readFileSync(join(parent, 'e', 'CHANGES.md'), 'utf8')).toMatch(/the first release of the series "dailyqa"/);
  });

  it('never follows a later release: one its directory held is passed over for an earlier one beside it, a later --previous is refused', async () => {
    const parent = tempDir();
    await writeRelease(store, join(parent, 'a'), await draft('2025-01-01', 'one'));
    await writeRelease(store, join(parent, 'c'), await draft('2025-01-03', 'three'));
    const earlier = await writeRelease(store, join(parent, 'c'), await draft('2025-01-02', 'two'));
    expect(earlier.manifest.previous).toEqual({ version: readManifest(join(parent, 'a')).version, directory: 'a' });
    await writeRelease(store, join(parent, 'd'), await draft('2025-01-04', 'four'));
    await expect(writeRelease(store, join(parent, 'e'), await draft('2025-01-02', 'two'), { dir: join(parent, 'd') })).rejects.toThrow(withCode('E_FLAG_INVALID', /is later than this release/));
  });

  it('follows the release its directory held, and writes an unchanged release again byte for byte', async () => {
    const dir = join(tempDir(), 'release');
    const first = await writeRelease(store, dir, await draft('2025-01-02', 'old'));
    const second = await writeRelease(store, dir, await draft('2025-01-02', 'new'));
    expect(second.manifest.previous).toEqual({ version: first.manifest.version, directory: 'release' });
    expect(second.changes !== 'unchanged' && second.changes.records).toEqual([
      { change: 'answer_changed', id: 'q1', days: [{ date: '2025-01-02', before: { answer: 'old', status: 'ok' }, after: { answer: 'new', status: 'ok' } }] },
    ]);
    const bytes = (name: string) => readFileSync(join(dir, name)).toString('base64');
    const before = ['MANIFEST.json', 'CHANGES.md', 'changes.jsonl'].map(bytes);
    const third = await writeRelease(store, dir, await draft('2025-01-02', 'new'));
    expect(third.changes).toBe('unchanged');
    expect(['MANIFEST.json', 'CHANGES.md', 'changes.jsonl'].map(bytes)).toEqual(before);
  });

  it('refuses to compare releases of two kinds, and verify catches a manifest whose version was edited', async () => {
    const parent = tempDir();
    await writeRelease(store, join(parent, 'x'), await draft('2025-01-02', 'a'));
    const manifest = readManifest(join(parent, 'x'));
    const labels = { ...manifest, kind: 'labels' as const };
    expect(() => diffReleases(directorySource(join(parent, 'x'), labels), directorySource(join(parent, 'x'), manifest))).toThrow(withCode('E_RELEASE_MISMATCH'));
    writeFileSync(join(parent, 'x', 'MANIFEST.json'), JSON.stringify({ ...manifest, version: '2025-01-02+000000000000' }));
    expect(await verifyRelease(join(parent, 'x'))).toEqual({ ok: false, file: 'MANIFEST.json', problem: expect.stringMatching(/^names version 2025-01-02\+000000000000, which does not match the hash of the files it lists/) });
    // The date orders the series: one edited is named as such, not as a hash that differs.
    writeFileSync(join(parent, 'x', 'MANIFEST.json'), JSON.stringify({ ...manifest, date: '2025-01-09' }));
    expect(await verifyRelease(join(parent, 'x'))).toEqual({ ok: false, file: 'MANIFEST.json', problem: `says the data is of 2025-01-09, where its version ${manifest.version} says 2025-01-02` });
  });

  it("verify counts each table's rows as its format does: a manifest misstating them is refused, naming the file", async () => {
    const parent = tempDir();
    await writeRelease(store, join(parent, 'x'), await draft('2025-01-02', 'a'));
    const manifest = readManifest(join(parent, 'x'));
    expect(await verifyRelease(join(parent, 'x'))).toMatchObject({ ok: true });
    const tables = manifest.files.filter((file) => file.rows !== null).map((file) => file.path);
    expect(tables.some((path) => path.endsWith('.jsonl')) && tables.some((path) => path.endsWith('.parquet'))).toBe(true);
    for (const path of tables) {
      const misstated = manifest.files.map((file) => (file.path === path ? { ...file, rows: (file.rows ?? 0) + 1 } : file));
      writeFileSync(join(parent, 'x', 'MANIFEST.json'), JSON.stringify({ ...manifest, files: misstated }));
      expect(await verifyRelease(join(parent, 'x')), path).toEqual({ ok: false, file: path, problem: expect.stringMatching(/^has \d+ rows where the manifest says \d+$/) });
    }
  });

  it("never replaces a release of another series; a week's default folder names the wiki when another wiki's release of the week holds it", async () => {
    const parent = tempDir();
    const dir = join(parent, 'releases', 'weekly-2021-01-18');
    const enwiki = { ...(await draft('2021-01-18', 'a')), kind: 'weekly' as const, series: 'weekly enwiki' };
    await writeRelease(store, dir, enwiki);
    const frwiki = { ...(await draft('2021-01-18', 'b')), kind: 'weekly' as const, series: 'weekly frwiki' };
    await expect(writeRelease(store, dir, frwiki)).rejects.toThrow(withCode('E_OUTPUT_DIR_FOREIGN', /holds a release of another series \(weekly enwiki, 2021-01-18\)/));
    expect(readManifest(dir).series).toBe('weekly enwiki');
    const db = join(parent, 'w.sqlite');
    expect(defaultReleaseDir(db, '2021-01-18T00:00:00Z', 'enwiki')).toBe(dir);
    expect(defaultReleaseDir(db, '2021-01-18T00:00:00Z', 'frwiki')).toBe(`${dir}-frwiki`);
    expect(defaultReleaseDir(db, '2021-01-18T00:00:00Z', 'frwiki', 'world')).toBe(`${dir}-world`);
  });

  it('verify refuses a manifest naming a file outside the release, or one file twice', async () => {
    const parent = tempDir();
    await writeRelease(store, join(parent, 'x'), await draft('2025-01-02', 'a'));
    await writeRelease(store, join(parent, 'y'), await draft('2025-01-03', 'b'));
    const manifest = readManifest(join(parent, 'x'));
    // x's card moved out of it, and its manifest pointed at the copy beside it: every byte matches, but not inside the release.
    writeFileSync(join(parent, 'card.md'), readFileSync(join(parent, 'x', 'README.md')));
    rmSync(join(parent, 'x', 'README.md'));
    const outside = manifest.files.map((file) => (file.path === 'README.md' ? { ...file, path: '../card.md' } : file));
    writeFileSync(join(parent, 'x', 'MANIFEST.json'), JSON.stringify({ ...manifest, files: outside }));
    await expect(verifyRelease(join(parent, 'x'))).rejects.toThrow(withCode('E_RELEASE_INVALID'));
    await expect(verifyRelease(join(parent, 'x'))).rejects.toThrow(/files\.\d+\.path/);
    const twice = readManifest(join(parent, 'y'));
    writeFileSync(join(parent, 'y', 'MANIFEST.json'), JSON.stringify({ ...twice, files: [...twice.files, twice.files[0]] }));
    await expect(verifyRelease(join(parent, 'y'))).rejects.toThrow(/listed twice/);
  });

  it('writes an unchanged release again only from a changelog that is still the one its manifest lists', async () => {
    const dir = join(tempDir(), 'release');
    await writeRelease(store, dir, await draft('2025-01-02', 'old'));
    await writeRelease(store, dir, await draft('2025-01-02', 'new'));
    appendFileSync(join(dir, 'CHANGES.md'), 'edited by hand\n');
    await expect(writeRelease(store, dir, await draft('2025-01-02', 'new'))).rejects.toThrow(withCode('E_RELEASE_INVALID'));
    // Nothing blessed the edit: the release still fails its check, naming the changelog.
    expect(await verifyRelease(dir)).toMatchObject({ ok: false, file: 'CHANGES.md' });
  });

  it('compares a new release only with a previous release that passes verify, as release diff does', async () => {
    const parent = tempDir();
    await writeRelease(store, join(parent, 'a'), await draft('2025-01-02', 'same'));
    const answers = join(parent, 'a', 'answers.jsonl');
    writeFileSync(answers, readFileSync(answers, 'utf8').replace('"same"', '"edit"'));
    const refused = withCode('E_RELEASE_INVALID', /a \(the release this one follows\): answers\.jsonl has SHA-256 .*--previous DIR or --no-previous/);
    // Given, found beside it, or held by the directory: a changelog against altered files would report changes no release had.
    await expect(writeRelease(store, join(parent, 'b'), await draft('2025-01-03', 'same'), { dir: join(parent, 'a') })).rejects.toThrow(refused);
    await expect(writeRelease(store, join(parent, 'b'), await draft('2025-01-03', 'same'))).rejects.toThrow(refused);
    await expect(writeRelease(store, join(parent, 'a'), await draft('2025-01-02', 'other'))).rejects.toThrow(refused);
    expect(await writeRelease(store, join(parent, 'b'), await draft('2025-01-03', 'same'), 'none')).toMatchObject({ manifest: { previous: null } });
  });

  it('says an id that asks another question is replaced, and does not count its answers as changed', async () => {
    const dir = join(tempDir(), 'release');
    await writeRelease(store, dir, await draft('2025-01-02', 'Civic Harbour', [], "What is the leader's party of Port Aldwin?"));
    const written = await writeRelease(store, dir, await draft('2025-01-02', 'Edda Marrow', [], 'Who is the leader of Port Aldwin?'));
    expect(written.changes !== 'unchanged' && written.changes.counts).toMatchObject({ queries: { replaced: 1 }, answers_changed: { queries: 0, days: 0 } });
    expect(written.changes !== 'unchanged' && written.changes.records).toEqual([
      { change: 'query_replaced', id: 'q1', before: "What is the leader's party of Port Aldwin?", after: 'Who is the leader of Port Aldwin?' },
    ]);
    expect(readFileSync(join(dir, 'CHANGES.md'), 'utf8')).toContain("| `q1` | What is the leader's party of Port Aldwin? | Who is the leader of Port Aldwin? |");
  });

  it('says when the same answers have another validity interval, or a query another update frequency, as a later sync and finalize make them', async () => {
    const dir = join(tempDir(), 'release');
    const week = async (validTo: string | null, frequency: string): Promise<ReleaseDraft> => {
      const base = await draft('2025-01-02', 'same');
      const rows = [{ id: 'q1', date: '2025-01-02', answer: 'same', status: 'ok', valid_from: '2025-01-02T00:00:00Z', valid_to: validTo, aliases: [] }];
      const files = new Map([...(await tableFiles([{ spec: ANSWERS_TABLE, records: rows }])), ['queries.jsonl', `${JSON.stringify({ id: 'q1', query: 'What is q1?', update_frequency: frequency })}\n`], ['README.md', '# card\n']]);
      return { ...base, files };
    };
    await writeRelease(store, dir, await week(null, 'pending'));
    const written = await writeRelease(store, dir, await week('2025-01-20T10:00:00Z', 'infrequent_update'));
    expect(written.changes !== 'unchanged' && written.changes.counts).toMatchObject({ answers_changed: { queries: 0, days: 0 }, validity_changed: { queries: 1, days: 1 }, update_frequency_changed: 1 });
    expect(written.changes !== 'unchanged' && written.changes.records).toEqual([
      { change: 'validity_changed', id: 'q1', days: ['2025-01-02'] },
      { change: 'update_frequency_changed', id: 'q1', before: 'pending', after: 'infrequent_update' },
    ]);
    const changes = readFileSync(join(dir, 'CHANGES.md'), 'utf8');
    expect(changes).toContain('another validity interval (valid_from, valid_to): 1 queries, on 1 query-days');
    expect(changes).toMatch(/\| `q1` \| pending \| infrequent_update \|/);
  });

  it('counts an answer whose aliases changed as a changed answer', async () => {
    const dir = join(tempDir(), 'release');
    await writeRelease(store, dir, await draft('2025-01-02', 'same'));
    const written = await writeRelease(store, dir, await draft('2025-01-02', 'same', ['other name']));
    expect(written.changes !== 'unchanged' && written.changes.counts).toMatchObject({ answers_changed: { queries: 1, days: 1 } });
    expect(written.changes !== 'unchanged' && written.changes.records).toEqual([
      { change: 'answer_changed', id: 'q1', days: [{ date: '2025-01-02', before: { answer: 'same', status: 'ok', aliases: [] }, after: { answer: 'same', status: 'ok', aliases: ['other name'] } }] },
    ]);
    expect(readFileSync(join(dir, 'CHANGES.md'), 'utf8')).toContain('other name');
  });
});

/**
 * A week of Wikidata entities made here (no shared data) whose facts differ on world time: a
 * population with points in time, an occupation without dates (no world-time answer at all), and a
 * mayor whose office a preferred "no value" leaves vacant. The world-time release's day files leave
 * out what is unknown that day, as `export dailyqa --time world` does (DailyQA's null says "no value"),
 * an evaluation on a date counts the queries it left out for an unknown gold, `changes` names an
 * entity page by its label as `changes --selected` does, and `--redo labels` with a better labels file
 * names an entity the first file had without an English label.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { entityHistoryDump, type EntityJson, type EntityPage, type Statement } from '../../testkit/entityHistories.js';
import { jsonLines, runCliOk, tempDir } from '../../testkit/cli.js';

const dir = tempDir();
const db = join(dir, 'store.sqlite');
const dump = join(dir, 'history.xml');

const time = (property: string, value: string, precision = 11) => ({
  snaktype: 'value',
  property,
  datavalue: { type: 'time', value: { time: value, timezone: 0, before: 0, after: 0, precision, calendarmodel: 'http://www.wikidata.org/entity/Q1985727' } },
});
const itemValue = (id: string) => ({ type: 'wikibase-entityid', value: { 'entity-type': 'item', 'numeric-id': Number(id.slice(1)), id } });
function statement(id: string, property: string, datavalue: { type: string; value: unknown } | null, rank: Statement['rank'], qualifiers: ReturnType<typeof time>[] = []): Statement {
  const byProperty: NonNullable<Statement['qualifiers']> = {};
  for (const qualifier of qualifiers) (byProperty[qualifier.property] ??= []).push(qualifier);
  return {
    id,
    rank,
    mainsnak: datavalue === null ? { snaktype: 'novalue', property } : { snaktype: 'value', property, datavalue },
    ...(qualifiers.length > 0 ? { qualifiers: byProperty } : {}),
  };
}
function entity(id: string, label: string, claims: Record<string, Statement[]>): EntityJson {
  return { type: id.startsWith('P') ? 'property' : 'item', id, labels: { en: { language: 'en', value: label } }, aliases: {}, descriptions: { en: { language: 'en', value: 'a test entity' } }, claims };
}
const population = (id: string, amount: string, point: string, rank: Statement['rank']) =>
  statement(id, 'P1082', { type: 'quantity', value: { amount, unit: '1' } }, rank, [time('P585', point)]);

function pages(): EntityPage[] {
  const town = (claims: Record<string, Statement[]>) => entity('Q9001', 'Testville', claims);
  const older = [population('Q9001$1', '+1000', '+2020-01-01T00:00:00Z', 'preferred')];
  const worker = (occupation: string) => entity('Q9002', 'Pat Worker', { P106: [statement('Q9002$1', 'P106', itemValue(occupation), 'normal')] });
  const mayor = statement('Q9003$1', 'P6', itemValue('Q9101'), 'normal', [time('P580', '+2020-01-01T00:00:00Z')]);
  const vacant = statement('Q9003$2', 'P6', null, 'preferred', [time('P580', '+2024-03-08T00:00:00Z')]);
  const city = (claims: Record<string, Statement[]>) => entity('Q9003', 'Mayortown', claims);
  const names = (pageId: number, id: string, label: string): EntityPage => ({ pageId, revisions: [{ revId: pageId * 10, timestamp: '2023-01-01T00:00:00Z', comment: 'names', entity: entity(id, label, {}) }] });
  return [
    {
      pageId: 9001,
      revisions: [
        { revId: 90010001, timestamp: '2024-03-01T10:00:00Z', comment: 'population', entity: town({ P1082: older }) },
        { revId: 90010002, timestamp: '2024-03-05T10:00:00Z', comment: 'new count', entity: town({ P1082: [{ ...(older[0] as Statement), rank: 'normal' }, population('Q9001$2', '+1200', '+2023-06-01T00:00:00Z', 'preferred')] }) },
      ],
    },
    {
      pageId: 9002,
      revisions: [
        { revId: 90020001, timestamp: '2024-03-01T10:00:00Z', comment: 'occupation', entity: worker('Q82955') },
        { revId: 90020002, timestamp: '2024-03-06T10:00:00Z', comment: 'occupation', entity: worker('Q188094') },
      ],
    },
    {
      pageId: 9003,
      revisions: [
        { revId: 90030001, timestamp: '2024-03-01T10:00:00Z', comment: 'mayor', entity: city({ P6: [mayor] }) },
        { revId: 90030002, timestamp: '2024-03-07T10:00:00Z', comment: 'population', entity: city({ P6: [mayor], P1082: [population('Q9003$3', '+50', '+2023-01-01T00:00:00Z', 'normal')] }) },
        { revId: 90030003, timestamp: '2024-03-08T10:00:00Z', comment: 'office vacant', entity: city({ P6: [mayor, vacant], P1082: [population('Q9003$3', '+50', '+2023-01-01T00:00:00Z', 'normal')] }) },
      ],
    },
    names(9101, 'Q9101', 'Alice Example'),
    names(82955, 'Q82955', 'politician'),
    names(188094, 'Q188094', 'economist'),
    names(1082, 'P1082', 'population'),
    names(106, 'P106', 'occupation'),
    names(6, 'P6', 'head of government'),
  ];
}

beforeAll(async () => {
  writeFileSync(dump, entityHistoryDump(pages()));
  await runCliOk(['--db', db, 'weekly', '--start', '2024-03-04', '--dump', dump, '--llm', 'offline', '--out', join(dir, 'edit')]);
}, 60_000);

describe('Wikidata facts on world time', () => {
  it('leaves a fact without dates out of the world-time day files, as export dailyqa does, and keeps it in the answers table as unknown', async () => {
    const queries = jsonLines(readFileSync(join(dir, 'edit', 'queries.jsonl'), 'utf8'));
    const occupation = queries.find((query) => query['key'] === 'P106');
    const count = queries.find((query) => query['title'] === 'Testville');
    expect(occupation?.['answer']).toBe('economist');
    const world = join(dir, 'world');
    await runCliOk(['--db', db, 'export', 'weekly', '--start', '2024-03-04', '--time', 'world', '--out', world]);
    const day = jsonLines(readFileSync(join(world, 'qa_240311.jsonl'), 'utf8'));
    expect(day.map((line) => line['id'])).not.toContain(occupation?.['id']);
    expect(day).toContainEqual({ id: count?.['id'], query: count?.['query'], answer: '1200' });
    const exported = await runCliOk(['--db', db, 'export', 'dailyqa', '--date', '2024-03-11', '--time', 'world']);
    expect(jsonLines(exported.stdout)).toEqual(day);
    const answers = jsonLines(readFileSync(join(world, 'answers.jsonl'), 'utf8'));
    expect(answers.find((row) => row['id'] === occupation?.['id'] && row['date'] === '2024-03-11')).toMatchObject({ answer: null, status: 'unknown' });
  });

  it('counts the queries an evaluation on a date leaves out for an unknown gold', async () => {
    const queries = jsonLines(readFileSync(join(dir, 'edit', 'queries.jsonl'), 'utf8'));
    const predictions = join(dir, 'predictions.jsonl');
    writeFileSync(predictions, queries.map((query) => `${JSON.stringify({ id: query['id'], prediction: query['answer'] })}\n`).join(''));
    const report = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'weekly', '--predictions', predictions, '--date', '2024-03-11', '--time', 'world'])).stdout);
    expect(report).toMatchObject({ n: queries.length - 1, unknown: 1, outside: { n: 1 } });
    const text = (await runCliOk(['--db', db, 'evaluate', 'weekly', '--predictions', predictions, '--date', '2024-03-11', '--time', 'world'])).stdout;
    expect(text).toContain('1 unknown gold excluded');
  });

  it('reads a preferred "no value" with a start time as a vacant office on world time, as on edit time', async () => {
    const answer = async (date: string, axis: string) =>
      JSON.parse((await runCliOk(['--db', db, '--json', 'answer', '--title', 'Mayortown', '--key', 'P6', '--date', date, '--time', axis])).stdout);
    expect(await answer('2024-03-07', 'world')).toMatchObject({ status: 'ok', answer: 'Alice Example', valid_to: '2024-03-08T00:00:00Z' });
    expect(await answer('2024-03-09', 'edit')).toMatchObject({ status: 'no_key', answer: null });
    expect(await answer('2024-03-09', 'world')).toMatchObject({ status: 'no_key', answer: null });
  });

  it('names an entity page by its label in changes, as changes --selected and the releases do', async () => {
    const titles = async (...flags: string[]) =>
      new Set(jsonLines((await runCliOk(['--db', db, 'changes', '--start', '2024-03-04', '--end', '2024-03-10', ...flags])).stdout).map((change) => change['title']));
    expect(await titles()).toEqual(new Set(['Testville', 'Pat Worker', 'Mayortown']));
    expect(await titles('--selected')).toEqual(new Set(['Testville', 'Pat Worker', 'Mayortown']));
  });

  it('names with a better labels file given to --redo labels an entity the first file had without an English label', async () => {
    const partialDb = join(dir, 'partial.sqlite');
    const partialDump = join(dir, 'no-economist.xml');
    writeFileSync(partialDump, entityHistoryDump(pages().filter((page) => page.pageId !== 188094)));
    const labelsFile = (name: string, labels: object) => {
      const file = join(dir, name);
      writeFileSync(file, `[\n${JSON.stringify({ type: 'item', id: 'Q188094', labels, aliases: {}, descriptions: {}, claims: {} })}\n]\n`);
      return file;
    };
    const week = (labels: string, ...flags: string[]) =>
      runCliOk(['--db', partialDb, 'weekly', '--start', '2024-03-04', '--dump', partialDump, '--labels', labels, '--llm', 'offline', '--out', join(dir, 'partial'), ...flags]);
    const asked = async () => jsonLines((await runCliOk(['--db', partialDb, 'changes', '--start', '2024-03-04', '--end', '2024-03-10', '--selected'])).stdout).map((unit) => unit['title']);
    await week(labelsFile('german.json', { de: { language: 'de', value: 'Ökonom' } }));
    expect(await asked()).not.toContain('Pat Worker');
    const run = await week(labelsFile('english.json', { en: { language: 'en', value: 'economist' } }), '--redo', 'labels');
    expect(run.stdout).toMatch(/labels\s+done\s+ids=\d+ known=\d+ from_file=1 unresolved=0/);
    expect(await asked()).toContain('Pat Worker');
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { namedFields, referencedIds, renderValue } from '../../src/content/entityRefs.js';
import type { EntityName } from '../../src/model.js';
import { extractFacts, extractorFor, prepareExtractors } from '../../src/content/registry.js';
import { domainOfArticle } from '../../src/llm/domains.js';
import { LabelsFile } from '../../src/sources/entityNames.js';
import { sharedData } from '../../testkit/sharedData.js';
import { buildWorldTimeline } from '../../src/timeline/worldTimeline.js';

beforeAll(() => prepareExtractors(['wikibase-item']));

const entityText = (id: string) => readFileSync(join(sharedData, 'wikidata', `${id}.json`), 'utf8');
const facts = (id: string, firstParagraph = false) => extractFacts(entityText(id), 'wikibase-item', { firstParagraph });
const field = (id: string, key: string) => new Map(facts(id).infoboxes[0]?.fields).get(key);

describe('Wikidata item facts (wikibase-sdk simplification)', () => {
  it('keys facts by property, the best-ranked statements in statement order, never deprecated ones', () => {
    // Bielefeld: 17 population statements, one preferred; three countries, Germany preferred.
    expect(field('Q2112', 'P1082')).toBe('334002');
    expect(field('Q2112', 'P17')).toBe('{{Q183}}');
    // Six classes, one deprecated (Q1964689): the five normal ones, in order.
    expect(field('Q2112', 'P31')).toBe('{{Q1549591}}; {{Q1187811}}; {{Q42744322}}; {{Q707813}}; {{Q85635630}}');
    expect(field('Q2112', 'P31')).not.toContain('Q1964689');
    // Henning Christophersen: no preferred occupation, so all three normal ones.
    expect(field('Q646148', 'P106')).toBe('{{Q193391}}; {{Q82955}}; {{Q188094}}');
  });

  it('writes quantities with their unit, times at their precision, coordinates, strings (even shaped like ids) and entities as references', () => {
    expect(field('Q2112', 'P2046')).toBe('258.82 {{Q712226}}');
    expect(field('Q646148', 'P569')).toBe('1939-11-08');
    expect(field('Q2112', 'P625')).toBe('52.016666666667, 8.5333333333333');
    expect(field('Q2112', 'P856')).toBe('https://www.bielefeld.de/');
    expect(field('Q271094', 'P17')).toBe('{{Q865}}');
    // External ids shaped like entity ids are strings (the SDK gives both as bare strings; the snak's datavalue type tells them apart).
    expect(field('Q2112', 'P6814')).toBe('Q2112');
    expect(field('Q2112', 'P8168')).toBe('Q21454');
    expect(field('Q646148', 'P701')).toBe('P59416');
  });

  it('names the entity: English label, aliases, enwiki sitelink; its description as the first paragraph when asked', () => {
    const bielefeld = facts('Q2112', true);
    expect(bielefeld.entity).toMatchObject({ id: 'Q2112', label: 'Bielefeld', enwiki: 'Bielefeld' });
    expect(bielefeld.firstParagraph).toMatch(/^Bielefeld: /);
    expect(facts('Q2112').firstParagraph).toBe('');
    expect(facts('Q271094').entity).toMatchObject({ id: 'Q271094', label: 'Neihu District', enwiki: 'Neihu District' });
  });

  it('keeps every non-deprecated statement with a time qualifier for the world time axis', () => {
    const timed = facts('Q646148').entity?.timed ?? [];
    // The end, 1995-01-22, is the last day of the term: it holds until the next day begins.
    expect(timed).toContainEqual({ key: 'P39', value: '{{Q651703}}', rank: 'normal', start: '1985-01-06T00:00:00Z', end: '1995-01-23T00:00:00Z', handoverFrom: '1995-01-22T00:00:00Z', point: null });
    const population = (facts('Q271094').entity?.timed ?? []).filter((fact) => fact.key === 'P1082');
    // Neihu District's long series: every statement but those without a point in time.
    expect(population.length).toBeGreaterThan(190);
    expect(population.every((fact) => fact.point !== null && fact.start === null)).toBe(true);
  });

  it("reads an end as the last day a statement held, its successor taking over: Bielefeld's country on every day around 1949 and 1990", () => {
    const countries = buildWorldTimeline((facts('Q2112').entity?.timed ?? []).filter((fact) => fact.key === 'P17'), 1);
    const countryOn = (date: string) => countries.find((interval) => interval.validFrom <= `${date}T00:00:00Z` && (interval.validTo === null || interval.validTo > `${date}T00:00:00Z`))?.value ?? null;
    // German Reich until West Germany begins on 1949-05-23 (the Reich's end day, handed over).
    expect(['1949-05-22', '1949-05-23', '1949-05-24'].map(countryOn)).toEqual(['{{Q1206012}}', '{{Q713750}}', '{{Q713750}}']);
    // West Germany's end, 1990-10-02, is its last day; Germany begins on 1990-10-03: no day without a country.
    expect(['1990-10-01', '1990-10-02', '1990-10-03'].map(countryOn)).toEqual(['{{Q713750}}', '{{Q713750}}', '{{Q183}}']);
  });

  it('leaves out a term whose end is an unknown value instead of reading it as a term still held', () => {
    const entity = JSON.parse(entityText('Q646148')) as { claims: Record<string, Array<{ mainsnak: { datavalue?: { value: { id?: string } } }; qualifiers?: Record<string, unknown[]> }>> };
    const term = entity.claims['P39']?.find((statement) => statement.mainsnak.datavalue?.value.id === 'Q651703');
    if (!term?.qualifiers) throw new Error('Christophersen has no qualified P39 Q651703 statement');
    term.qualifiers['P582'] = [{ snaktype: 'somevalue', property: 'P582', datatype: 'time' }];
    const timed = extractFacts(JSON.stringify(entity), 'wikibase-item', { firstParagraph: false }).entity?.timed ?? [];
    expect(timed.filter((fact) => fact.value === '{{Q651703}}')).toEqual([]);
    expect(timed.length).toBe((facts('Q646148').entity?.timed ?? []).length - 1);
  });

  it("reads entities as Wikidata stores them in dumps (snaks without datatype) the same as the API's", () => {
    const stored = JSON.parse(entityText('Q2112'), (key, value: unknown) => (key === 'datatype' ? undefined : value)) as unknown;
    expect(extractFacts(JSON.stringify(stored), 'wikibase-item', { firstParagraph: false })).toEqual(facts('Q2112'));
  });

  it('gives no facts, without throwing, for content it cannot read, and says why; a bad statement costs only itself', () => {
    const unreadable = (text: string) => extractFacts(text, 'wikibase-item', { firstParagraph: true });
    for (const text of ['', '{', '<xml/>', '{"id":"Q2112","claims":{"P1082":[']) expect(unreadable(text)).toEqual({ infoboxes: [], firstParagraph: '', unreadable: expect.stringMatching(/^not JSON \(/) });
    for (const text of ['[]', 'null', '{"id": 5}', '{"id":"Q1","claims":{"P31":5}}', '{"id":"Q1"}']) expect(unreadable(text)).toEqual({ infoboxes: [], firstParagraph: '', unreadable: expect.stringMatching(/^not an entity's JSON \(/) });
    // An entity without statements, as Wikibase writes it: readable, and without facts.
    expect(unreadable('{"id":"Q1","claims":[]}')).toEqual({ infoboxes: [], firstParagraph: '', entity: { id: 'Q1', label: null, aliases: [], enwiki: null, timed: [] } });
    const entity = JSON.parse(entityText('Q646148')) as { claims: Record<string, unknown[]> };
    entity.claims['P106']?.push({ rank: 'sideways', mainsnak: null }, { rank: 'normal', mainsnak: { snaktype: 'value', datavalue: { type: 'nonsense' } } });
    expect(new Map(extractFacts(JSON.stringify(entity), 'wikibase-item', { firstParagraph: false }).infoboxes[0]?.fields).get('P106')).toBe(field('Q646148', 'P106'));
  });
});

describe('the content-model registry', () => {
  it('chooses the extractor by model, wikitext when none is named, none for a model no extractor reads', () => {
    expect(extractorFor(undefined)?.models).toContain('wikitext');
    expect(extractorFor('wikibase-item')?.models).toContain('wikibase-item');
    expect(extractorFor('css')).toBeUndefined();
    expect(extractFacts('{{Infobox settlement|population_total=5}}', 'css', { firstParagraph: true })).toEqual({ infoboxes: [], firstParagraph: '' });
    expect(extractFacts('{{Infobox settlement|population_total=5}}', null, { firstParagraph: false }).infoboxes[0]?.fields).toEqual([['population_total', '5']]);
  });
});

describe('entity references and their labels', () => {
  const names = new Map([
    ['Q183', { label: 'Germany', aliases: ['Federal Republic of Germany', 'FRG'] }],
    ['P17', { label: 'country', aliases: [] }],
    ['Q1', { label: null, aliases: [] }],
  ]);
  const lookup = (id: string) => names.get(id);

  it('puts labels where ids stand, keeps an unknown id and marks it unresolved, keeps the aliases of a value that is one entity', () => {
    expect(referencedIds('{{Q183}}; {{Q7}}; {{Q183}}')).toEqual(['Q183', 'Q7']);
    expect(renderValue('{{Q183}}', lookup)).toEqual({ text: 'Germany', aliases: ['Federal Republic of Germany', 'FRG'], unresolved: [] });
    expect(renderValue('{{Q183}}; {{Q7}}; {{Q1}}', lookup)).toEqual({ text: 'Germany; Q7; Q1', aliases: [], unresolved: ['Q7', 'Q1'] });
    expect(renderValue('258.82 km', lookup)).toEqual({ text: '258.82 km', aliases: [], unresolved: [] });
    expect(namedFields([['P17', '{{Q183}}'], ['population_total', '5']], lookup)).toEqual({
      values: { P17: 'Germany', population_total: '5' },
      keyLabels: { P17: 'country' },
    });
  });
});

describe('domains of entities', () => {
  it('comes from the P31 class when the template says nothing, and from the occupation of a human', () => {
    expect(domainOfArticle({ template: 'wikibase-item', infobox: { P31: 'big city; Q1187811' } })).toBe('Geography and Environment');
    expect(domainOfArticle({ template: 'wikibase-item', infobox: { P31: 'human', P106: 'Q193391; politician' } })).toBe('Politics and Law');
    expect(domainOfArticle({ template: 'wikibase-item', infobox: { P31: 'Q5' } })).toBe('Others');
    expect(domainOfArticle({ template: 'football club', infobox: { P31: 'big city' } })).toBe('Sports and Entertainment');
  });
});

describe('--labels FILE: the 2015 Wikidata sample dump', () => {
  it("reads the 2015 sample dump (gzip, the id after the terms): its entities have no English label, absent ids are not named", async () => {
    const found = new Map<string, EntityName | null>();
    await new LabelsFile(join(sharedData, 'wikidata', 'sample-dump-20150815.json.gz')).names(['Q1', 'P31', 'Q999999'], (batch) => batch.forEach((name, id) => found.set(id, name)));
    expect(found).toEqual(new Map([['Q1', { label: null, aliases: [] }], ['P31', { label: null, aliases: [] }]]));
  });
});

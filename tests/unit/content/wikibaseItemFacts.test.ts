import { beforeAll, describe, expect, it } from 'vitest';
import { extractFacts, prepareExtractors } from '../../../src/content/registry.js';

beforeAll(() => prepareExtractors(['wikibase-item']));

type Snak = { snaktype: string; property: string; datatype?: string; datavalue?: { type: string; value: unknown } };

/** A statement as Wikidata writes it, with the qualifiers given. */
function statement(mainsnak: Snak, qualifiers: Snak[] = []): Record<string, unknown> {
  const byProperty: Record<string, Snak[]> = {};
  for (const qualifier of qualifiers) (byProperty[qualifier.property] ??= []).push(qualifier);
  return { type: 'statement', rank: 'normal', mainsnak, ...(qualifiers.length > 0 ? { qualifiers: byProperty, 'qualifiers-order': Object.keys(byProperty) } : {}) };
}

const item = (property: string, id: string): Snak => ({
  snaktype: 'value',
  property,
  datatype: 'wikibase-item',
  datavalue: { type: 'wikibase-entityid', value: { 'entity-type': 'item', 'numeric-id': Number(id.slice(1)), id } },
});
const text = (property: string, value: string, datatype = 'string'): Snak => ({ snaktype: 'value', property, datatype, datavalue: { type: 'string', value } });
const time = (property: string, value: string, precision = 11): Snak => ({
  snaktype: 'value',
  property,
  datatype: 'time',
  datavalue: { type: 'time', value: { time: value, timezone: 0, before: 0, after: 0, precision, calendarmodel: 'http://www.wikidata.org/entity/Q1985727' } },
});

function factsOf(claims: Record<string, Array<Record<string, unknown>>>) {
  return extractFacts(JSON.stringify({ type: 'item', id: 'Q1', claims }), 'wikibase-item', { firstParagraph: false });
}
const fields = (claims: Record<string, Array<Record<string, unknown>>>) => Object.fromEntries(factsOf(claims).infoboxes[0]?.fields ?? []);

describe('Wikidata statement values', () => {
  it('takes a value for an entity by its datavalue type, not by its shape: a road number M25 or an external id E40 stays a string', () => {
    expect(
      fields({
        P1824: [statement(text('P1824', 'M25'))],
        P6814: [statement(text('P6814', 'E40', 'external-id'))],
        P17: [statement(item('P17', 'Q145'))],
      }),
    ).toEqual({ P1824: 'M25', P6814: 'E40', P17: '{{Q145}}' });
    // On the time axis as well: the timed fact's value is the string.
    expect(factsOf({ P1824: [statement(text('P1824', 'M25'), [time('P580', '+1986-10-29T00:00:00Z')])] }).entity?.timed).toEqual([
      { key: 'P1824', value: 'M25', rank: 'normal', start: '1986-10-29T00:00:00Z', end: null, handoverFrom: null, point: null },
    ]);
  });
});

describe('Wikidata time values at their precision', () => {
  it('writes a day, a month and a year as the SDK does, a decade, a century and a millennium as such, and years before the common era with BCE', () => {
    expect(
      fields({
        P569: [statement(time('P569', '+2011-05-03T00:00:00Z', 11))],
        P580: [statement(time('P580', '+2011-05-00T00:00:00Z', 10))],
        P571: [statement(time('P571', '+2011-00-00T00:00:00Z', 9))],
        P2031: [statement(time('P2031', '+1990-00-00T00:00:00Z', 8))],
        P2032: [statement(time('P2032', '+1901-00-00T00:00:00Z', 7))],
        P1191: [statement(time('P1191', '+2000-00-00T00:00:00Z', 7))],
        P1249: [statement(time('P1249', '+1001-00-00T00:00:00Z', 6))],
        P575: [statement(time('P575', '-0500-00-00T00:00:00Z', 7))],
        P585: [statement(time('P585', '-0044-00-00T00:00:00Z', 9))],
        P1317: [statement(time('P1317', '+1211-00-00T00:00:00Z', 7))],
      }),
    ).toEqual({
      P569: '2011-05-03',
      P580: '2011-05',
      P571: '2011',
      P2031: '1990s',
      P2032: '20th century',
      P1191: '20th century',
      P1249: '2nd millennium',
      P575: '5th century BCE',
      P585: '44 BCE',
      P1317: '13th century',
    });
  });
});

describe('Wikidata time values written finer than their precision', () => {
  it('reads a time at its precision whatever its month and day: tools write a year as +1883-01-01, and Wikibase keeps it so', () => {
    expect(
      fields({
        P2031: [statement(time('P2031', '+1990-01-01T00:00:00Z', 8))],
        P2032: [statement(time('P2032', '+1901-01-01T00:00:00Z', 7))],
        P571: [statement(time('P571', '+2024-03-15T00:00:00Z', 9))],
        P580: [statement(time('P580', '+2020-05-15T00:00:00Z', 10))],
      }),
    ).toEqual({ P2031: '1990s', P2032: '20th century', P571: '2024', P580: '2020-05' });
  });

  it('reads a start or an end qualifier at its precision too: a start in 2020 written +2020-03-15 at year precision is 2020-01-01', () => {
    expect(timedOf(time('P580', '+2020-03-15T00:00:00Z', 9), time('P582', '+2021-07-14T00:00:00Z', 10))).toEqual([
      { key: 'P39', value: '{{Q11696}}', rank: 'normal', start: '2020-01-01T00:00:00Z', end: '2021-08-01T00:00:00Z', handoverFrom: '2021-07-01T00:00:00Z', point: null },
    ]);
  });

  it("holds a term through its end's period (the last day, month or year it held), a statement starting in that period taking over from its start", () => {
    const term = (start: string, end: string, precision: number) => timedOf(time('P580', start, precision), time('P582', end, precision))[0];
    expect(term('+2020-01-01T00:00:00Z', '+2020-01-01T00:00:00Z', 9)).toMatchObject({ start: '2020-01-01T00:00:00Z', end: '2021-01-01T00:00:00Z', handoverFrom: '2020-01-01T00:00:00Z' });
    expect(term('+2020-12-01T00:00:00Z', '+2020-12-00T00:00:00Z', 10)).toMatchObject({ start: '2020-12-01T00:00:00Z', end: '2021-01-01T00:00:00Z', handoverFrom: '2020-12-01T00:00:00Z' });
    expect(term('+0044-03-15T00:00:00Z', '+0044-03-15T00:00:00Z', 11)).toMatchObject({ start: '0044-03-15T00:00:00Z', end: '0044-03-16T00:00:00Z', handoverFrom: '0044-03-15T00:00:00Z' });
    // West Germany: the end 1990-10-02 is the last day it held.
    expect(term('+1949-05-23T00:00:00Z', '+1990-10-02T00:00:00Z', 11)).toMatchObject({ start: '1949-05-23T00:00:00Z', end: '1990-10-03T00:00:00Z', handoverFrom: '1990-10-02T00:00:00Z' });
    expect(term('+2016-01-01T00:00:00Z', '+2020-01-01T00:00:00Z', 9)).toMatchObject({ start: '2016-01-01T00:00:00Z', end: '2021-01-01T00:00:00Z', handoverFrom: '2020-01-01T00:00:00Z' });
  });

  it('writes a month or a day before the common era with BCE, as it writes a year', () => {
    expect(fields({ P569: [statement(time('P569', '-0500-03-15T00:00:00Z', 11))], P570: [statement(time('P570', '-0044-03-00T00:00:00Z', 10))] })).toEqual({
      P569: '500-03-15 BCE',
      P570: '44-03 BCE',
    });
  });
});

describe('Wikidata quantities', () => {
  const quantity = (property: string, amount: string, unit = '1'): Snak => ({ snaktype: 'value', property, datatype: 'quantity', datavalue: { type: 'quantity', value: { amount, unit } } });

  it("writes an amount as Wikidata's decimal, never in exponent notation or rounded to a double", () => {
    expect(
      fields({
        P2067: [statement(quantity('P2067', '+5972370000000000000000000', 'http://www.wikidata.org/entity/Q11570'))],
        P2120: [statement(quantity('P2120', '+0.0000001'))],
        P1082: [statement(quantity('P1082', '+12345678901234567'))],
        P2044: [statement(quantity('P2044', '-12.50'))],
        P2046: [statement(quantity('P2046', '+258.82'))],
      }),
    ).toEqual({ P2067: '5972370000000000000000000 {{Q11570}}', P2120: '0.0000001', P1082: '12345678901234567', P2044: '-12.5', P2046: '258.82' });
  });
});

describe('Wikidata ranks', () => {
  const none = (property: string): Snak => ({ snaktype: 'novalue', property, datatype: 'wikibase-item' });
  const unknown = (property: string): Snak => ({ snaktype: 'somevalue', property, datatype: 'wikibase-item' });
  const preferred = (mainsnak: Snak) => ({ ...statement(mainsnak), rank: 'preferred' });

  it('weighs a preferred "no value" or "unknown value" against the others: the normal values it outranks are not the answer', () => {
    expect(fields({ P6: [statement(item('P6', 'Q1001')), preferred(none('P6'))], P35: [statement(item('P35', 'Q1002')), preferred(unknown('P35'))] })).toEqual({});
    // Beside a preferred value, a preferred unknown value takes nothing away.
    expect(fields({ P138: [statement(item('P138', 'Q1001')), preferred(item('P138', 'Q1002')), preferred(unknown('P138'))] })).toEqual({ P138: '{{Q1002}}' });
  });

  it('keeps a time-qualified "no value" for world time, its value null: a vacant office since a date outranks the normal term', () => {
    const vacant = { ...statement(none('P6'), [time('P580', '+2024-03-08T00:00:00Z')]), rank: 'preferred' };
    const facts = factsOf({ P6: [statement(item('P6', 'Q1001'), [time('P580', '+2020-01-01T00:00:00Z')]), vacant] });
    expect(facts.infoboxes).toEqual([]);
    expect(facts.entity?.timed).toEqual([
      { key: 'P6', value: '{{Q1001}}', rank: 'normal', start: '2020-01-01T00:00:00Z', end: null, handoverFrom: null, point: null },
      { key: 'P6', value: null, rank: 'preferred', start: '2024-03-08T00:00:00Z', end: null, handoverFrom: null, point: null },
    ]);
    // Without a time qualifier it is no timed fact, as a value without one is not.
    expect(factsOf({ P6: [preferred(none('P6'))] }).entity?.timed).toEqual([]);
  });
});

const timedOf = (...qualifiers: Snak[]) => factsOf({ P39: [statement(item('P39', 'Q11696'), qualifiers)] }).entity?.timed ?? [];

describe('Wikidata time qualifiers', () => {
  it('reads years 1 to 999 (written without leading zeros by the SDK) at their precision, padded to four digits', () => {
    expect(timedOf(time('P580', '+0800-12-25T00:00:00Z'), time('P582', '+0814-01-01T00:00:00Z', 9))).toEqual([
      { key: 'P39', value: '{{Q11696}}', rank: 'normal', start: '0800-12-25T00:00:00Z', end: '0815-01-01T00:00:00Z', handoverFrom: '0814-01-01T00:00:00Z', point: null },
    ]);
    expect(timedOf(time('P585', '+0001-01-01T00:00:00Z', 9))[0]?.point).toBe('0001-01-01T00:00:00Z');
    expect(timedOf(time('P585', '+0044-03-00T00:00:00Z', 10))[0]?.point).toBe('0044-03-01T00:00:00Z');
  });

  it('reads no instant outside years 1 to 9999: year 0, years before the common era', () => {
    expect(timedOf(time('P585', '+0000-01-01T00:00:00Z', 9))).toEqual([]);
    expect(timedOf(time('P585', '-0044-03-15T00:00:00Z'))).toEqual([]);
  });
});

describe('statements whose extent is unknown', () => {
  const unknown = (property: string): Snak => ({ snaktype: 'somevalue', property, datatype: 'time' });
  const none = (property: string): Snak => ({ snaktype: 'novalue', property, datatype: 'time' });
  const terms = (...qualifiers: Snak[][]) => factsOf({ P39: qualifiers.map((q) => statement(item('P39', 'Q11696'), q)) }).entity?.timed ?? [];

  it('leaves out of the timed facts a statement whose start or end is there but gives no time: it would otherwise hold to this day', () => {
    const started = time('P580', '+2001-01-20T00:00:00Z');
    expect(terms([started, unknown('P582')], [unknown('P580'), time('P582', '+2009-01-20T00:00:00Z')], [started, none('P582')], [started, time('P582', '+0000-01-01T00:00:00Z', 9)])).toEqual([]);
    // An unknown end with a point in time is no better: the statement's extent is still unknown.
    expect(terms([time('P585', '+2005-01-01T00:00:00Z', 9), unknown('P582')])).toEqual([]);
  });

  it('keeps a statement with no end qualifier at all as open, and the fact itself whatever its qualifiers', () => {
    const started = time('P580', '+2001-01-20T00:00:00Z');
    expect(terms([started], [started, unknown('P582')])).toEqual([{ key: 'P39', value: '{{Q11696}}', rank: 'normal', start: '2001-01-20T00:00:00Z', end: null, handoverFrom: null, point: null }]);
    expect(factsOf({ P39: [statement(item('P39', 'Q11696'), [started, unknown('P582')])] }).infoboxes[0]?.fields).toEqual([['P39', '{{Q11696}}']]);
  });
});

describe('an item merged into another', () => {
  it('gives no facts and is not unreadable: the redirect ends the facts the item had', () => {
    expect(extractFacts('{"entity":"Q123","redirect":"Q456"}', 'wikibase-item', { firstParagraph: true })).toEqual({ infoboxes: [], firstParagraph: '' });
  });
});

describe('content no extractor can read', () => {
  it('gives no facts, a new value each time, whatever the model: a caller changing one changes no other', () => {
    const unreadable = [extractFacts('{', 'wikibase-item', { firstParagraph: true }), extractFacts('{"id": 5}', 'wikibase-item', { firstParagraph: true }), extractFacts('a { color: red }', 'css', { firstParagraph: true })];
    for (const facts of unreadable) expect(facts).toMatchObject({ infoboxes: [], firstParagraph: '' });
    unreadable[0]?.infoboxes.push({ template: 'changed', fields: [] });
    expect(extractFacts('{', 'wikibase-item', { firstParagraph: true })).toMatchObject({ infoboxes: [], firstParagraph: '' });
    expect(unreadable[1]?.infoboxes).toEqual([]);
  });
});

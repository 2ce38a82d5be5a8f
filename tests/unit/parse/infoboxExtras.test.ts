import { describe, expect, it } from 'vitest';
import { extractInfoboxes } from '../../../src/parse/infobox.js';
import { drawsFromWikidata, linkAliases } from '../../../src/parse/infoboxExtras.js';

describe('infobox link targets as aliases', () => {
  it('keeps the target of a piped link whose text differs, not files, categories or plain links', () => {
    expect(linkAliases('[[United States|USA]]', 'USA')).toEqual(['United States']);
    expect(linkAliases('[[File:Flag.svg|20px]] [[united_States#History|US]]<ref>x</ref>', 'US')).toEqual(['United States']);
    expect(linkAliases('[[Canada]]', 'Canada')).toEqual([]);
    expect(linkAliases('[[Category:X|y]]', '')).toEqual([]);
    expect(linkAliases('[[Berlin|berlin]]', 'berlin')).toEqual([]);
    const [infobox] = extractInfoboxes('{{Infobox country\n| name = Land\n| leader = [[Olaf Scholz|Scholz]]\n| capital = [[Berlin]]\n}}');
    expect(infobox?.fields).toEqual([['name', 'Land'], ['leader', 'Scholz'], ['capital', 'Berlin']]);
    expect(infobox?.aliases).toEqual({ leader: ['Olaf Scholz'] });
  });

  it('keeps none for a link inside a longer value: scored as the answer, the target of a part would be taken for the whole', () => {
    expect(linkAliases('[[united_States#History|US]] and [[Canada]]', 'US and Canada')).toEqual([]);
    expect(linkAliases('[[Kestrel Vale F.C.|Kestrel Vale]] (loan)', 'Kestrel Vale (loan)')).toEqual([]);
    const [infobox] = extractInfoboxes('{{Infobox company\n| name = B\n| key_people = {{plainlist|\n* Ingrid Solberg ([[Chairperson|Chair]])\n* Marcus Penhallow ([[Chief executive officer|CEO]])\n}}\n| type = [[Public company|Public]]\n}}');
    expect(infobox?.aliases).toEqual({ type: ['Public company'] });
  });
});

describe('Wikidata-driven infoboxes', () => {
  it('are told by their name, a parameter or value asking for Wikidata, or no value at all', () => {
    expect(drawsFromWikidata('infobox biographie2', new Map())).toBe(true);
    expect(drawsFromWikidata('infobox person/wikidata', new Map([['name', 'A']]))).toBe(true);
    expect(drawsFromWikidata('infobox person', new Map([['fetchwikidata', 'ALL']]))).toBe(true);
    expect(drawsFromWikidata('infobox settlement', new Map([['population', '{{#property:P1082}}']]))).toBe(true);
    expect(drawsFromWikidata('infobox settlement', new Map([['population', ' ']]))).toBe(true);
    expect(drawsFromWikidata('infobox settlement', new Map([['population', '5']]))).toBe(false);
  });

  it('are not the empty closing or opening part of a box written in several templates (the English sample\'s Infobox animanga/Footer)', () => {
    expect(drawsFromWikidata('infobox animanga/footer', new Map())).toBe(false);
    expect(drawsFromWikidata('infobox animanga/header', new Map())).toBe(false);
    expect(drawsFromWikidata('infobox person/wikidata', new Map())).toBe(true);
  });

  it('are not boxes whose only values the size cap left out', () => {
    expect(drawsFromWikidata('infobox settlement', new Map(), 2)).toBe(false);
  });

});

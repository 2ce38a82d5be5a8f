import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Infobox } from '../../src/model.js';
import { extractInfoboxes, renderedWithoutWtf } from '../../src/parse/infobox.js';
import { firstParagraph } from '../../src/parse/leadParagraph.js';
import { RevisionParser } from '../../src/parse/parseRevision.js';
import { articleSentences } from '../../src/text/articleText.js';
import { sharedData } from '../../testkit/sharedData.js';

const wikitextDir = join(sharedData, 'wikitext');
const corpus = readdirSync(wikitextDir)
  .filter((name) => name.endsWith('.txt'))
  .sort()
  .map((name) => ({ name, text: readFileSync(join(wikitextDir, name), 'utf8') }));

function corpusText(name: string): string {
  const file = corpus.find((entry) => entry.name === name);
  if (file === undefined) throw new Error(`${name} is missing from ${wikitextDir}`);
  return file.text;
}

function only(infoboxes: Infobox[], template: string): Infobox {
  const matching = infoboxes.filter((infobox) => infobox.template === template);
  expect(matching.map((infobox) => infobox.template)).toEqual([template]);
  return matching[0] as Infobox;
}

function fieldsOf(infobox: Infobox): Record<string, string> {
  return Object.fromEntries(infobox.fields);
}

describe('extractInfoboxes on the real wikitext corpus', () => {
  it('has the corpus the data README describes', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    expect(corpus.filter((file) => /\{\{\s*infobox/i.test(file.text)).length).toBeGreaterThanOrEqual(60);
  });

  it.each(corpus.filter((file) => /\{\{\s*infobox/i.test(file.text)).map((file) => [file.name, file.text] as const))('%s has {{Infobox, so at least one infobox', (_name, text) => {
    expect(extractInfoboxes(text).length).toBeGreaterThan(0);
  });

  it.each(corpus.map((file) => [file.name, file.text] as const))('%s parses into clean template names, keys and values', (_name, text) => {
    const parsed = new RevisionParser().parse(text, { firstParagraph: true });
    for (const infobox of parsed.infoboxes) {
      expect(infobox.template).toMatch(/^[^\sA-Z_][^A-Z_]*$/u);
      for (const [key, value] of infobox.fields) {
        expect(key).toMatch(/^[^\sA-Z-]+$/u);
        // References, comments and citations never reach a value.
        expect(value).not.toMatch(/<ref|<\/ref>|<!--|\{\{\s*cite/i);
        expect(value).toBe(value.trim());
        expect(value).not.toMatch(/\s{2}|\n/);
      }
    }
    expect(typeof parsed.firstParagraph).toBe('string');
  });

  it('reads a settlement: name normalised, population kept, reference and comment removed', () => {
    const toronto = fieldsOf(only(extractInfoboxes(corpusText('toronto.txt')), 'settlement'));
    // The source value is `2,615,060<!-- … --> ([[List of … by population|1st]])<ref>…`.
    expect(toronto.population_total).toBe('2,615,060 (1st)');
    expect(toronto.name).toBe('Toronto');
    expect(toronto.leader_name).toBe('Rob Ford');
    expect(toronto.area_total_km2).toBe('630');
  });

  it('renders date templates to text and joins list templates, where a strip_code parser gives ""', () => {
    const [person, artist] = extractInfoboxes(corpusText('bob-marley.txt'));
    expect(person?.template).toBe('person');
    const fields = fieldsOf(person as Infobox);
    expect(fields.birth_date).toBe('February 6, 1945'); // {{birth date|1945|2|6|df=y}}
    expect(fields.death_date).toMatch(/1981/);
    expect(fields.occupation).toBe('Singer, musician, songwriter'); // {{flatlist| * Singer * musician * songwriter}}
    expect(fields.module).toBe(''); // held the embedded infobox, which comes out on its own
    expect(artist?.template).toBe('musical artist');
    expect(fieldsOf(artist as Infobox).genre).toBe('Reggae, ska, rocksteady, folk');
  });

  it('renders links to their text and keeps numbers with their formatting', () => {
    const club = fieldsOf(only(extractInfoboxes(corpusText('fc-copenhagen.txt')), 'football club'));
    expect(club.capacity).toBe('38,065');
    expect(club.manager).toBe('Ståle Solbakken');
    const building = fieldsOf(only(extractInfoboxes(corpusText('empire-state.txt')), 'building'));
    expect(building.architect).toBe('Shreve, Lamb and Harmon'); // [[Shreve, Lamb and Harmon]]
    expect(building.architectural).toBe('1250 ft'); // {{convert|1250|ft|m|1|abbr=on}}<ref name=… />
  });

  it('recognises a taxobox and keeps every infobox of a page in document order', () => {
    const taxobox = fieldsOf(only(extractInfoboxes(corpusText('Maurische-Netzwuhle.txt')), 'taxobox'));
    expect(taxobox.taxon_wissname).toBe('Blanus cinereus');
    expect(extractInfoboxes(corpusText('freddie-mercury.txt')).map((infobox) => infobox.template)).toEqual([
      'person',
      'religious biography',
      'musical artist',
    ]);
  });

  it('leaves out layout sub-boxes nested in a value, as wtf does', () => {
    const infoboxes = extractInfoboxes(corpusText('United-Kingdom.txt'));
    expect(infoboxes.map((infobox) => infobox.template)).toEqual(['country']);
    const country = fieldsOf(infoboxes[0] as Infobox);
    expect(country.capital).toBe('London');
    expect(country.leader_name2).toBe('Theresa May');
  });

  it('keeps the keys of an infobox whose closing braces are missing', () => {
    // The file ends inside the infobox: its last value is an unclosed {{plainlist.
    const character = fieldsOf(only(extractInfoboxes(corpusText('vader.txt')), 'character'));
    expect(character.creator).toBe('George Lucas');
    expect(character.portrayer).toMatch(/^Darth Vader:, David Prowse \(Episode IV-VI\), Bob Anderson/);
    expect(Object.keys(character)).toContain('voice');
  });
});

describe('RevisionParser reusing what it parsed lately', () => {
  it('gives every revision of the English history sample what a fresh parser gives, in history order, reversed, and each text twice', async () => {
    const { readDump } = await import('../../src/sources/dumpReader.js');
    const texts: string[] = [];
    for await (const event of readDump(createReadStream(join(sharedData, 'enwiki-history-sample.xml')))) {
      if (event.kind === 'revision' && event.revision.text !== null) texts.push(event.revision.text);
    }
    const fresh = texts.map((text, i) => new RevisionParser().parse(text, { firstParagraph: i % 2 === 0 }));
    const reused = new RevisionParser();
    expect(texts.map((text, i) => reused.parse(text, { firstParagraph: i % 2 === 0 }))).toEqual(fresh);
    const backwards = [...texts.keys()].reverse();
    expect(backwards.map((i) => reused.parse(texts[i]!, { firstParagraph: i % 2 === 0 }))).toEqual(backwards.map((i) => fresh[i]));
    // A text seen without its first paragraph, then asked for it (a baseline, then the same text inside the window).
    expect(texts.map((text) => reused.parse(text, { firstParagraph: true }).firstParagraph)).toEqual(texts.map((text) => firstParagraph(text)));
  }, 120_000);
});

describe('infobox values rendered without wtf', () => {
  it('renders every plain-link value of the corpus and the English sample as wtf renders it', async () => {
    const { readDump } = await import('../../src/sources/dumpReader.js');
    const { parseWithWtf } = await import('../../src/text/wtf.js');
    const { toCleanText } = await import('../../src/parse/infobox.js');
    const texts = corpus.map((file) => file.text);
    for await (const event of readDump(createReadStream(join(sharedData, 'enwiki-history-sample.xml')))) {
      if (event.kind === 'revision' && event.revision.text !== null) texts.push(event.revision.text);
    }
    const values = new Set<string>();
    for (const text of texts) for (const [, value] of text.matchAll(/^\s*\|[^=\n]*=([^\n]*\[\[[^\n]*)$/gm)) values.add((value as string).trim());
    const plain = [...values].filter((value) => renderedWithoutWtf(value) !== null);
    expect(plain.length).toBeGreaterThan(500);
    const viaWtf = (value: string) => toCleanText(parseWithWtf(`{{Infobox check\n|v=${value}\n}}`).infoboxes()[0]?.data['v']?.text() ?? '');
    expect(plain.filter((value) => toCleanText(renderedWithoutWtf(value) as string) !== viaWtf(value))).toEqual([]);
    // Links with a namespace, a section, a blank or padded part, or other markup are left to wtf.
    for (const value of ['[[Category:X]]', '[[A#B|c]]', '[[ A ]]', '[[A|]]', "[[A|''b'']]", '[[A|b|c]]', 'a -- b [[c]]']) expect(renderedWithoutWtf(value)).toBeNull();
  }, 120_000);
});

describe('firstParagraph on real articles', () => {
  it('returns the first paragraph of real articles, skipping hatnotes, the infobox and images', () => {
    expect(firstParagraph(corpusText('toronto.txt'))).toMatch(
      /^Toronto is the most populous city in Canada and the provincial capital of Ontario\. It is located in Southern Ontario/,
    );
    expect(firstParagraph(corpusText('bob-marley.txt'))).toMatch(/^Robert Nesta Marley \(6 February 1945 .+ was a Jamaican singer/);
    expect(firstParagraph(corpusText('United-Kingdom.txt'))).toMatch(
      /^The United Kingdom of Great Britain and Northern Ireland, commonly known as the United Kingdom \(UK\)/,
    );
    expect(firstParagraph(corpusText('fiorentina.txt'))).toMatch(/^ACF Fiorentina S\.p\.A\., commonly referred to as simply Fiorentina/);
  });

  it('is "" for an article with no text before its first heading', () => {
    expect(firstParagraph(corpusText('dublin.txt'))).toBe(''); // the file holds only the infobox
  });
});

describe('Wikidata-driven infoboxes in the frwiki sample', () => {
  it("flags the frwiki sample's Infobox Biographie2, which has no parameter of its own", () => {
    const xml = readFileSync(join(sharedData, 'frwiki-history-sample.xml'), 'utf8');
    const revision = /\{\{Infobox Biographie2\}\}[\s\S]*?<\/text>/.exec(xml)?.[0] ?? '';
    expect(extractInfoboxes(revision)).toEqual([{ template: 'biographie2', fields: [], fromWikidata: true }]);
  });
});

describe('article text of a real article', () => {
  it('reads a real article of the shared corpus without losing its lead', () => {
    const text = readFileSync(join(sharedData, 'api-responses', 'Copper.section0.2021-08-15.wikitext'), 'utf8');
    const sentences = articleSentences(text);
    expect(sentences.length).toBeGreaterThan(10);
    expect(sentences[0]?.text).toMatch(/^Copper is a chemical element with the symbol Cu/);
    expect(sentences.every((s) => !/<ref|\{\{|\}\}/.test(s.text))).toBe(true);
  });
});

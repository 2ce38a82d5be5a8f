import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Infobox } from '../../src/model.js';
import { extractInfoboxes, renderedWithoutWtf } from '../../src/parse/infobox.js';
import { firstParagraph } from '../../src/parse/leadParagraph.js';
import { RevisionParser } from '../../src/parse/parseRevision.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const wikitextDir = resolve(repoRoot, '../shared/data/wikitext');
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

describe('extractInfoboxes on written cases', () => {
  const parseOne = (wikitext: string): Record<string, string> => {
    const infoboxes = extractInfoboxes(wikitext);
    expect(infoboxes).toHaveLength(1);
    return fieldsOf(infoboxes[0] as Infobox);
  };

  it('normalises template names and keys, keeps order, lets the last duplicate win and keeps empty values', () => {
    const [infobox] = extractInfoboxes(
      '{{Infobox_football   Biography\n| Full-Name = A\n| current club = B\n| position= C\n| current_club = D\n|  = stray\n| empty =\n}}',
    );
    expect(infobox).toEqual({
      template: 'football biography',
      fields: [
        ['full_name', 'A'],
        ['current_club', 'D'],
        ['position', 'C'],
        ['empty', ''],
      ],
    });
  });

  it('recognises taxoboxes, speciesboxes, chemboxes, drugboxes and "X infobox" names, not other templates', () => {
    const text = [
      '{{Taxobox | name = Cat }}',
      '{{Automatic taxobox | taxon = Felis }}',
      '{{Speciesbox | genus = Felis | species = catus }}',
      '{{Chembox | Name = Water }}',
      '{{Drugbox | drug_name = Aspirin }}',
      '{{Aircraft infobox | name = Spitfire }}',
      '{{Infobox | title = Generic }}',
      '{{Cite web | title = Not an infobox }}',
      '{{Navbox | name = Not one either }}',
    ].join('\n');
    expect(extractInfoboxes(text).map((infobox) => infobox.template)).toEqual([
      'taxobox',
      'automatic taxobox',
      'speciesbox',
      'chembox',
      'drugbox',
      'aircraft infobox',
      'infobox',
    ]);
  });

  it('cleans values: references, efn and citation templates removed, <br> and lists joined, templates rendered', () => {
    const fields = parseOne(
      [
        '{{Infobox company',
        '| revenue = {{increase}} {{US$|79.6&nbsp;billion}} (2019)<ref name="10-K">{{cite web|url=http://x|title=10-K}}</ref>',
        '| founded = {{Start date and age|1911|06|16}}<ref name=a/>',
        '| key_people = [[Arvind Krishna]] (CEO)<br />[[Ginni Rometty]]<br> (Chairman){{efn|Until 2020.}}',
        '| products = {{hlist|[[Cloud computing|Cloud]]|[[Artificial intelligence|AI]]|Hardware}}',
        '| services = {{ubl|Consulting|Hosting}}',
        '| industry = {{plainlist|\n* [[Computer hardware]]\n* [[Software]]\n}}',
        '| divisions =\n* One\n* Two{{refn|group=n|A note}}',
        '| employees = {{formatnum:352600}} {{small|(2019)}}',
        '| area = {{nowrap|12 km}}',
        '| owner = <!-- nobody -->',
        '}}',
      ].join('\n'),
    );
    expect(fields).toEqual({
      revenue: 'US$79.6 billion (2019)',
      founded: 'June 16, 1911',
      key_people: 'Arvind Krishna (CEO), Ginni Rometty (Chairman)',
      products: 'Cloud, AI, Hardware',
      services: 'Consulting, Hosting',
      industry: 'Computer hardware, Software',
      divisions: 'One, Two',
      employees: '352,600 (2019)',
      area: '12 km',
      owner: '',
    });
  });

  it('does not split at the | of links, nested templates, {{!}}, references or <nowiki>', () => {
    const fields = parseOne(
      '{{Infobox person|name=[[Angela Merkel|Merkel]]|spouse={{marriage|[[Joachim Sauer]]|1998}}|motto=a{{!}}b' +
        "|note=x<ref>a | b</ref>|code=<nowiki>{{x|y}} '''b''' [[c]] a=b &amp;</nowiki>|died={{death date and age|2010|1|2|1920|3|4}}}}",
    );
    expect(fields).toEqual({
      name: 'Merkel',
      spouse: 'Joachim Sauer (m. 1998)',
      motto: 'a|b',
      note: 'x',
      code: "{{x|y}} '''b''' [[c]] a=b &",
      died: 'January 2, 2010',
    });
  });

  it('extracts an infobox nested in another one separately and leaves "" in the parent', () => {
    const infoboxes = extractInfoboxes(
      '{{Infobox person\n| name = Bob\n| module = {{Infobox musical artist\n | embed = yes\n | genre = [[Reggae]]\n }}\n| spouse = Rita\n}}',
    );
    expect(infoboxes).toEqual([
      { template: 'person', fields: [['name', 'Bob'], ['module', ''], ['spouse', 'Rita']] },
      { template: 'musical artist', fields: [['embed', 'yes'], ['genre', 'Reggae']] },
    ]);
  });

  it('degrades gracefully on malformed wikitext', () => {
    // An unclosed infobox ends at its last line starting with }} or at the next heading.
    expect(extractInfoboxes('{{Infobox person\n| name = A\n| born = 1950\n\n== Life ==\nText {{cn}}.')).toEqual([
      { template: 'person', fields: [['name', 'A'], ['born', '1950']] },
    ]);
    // An unclosed template inside costs its own value only.
    const [broken] = extractInfoboxes('{{Infobox person\n| born = {{birth date|1950|1|2}\n| name = A\n| spouse = B\n}}\nText.');
    expect(broken?.template).toBe('person');
    expect(fieldsOf(broken as Infobox)).toMatchObject({ name: 'A', spouse: 'B' });
    expect(fieldsOf(broken as Infobox).born).toContain('1950');
    // A stray }} before, or an unclosed {{ of another template, do not hide the infobox.
    expect(extractInfoboxes('}} {{About|x|y}\n{{Infobox person|name=A}}\n}}').map(fieldsOf)).toEqual([{ name: 'A' }]);
    // An unclosed <ref> loses the rest of its line, not the following parameters.
    expect(extractInfoboxes('{{Infobox person\n| name = A<ref>{{cite web|url=x}}\n| born = 1950\n}}').map(fieldsOf)).toEqual([
      { name: 'A', born: '1950' },
    ]);
    // An unclosed link costs its own line.
    expect(extractInfoboxes('{{Infobox person\n| name = [[A\n| born = 1950\n}}').map(fieldsOf)).toEqual([{ name: '[[A', born: '1950' }]);
    // Empty and degenerate infoboxes: with no value of their own, they fill themselves from Wikidata.
    expect(extractInfoboxes('{{Infobox person}}')).toEqual([{ template: 'person', fields: [], fromWikidata: true }]);
    expect(extractInfoboxes('{{Infobox person|}}')).toEqual([{ template: 'person', fields: [], fromWikidata: true }]);
    expect(extractInfoboxes('{{Infobox')).toEqual([{ template: 'infobox', fields: [], fromWikidata: true }]);
    // Fragments and junk give no infobox and no paragraph rather than an error.
    for (const text of ['', '{{', '}}', '{{{{{{', '[[[[', '<ref>', '<!--', '\u0000\u001e\u0011']) {
      expect(new RevisionParser().parse(text, { firstParagraph: true }), JSON.stringify(text)).toEqual({ infoboxes: [], firstParagraph: '' });
    }
    // An infobox whose value never closes still gives its template and key.
    expect(new RevisionParser().parse('{{Infobox x|a=<nowiki>', { firstParagraph: true })).toEqual({ infoboxes: [{ template: 'x', fields: [['a', '']] }], firstParagraph: '' });
    expect(extractInfoboxes('{{Infobox x|a={{{1}}}}}').map((infobox) => [infobox.template, infobox.fields.map(([key]) => key)])).toEqual([['x', ['a']]]);
  });

  it('stays linear on text made of thousands of broken or nested infoboxes', () => {
    const unclosed = extractInfoboxes('{{Infobox x\n| a = b\n'.repeat(2000));
    expect(unclosed).toHaveLength(2000);
    expect(unclosed.every((infobox) => infobox.fields.length === 1 && infobox.fields[0]?.[1] === 'b')).toBe(true);
    const nested = extractInfoboxes('{{Infobox x|a=1|b='.repeat(500) + '}}'.repeat(500));
    expect(nested).toHaveLength(500);
    expect(nested[0]?.fields).toEqual([['a', '1'], ['b', '']]);
    const deepValue = extractInfoboxes(`{{Infobox x|a=${'{{nowrap|'.repeat(1000)}x${'}}'.repeat(1000)}|b=c}}`);
    expect(fieldsOf(deepValue[0] as Infobox).b).toBe('c');
    for (const text of ['{{'.repeat(50_000), '}}'.repeat(50_000), '{{a}}'.repeat(50_000), '<nowiki>'.repeat(20_000), '<!--'.repeat(20_000), 'a b. '.repeat(30_000)]) {
      expect(new RevisionParser().parse(text, { firstParagraph: true }).infoboxes).toEqual([]);
    }
    expect(firstParagraph(`'''X''' is${' {{convert|1|km}}'.repeat(20_000)}`)).toMatch(/^X is 1 km 1 km/);
  });

  it('keeps unnamed parameters under their position', () => {
    expect(extractInfoboxes('{{Infobox x|first|a=1|second}}').map(fieldsOf)).toEqual([{ 1: 'first', a: '1', 2: 'second' }]);
  });
});

describe('firstParagraph', () => {
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

  it('is "" for an article with no text before its first heading, and stops at that heading', () => {
    expect(firstParagraph(corpusText('dublin.txt'))).toBe(''); // the file holds only the infobox
    expect(firstParagraph('{{Infobox x|a=b}}\n== History ==\nLater text.')).toBe('');
  });

  it('skips standalone templates and hand-written hatnotes but renders inline ones', () => {
    const text = [
      '{{Short description|German politician}}{{Use dmy dates|date=May 2020}}',
      '{{About|the politician|other uses|Merkel (disambiguation)}}',
      ":''Not to be confused with Merkle.''",
      '{{Infobox officeholder',
      '| name = Angela Merkel',
      '}}',
      '[[File:Angela Merkel 2019.jpg|thumb|Merkel in 2019]]',
      '',
      "'''Angela Merkel''' (born {{birth date|1954|7|17}}) is a [[Germany|German]] politician.<ref>x</ref>",
      '',
      'Second paragraph.',
      '== Early life ==',
      'Body.',
    ].join('\n');
    expect(firstParagraph(text)).toBe('Angela Merkel (born July 17, 1954) is a German politician.');
  });

  it('is computed by the parser only when asked', () => {
    const text = "{{Infobox person|name=A}}\n'''A''' is a person.";
    expect(new RevisionParser().parse(text)).toEqual({ infoboxes: [{ template: 'person', fields: [['name', 'A']] }], firstParagraph: '' });
    expect(new RevisionParser().parse(text, { firstParagraph: true }).firstParagraph).toBe('A is a person.');
  });
});

describe('RevisionParser reusing what it parsed lately', () => {
  it('gives every revision of the English history sample what a fresh parser gives, in history order, reversed, and each text twice', async () => {
    const { readDump } = await import('../../src/sources/dumpReader.js');
    const texts: string[] = [];
    for await (const event of readDump(createReadStream(join(repoRoot, '../shared/data/enwiki-history-sample.xml')))) {
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
    for await (const event of readDump(createReadStream(join(repoRoot, '../shared/data/enwiki-history-sample.xml')))) {
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

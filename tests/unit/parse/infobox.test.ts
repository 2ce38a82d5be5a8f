import { describe, expect, it } from 'vitest';
import type { Infobox } from '../../../src/model.js';
import { extractInfoboxes } from '../../../src/parse/infobox.js';
import { firstParagraph } from '../../../src/parse/leadParagraph.js';
import { RevisionParser } from '../../../src/parse/parseRevision.js';

function fieldsOf(infobox: Infobox): Record<string, string> {
  return Object.fromEntries(infobox.fields);
}

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

  it('writes film and release dates as text at the precision given, where the parser it builds on leaves them blank', () => {
    const [film] = extractInfoboxes(
      '{{Infobox film\n| released = {{film date|2025|1|10|df=y}}\n| premiere = {{Film date|2024|09|06|[[Toronto International Film Festival|TIFF]]|2025|01|10|United States}}\n' +
        '| year = {{film date|2025}}\n| month = {{release date|2025|3}}\n| us = {{Release date|2025|3|7}}\n| odd = {{film date|soon|x}}\n}}',
    );
    expect(Object.fromEntries(film!.fields)).toEqual({
      released: '10 January 2025',
      premiere: 'September 6, 2024 (TIFF), January 10, 2025 (United States)',
      year: '2025',
      month: 'March 2025',
      us: 'March 7, 2025',
      odd: '',
    });
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
  it('is "" for an article with no text before its first heading, and stops at that heading', () => {
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

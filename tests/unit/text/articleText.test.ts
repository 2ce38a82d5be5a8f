import { describe, expect, it } from 'vitest';
import { articleSentences, isRedirectText } from '../../../src/text/articleText.js';
import { withCode } from '../../support/errorCodes.js';

const WIKITEXT = `{{Short description|Port city}}
{{Infobox settlement|name=Port Aldwin|population_total=418,950<ref>Census 2024</ref>}}
'''Port Aldwin''' is a port city<ref>{{cite web|title=Atlas|url=https://example.org}}</ref> in [[Caldrossa|the Republic of Caldrossa]]. It has 3.5 million people.<ref name="census"/>

== History ==
Dr. Ines Albrecht founded the harbour in 1901. The U.S. Navy visited in 1944.

=== Albums ===
* ''First Light'' (2011)
* ''Tidewater'' (2014)

{| class="wikitable"
| a || b
|}

== References ==
{{reflist}}
* Smith, J. (2020). ''A history''.
`;

describe('articleSentences', () => {
  it('keeps the prose in order, one paragraph per block, lists as items, without references, templates or back matter', () => {
    const sentences = articleSentences(WIKITEXT);
    expect(sentences.map((s) => [s.paragraph, s.text])).toEqual([
      [0, 'Port Aldwin is a port city in the Republic of Caldrossa.'],
      [0, 'It has 3.5 million people.'],
      [1, 'Dr. Ines Albrecht founded the harbour in 1901.'],
      [1, 'The U.S. Navy visited in 1944.'],
      [2, 'First Light (2011)'],
      [2, 'Tidewater (2014)'],
    ]);
    expect(sentences.map((s) => s.index)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("keeps the dashes and spaces of typographic templates between numbers, which wtf_wikipedia alone drops ('20092014')", () => {
    const text = (wikitext: string) => articleSentences(wikitext).map((s) => s.text);
    expect(text('Sales grew over the 2009{{endash}}2014 period.')).toEqual(['Sales grew over the 2009–2014 period.']);
    expect(text('The crust is 7{{nbsp}}km thick{{emdash}}or less.')).toEqual(['The crust is 7 km thick—or less.']);
    expect(text('Madrid{{spaced en dash}}Paris, and Rome{{dash}}Milan.')).toEqual(['Madrid – Paris, and Rome – Milan.']);
  });

  it('recognises redirects', () => {
    expect(isRedirectText('#REDIRECT [[Glass Orchard (band)]]')).toBe(true);
    expect(isRedirectText('Glass Orchard is a band.')).toBe(false);
  });
});

describe('articleSentences on templates nested too deep', () => {
  it('names the depth in an InputError instead of handing wtf thousands of levels', () => {
    expect(() => articleSentences('Text ' + '{{a|'.repeat(3000) + '}}'.repeat(3000))).toThrow(withCode('E_WIKITEXT_TOO_DEEP'));
  });
  it('drops inline file links (flag icons, ribbons) from list items instead of keeping their file names', () => {
    const wikitext = `Intro text here.

== Honours ==
* [[File:Flag of Saudi Arabia.svg|23x15px|border|link=|alt=]]&nbsp;[[Saudi Arabia]]: Grand Officer of the [[Order of Abdulaziz al Saud]]
**[[Image:SA Order of King Abdulaziz 3kl rib.png|70px]] Grand Officer of the [[Order of Abdulaziz al Saud]]
`;
    expect(articleSentences(wikitext).map((s) => s.text)).toEqual([
      'Intro text here.',
      'Saudi Arabia: Grand Officer of the Order of Abdulaziz al Saud',
      'Grand Officer of the Order of Abdulaziz al Saud',
    ]);
  });
  it('keeps the text of inline code, teletype and abbreviation markup, which wtf_wikipedia drops or leaves as tags', () => {
    expect(articleSentences('It is one file with the extension <code>.qsd</code>. Type <tt>make</tt> to build the <abbr title="North Atlantic Treaty Organization">NATO</abbr> map.').map((s) => s.text)).toEqual([
      'It is one file with the extension .qsd.',
      'Type make to build the NATO map.',
    ]);
  });
});

/**
 * A synthetic history dump of many small towns for tests and benchmarks that need a week of many
 * questions: each town has a revision before the week and one inside it whose population changed,
 * so every page makes a data unit. Titles and first paragraphs share a small vocabulary, as a
 * week's pages share their words, so a search over them meets common terms.
 */
const WORDS = ['river', 'harbour', 'castle', 'museum', 'valley', 'bridge', 'forest', 'tower', 'market', 'garden', 'mill', 'abbey', 'station', 'lake', 'hill', 'port', 'field', 'stone', 'green', 'north'];

function word(index: number): string {
  return WORDS[index % WORDS.length] as string;
}

function revision(id: number, timestamp: string, title: string, population: number, i: number): string {
  const text = [
    '{{Infobox settlement',
    `| name = ${title}`,
    `| population_total = ${population}`,
    `| leader_name = Mayor ${word(i * 3)} ${i}`,
    `| area_km2 = ${i % 97}`,
    '}}',
    `'''${title}''' is a town near the ${word(i * 5)} ${word(i * 11)} with a population of ${population} people. It is known for its ${word(i * 13)}.`,
  ].join('\n');
  return `<revision><id>${id}</id><timestamp>${timestamp}</timestamp><contributor><username>A</username><id>1</id></contributor><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">${text}</text></revision>`;
}

/** `towns` pages whose population changed on 2021-01-05, the week starting 2021-01-04. */
export function townDump(towns: number): string {
  const pages: string[] = [];
  for (let i = 0; i < towns; i++) {
    const title = `Town ${word(i)} ${word(i * 7)} ${i}`;
    pages.push(
      `<page><title>${title}</title><ns>0</ns><id>${i + 1}</id>${revision(2 * i + 1, '2020-12-01T00:00:00Z', title, 100 + i, i)}${revision(2 * i + 2, '2021-01-05T00:00:00Z', title, 200 + i, i)}</page>`,
    );
  }
  return `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11">\n${pages.join('\n')}\n</mediawiki>\n`;
}

export const TOWN_WEEK_START = '2021-01-04';

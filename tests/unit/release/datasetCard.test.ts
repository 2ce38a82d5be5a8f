import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { cardFrontMatter, factsMadeFrom, factSource, licenceSection } from '../../../src/release/datasetCard.js';

describe("a release card's source and licence", () => {
  it("is Wikipedia's CC BY-SA when any fact is Wikipedia's (or imported from DailyQA), Wikidata's CC0 only when every fact is Wikidata's", () => {
    expect(factSource(['Infobox settlement', null])).toBe('wikipedia');
    expect(factSource(['wikibase-item', 'wikibase-item'])).toBe('wikidata');
    expect(factSource(['wikibase-item', 'Infobox person'])).toBe('both');
    expect(factSource([null, 'wikibase-item'])).toBe('both');
    const licence = (source: ReturnType<typeof factSource>) => (parseYaml(cardFrontMatter({ prettyName: 'r', license: source, language: ['en'], taskCategories: ['question-answering'], taskIds: [], configs: [] }).split('---')[1] ?? '') as { license: string }).license;
    expect([licence('wikipedia'), licence('wikidata'), licence('both')]).toEqual(['cc-by-sa-4.0', 'cc0-1.0', 'cc-by-sa-4.0']);
    expect(factsMadeFrom('both')).toBe('the Wikipedia infobox values and Wikidata statements');
    expect(licenceSection('both')).toMatch(/CC BY-SA 4\.0[\s\S]*read from Wikidata come from Wikidata[\s\S]*CC0 1\.0[\s\S]*the release as a whole is CC BY-SA 4\.0\.\n$/);
    expect(licenceSection('wikipedia')).not.toContain('Wikidata');
  });
});

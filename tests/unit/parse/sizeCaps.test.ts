import { describe, expect, it } from 'vitest';
import { MAX_VALUE_CHARS } from '../../../src/parse/infobox.js';
import { RevisionParser } from '../../../src/parse/parseRevision.js';

const filler = (chars: number) => 'lorem ipsum [[dolor]] sit {{nowrap|amet}}, '.repeat(Math.ceil(chars / 42)).slice(0, chars);

describe('the size cap of infobox values', () => {
  it('leaves out a value over the cap with its key, named, and parses the rest', () => {
    const big = filler(MAX_VALUE_CHARS * 4);
    const text = `{{Infobox settlement\n| name = Port Aldwin\n| a = ${big}\n| b = ${big}\n| c = ${big}\n| population_total = 418,950\n}}\n'''Port Aldwin''' is a port.`;
    const parser = new RevisionParser();
    const parsed = parser.parse(text, { firstParagraph: true });
    expect(parsed.infoboxes).toEqual([{ template: 'settlement', fields: [['name', 'Port Aldwin'], ['population_total', '418,950']] }]);
    expect(parsed.leftOut).toEqual(
      ['a', 'b', 'c'].map((key) => `value ${key} of template infobox settlement: ${big.length + 2} characters, more than the ${MAX_VALUE_CHARS} a value may hold`),
    );
    expect(parsed.firstParagraph).toBe('Port Aldwin is a port.');
    // A repeat costs a lookup (a null edit, a revert), and what was left out is named again: its revision has the same holes.
    expect(parser.parse(text).leftOut).toEqual(parsed.leftOut);
    expect(parser.parse(`${text}\nMore.`).leftOut).toEqual(parsed.leftOut);
  });

  it('does not take a box whose only values were left out for one filled from Wikidata', () => {
    const [infobox] = new RevisionParser().parse(`{{Infobox settlement\n| a = ${filler(MAX_VALUE_CHARS + 1)}\n}}`).infoboxes;
    expect(infobox).toEqual({ template: 'settlement', fields: [] });
  });

  it('leaves nothing out of an ordinary revision', () => {
    expect(new RevisionParser().parse('{{Infobox person\n| name = Ada\n| born = 1815\n}}\nAda.').leftOut).toBeUndefined();
  });
});

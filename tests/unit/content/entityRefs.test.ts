import { describe, expect, it } from 'vitest';
import { idsOfFact, namedInfobox, pageName, renderValue } from '../../../src/content/entityRefs.js';
import type { EntityName } from '../../../src/model.js';

describe('idsOfFact: the ids the labels stage names and select requires named', () => {
  it('is the key when it is a property, then the entities the value references, each once', () => {
    expect(idsOfFact('P39', '{{Q11696}}; {{Q30}}; {{Q11696}}')).toEqual(['P39', 'Q11696', 'Q30']);
    expect(idsOfFact('P1082', '334002')).toEqual(['P1082']);
    expect(idsOfFact('P2046', '258.82 {{Q712226}}')).toEqual(['P2046', 'Q712226']);
  });

  it('names no id for an infobox key, nor for a string shaped like an id that is no reference', () => {
    expect(idsOfFact('population_total', '{{Q183}}')).toEqual(['Q183']);
    expect(idsOfFact('leader', 'Q183')).toEqual([]);
    expect(idsOfFact('P1824', 'M25')).toEqual(['P1824']);
  });
});

describe('namedInfobox: a stored fact set as people read it', () => {
  it('reads every name it needs at once, the values beside the fields included, and keeps unnamed ids', () => {
    const known = new Map<string, EntityName>([
      ['P17', { label: 'country', aliases: [] }],
      ['Q183', { label: 'Germany', aliases: ['FRG'] }],
      ['Q30', { label: 'United States', aliases: [] }],
    ]);
    const reads: string[][] = [];
    const source = { names: (ids: readonly string[]) => (reads.push([...ids]), new Map([...known].filter(([id]) => ids.includes(id)))) };
    const named = namedInfobox([['P17', '{{Q183}}; {{Q999}}'], ['P1082', '334002'], ['population_total', '{{Q183}}']], source, ['{{Q30}}']);
    expect(reads).toEqual([['P17', 'Q183', 'Q999', 'P1082', 'Q30']]);
    expect(named.values).toEqual({ P17: 'Germany; Q999', P1082: '334002', population_total: 'Germany' });
    expect(named.keyLabels).toEqual({ P17: 'country' });
    expect(renderValue('{{Q30}}', named.names).text).toBe('United States');
  });
});

describe('renderValue: the aliases of a value are other names of the whole value', () => {
  const names = new Map<string, EntityName>([
    ['Q183', { label: 'Germany', aliases: ['FRG'] }],
    ['Q142', { label: 'France', aliases: ['French Republic'] }],
    ['Q712226', { label: 'square kilometre', aliases: ['km2'] }],
  ]);
  const lookup = (id: string) => names.get(id);

  it("are the entity's aliases when the value is that one entity, and none when it names several or one beside other text", () => {
    // Scoring takes the best over a value and its aliases: "FRG" must not answer "Germany; France", nor "km2" an area.
    expect(renderValue(' {{Q183}} ', lookup).aliases).toEqual(['FRG']);
    expect(renderValue('{{Q183}}; {{Q142}}', lookup)).toEqual({ text: 'Germany; France', aliases: [], unresolved: [] });
    expect(renderValue('258.82 {{Q712226}}', lookup)).toEqual({ text: '258.82 square kilometre', aliases: [], unresolved: [] });
  });
});

describe("pageName: the one rule of a data unit's title and a golden document's", () => {
  it("is the entity's English label, else the page's title (an article, or an entity without a label)", () => {
    expect(pageName({ label: 'Bielefeld' }, 'Q2112')).toBe('Bielefeld');
    expect(pageName({ label: null }, 'Q2112')).toBe('Q2112');
    expect(pageName(undefined, 'Karlsruhe')).toBe('Karlsruhe');
  });
});

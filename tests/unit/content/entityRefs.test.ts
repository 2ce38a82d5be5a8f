import { describe, expect, it } from 'vitest';
import { idsOfFact } from '../../../src/content/entityRefs.js';

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

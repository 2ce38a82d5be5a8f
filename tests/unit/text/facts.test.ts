import { describe, expect, it } from 'vitest';
import { HeuristicNli } from '../../../src/models/heuristicNli.js';
import { nliLabel } from '../../../src/models/nli.js';
import { describeFactDifference, factDifference, factsOf, sameFacts } from '../../../src/text/facts.js';

/** Pairs that change a fact while the rest of the wording stays: the examples, then the project's own. */
const CHANGED: Array<[string, string]> = [
  ['The observatory operates three optical telescopes.', 'The observatory operates four optical telescopes.'],
  ['The canal is 5 kilometres long.', 'The canal is 5 miles long.'],
  ['It is the second longest tunnel in the Alps.', 'It is the longest tunnel in the Alps.'],
  ['Its chief executive is Dana Holt.', 'Its chief executive is Victor Lam.'],
  ['It has two branches.', 'It has three branches.'],
  ['The choir has a dozen members.', 'The choir has eleven members.'],
  ['The fair is held every June.', 'The fair is held every September.'],
  ['The club did not reach the final.', 'The club reached the final.'],
  ['The museum moved to Leeds.', 'The museum moved to Bristol.'],
  ['The ferry is operated by Stena Line.', 'The ferry is operated by Brittany Ferries.'],
  ['It was the first school in the county to admit girls.', 'It was the third school in the county to admit girls.'],
  ['The bridge is taller than the cathedral.', 'The bridge is shorter than the cathedral.'],
  ['It was a nonstop flight.', 'It was a stop flight.'],
];

const SAME: Array<[string, string]> = [
  ['The bridge opened in 1995 and is 300 m long.', 'The bridge, 300 m long, opened in 1995.'],
  ['In 1962 a ferry service to the islands began.', 'A ferry service to the islands began in 1962.'],
  ['The observatory operates three optical telescopes.', 'Three optical telescopes are operated by the observatory.'],
  // A number in digits and in words is one fact, not a digit token on top of the number.
  ['The line has three stations.', 'The line has 3 stations.'],
  ['The club has 12 members.', 'The club has twelve members.'],
  // A contraction is the same negation as its spelt-out form (Wikipedia's copy-edits expand them).
  ["He moved to Weimar but didn't live with his mother.", 'He moved to Weimar but did not live with his mother.'],
  ["They wouldn't get along very well.", 'They would not get along very well.'],
  // A possessive names the same person as the plain name ("Kant's project" / "the project of Kant").
  ['It was up to those loyal to the project of Kant to prove this.', "It was up to those loyal to Kant's project to prove this."],
  ["He found the lectures of Fichte tedious.", "He found Fichte’s lectures tedious."],
  ['The idea he borrowed was that of Kant.', "The idea he borrowed was Kant's."],
  ['Berlin is one of the 16 constituent states of Germany.', "Berlin is one of Germany's 16 constituent states."],
  // A copy-edit of spelling (a hyphen after "non" or before "most", an initialism's points) is no new fact.
  ['There are more than 20 non-indigenous communities.', 'There are more than 20 nonindigenous communities.'],
  ['It hosts many non-profit organizations.', 'It hosts many nonprofit organizations.'],
  ['The water in the northern-most North Atlantic is cold.', 'The water in the northernmost North Atlantic is cold.'],
  ['The episode never aired in the US.', 'The episode never aired in the U.S.'],
];

describe('facts of a sentence', () => {
  it('reads number words, ordinals and quantity words as numbers', () => {
    expect(factsOf('It operates three telescopes.')).toContainEqual({ kind: 'number', value: '3' });
    expect(factsOf('It is the second longest tunnel.')).toContainEqual({ kind: 'ordinal', value: '2' });
    expect(factsOf('It is the 2nd longest tunnel.')).toContainEqual({ kind: 'ordinal', value: '2' });
    expect(factsOf('It has a dozen branches.')).toContainEqual({ kind: 'number', value: '12' });
  });

  it('reads units, months, names, negations and comparison words', () => {
    expect(factsOf('The canal is 5 kilometres long.')).toContainEqual({ kind: 'unit', value: 'kilometres' });
    expect(factsOf('The fair is held every June.')).toContainEqual({ kind: 'date', value: 'june' });
    expect(factsOf('Its chief executive is Dana Holt.')).toContainEqual({ kind: 'person', value: 'dana holt' });
    expect(factsOf('The museum moved to Leeds.')).toContainEqual({ kind: 'place', value: 'leeds' });
    expect(factsOf('The club did not reach the final.')).toContainEqual({ kind: 'negation', value: 'not' });
    expect(factsOf("The club didn't reach the final.")).toContainEqual({ kind: 'negation', value: 'not' });
    expect(factsOf('It is the longest tunnel.')).toContainEqual({ kind: 'comparison', value: 'longest' });
  });

  it.each(CHANGED)('"%s" → "%s": the facts differ', (oldText, newText) => {
    expect(sameFacts([oldText], [newText])).toBe(false);
    expect(describeFactDifference(factDifference(oldText, newText))).toMatch(/^facts differ: /);
  });

  it.each(SAME)('"%s" → "%s": the same facts', (oldText, newText) => {
    expect(sameFacts([oldText], [newText])).toBe(true);
    expect(describeFactDifference(factDifference(oldText, newText))).toBe('');
  });

  it("reads the amount after a currency code glued to its sign ('US$8 billion' is 8 billion, not 1 billion)", () => {
    expect(factsOf('It reported a US$8 billion loss.')).toContainEqual({ kind: 'number', value: '8000000000' });
    expect(factDifference('It reported a US$8 billion loss.', 'It reported a US$9 billion loss.')).toMatchObject({ onlyOld: expect.arrayContaining(['number:8000000000']), onlyNew: expect.arrayContaining(['number:9000000000']) });
  });

  it('names what differs, on each side', () => {
    expect(factDifference('It has two branches.', 'It has three branches.')).toEqual({ onlyOld: ['number:2'], onlyNew: ['number:3'] });
    expect(factDifference('It is the second longest tunnel.', 'It is the longest tunnel.').onlyOld).toContain('ordinal:2');
  });
});

describe('the heuristic NLI reads facts', () => {
  const nli = new HeuristicNli();

  it.each(CHANGED)('"%s" → "%s" contradicts, both ways, and never entails', async (oldText, newText) => {
    const [forward, backward] = await nli.classify([
      { premise: oldText, hypothesis: newText },
      { premise: newText, hypothesis: oldText },
    ]);
    expect(nliLabel(forward!)).toBe('contradiction');
    expect(nliLabel(backward!)).toBe('contradiction');
  });

  it('entails a restatement with the same facts', async () => {
    const [scores] = await nli.classify([{ premise: 'A ferry service to the islands began in 1962.', hypothesis: 'In 1962 a ferry service to the islands began.' }]);
    expect(nliLabel(scores!)).toBe('entailment');
  });
});

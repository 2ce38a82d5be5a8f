import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../../src/text/sentences.js';

describe('splitSentences', () => {
  it.each([
    ['abbreviations before names', 'Dr. Ines Albrecht met Mr. Cole at St. Mary\'s. They spoke.', ["Dr. Ines Albrecht met Mr. Cole at St. Mary's.", 'They spoke.']],
    ['dotted acronyms inside a sentence', 'The U.S. Army and the U.N. Council agreed. Talks ended.', ['The U.S. Army and the U.N. Council agreed.', 'Talks ended.']],
    ['a dotted acronym ending a sentence', 'It moved to the U.S. The move was costly.', ['It moved to the U.S.', 'The move was costly.']],
    ['company suffixes', 'Acme Inc. Holdings bought it. Later it was sold to Brill Ltd. The price was low.', ['Acme Inc. Holdings bought it.', 'Later it was sold to Brill Ltd.', 'The price was low.']],
    ['No. before a number', 'It reached No. 3 on the chart. It stayed there.', ['It reached No. 3 on the chart.', 'It stayed there.']],
    ['initials', 'J. R. R. Tolkien wrote it. Harry S. Truman read it.', ['J. R. R. Tolkien wrote it.', 'Harry S. Truman read it.']],
    ['decimals', 'The city has 3.5 million people. Its area is 12.7 km2.', ['The city has 3.5 million people.', 'Its area is 12.7 km2.']],
    ['et al. followed by a name or a year', 'Varga et al. (2024) found it. Mendez et al. The study was wide.', ['Varga et al. (2024) found it.', 'Mendez et al.', 'The study was wide.']],
    ['et al. inside a sentence', 'According to Ruiz et al. Caldrossa grew fast.', ['According to Ruiz et al. Caldrossa grew fast.']],
    ['quotes after the terminator', 'He said "We will win." Then he left. "Stop!" she said.', ['He said "We will win."', 'Then he left.', '"Stop!" she said.']],
    ['question and exclamation marks', 'Why? Because! Fine.', ['Why?', 'Because!', 'Fine.']],
    ['ellipses', 'It went on... Then it stopped. Wait … and see… Later came.', ['It went on...', 'Then it stopped.', 'Wait … and see…', 'Later came.']],
    ['e.g. and i.e.', 'Ports, e.g. Port Aldwin, grew, i.e. They doubled. Fine.', ['Ports, e.g. Port Aldwin, grew, i.e. They doubled.', 'Fine.']],
    ['lowercased text', 'israel has a diversified economy. its gdp in 1997 reached $98 billion. dr. cohen agreed.', ['israel has a diversified economy.', 'its gdp in 1997 reached $98 billion.', 'dr. cohen agreed.']],
    ['whitespace and no final period', '  One  sentence\nspread out. Another without end ', ['One sentence spread out.', 'Another without end']],
    ['months', 'It opened on 3 Jan. 2020 in the port. It closed in Dec. The end came.', ['It opened on 3 Jan. 2020 in the port.', 'It closed in Dec.', 'The end came.']],
    // A unit after a number ("23.0 C", rendered from {{convert}}) is not circa, an initial or "feet of" a name: it ends the sentence.
    ['a unit letter after a number', 'The hottest month had a mean of 23.0 C. The wettest month was July. It rose to 30 C. Maximum temperatures occur later.', ['The hottest month had a mean of 23.0 C.', 'The wettest month was July.', 'It rose to 30 C.', 'Maximum temperatures occur later.']],
    ['a saint after a house number', 'He lived at 5 St. Mary Road for years. It burned.', ['He lived at 5 St. Mary Road for years.', 'It burned.']],
    ['feet after a number', 'The tower is 300 ft. The spire adds more. It was built c. Spring 1890, by Ft. Worth men.', ['The tower is 300 ft.', 'The spire adds more.', 'It was built c. Spring 1890, by Ft. Worth men.']],
  ])('%s', (_name, text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });

  it('returns nothing for blank text', () => {
    expect(splitSentences('  \n ')).toEqual([]);
  });
});

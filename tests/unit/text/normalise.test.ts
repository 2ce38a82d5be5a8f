import { describe, expect, it } from 'vitest';
import { answerContains, normaliseForMatch, normaliseSentence, sentenceHash, squadNormalise } from '../../../src/text/normalise.js';

describe('normaliseForMatch: the form in which an answer is looked for', () => {
  it('drops case, accents, punctuation, articles and thousands separators, keeping decimal points', () => {
    expect(normaliseForMatch('  The  Population: 1,234,567 (an estimate), 2.5%!')).toBe('population 1234567 estimate 2.5');
  });

  it.each([
    ['3,644,826', '3644826'],
    ['3 644 826', '3644826'],
    ['3\u202f644\u202f826', '3644826'],
    ["3'644'826", '3644826'],
    ['12,5', '12 5'],
    ['Pašalić', 'pasalic'],
    ['Ｃａｆé', 'cafe'],
  ])('%j → %j', (text, expected) => {
    expect(normaliseForMatch(text)).toBe(expected);
  });
});

describe('answerContains: the answer is in the text (the check stage and GrowOVER validation alike)', () => {
  it.each([
    ['The population was 3644826 in the census.', '3,644,826', true],
    ['about 3,644,826 people', '3 644 826', true],
    ['Revenue: crn 4.47 billion.', 'CRN 4.47 billion', true],
    ['He scored 14 goals.', '4', false],
    ['a rating of 4.5', '4', false],
    ['He has scored 4.', '4', true],
    ['beatles', 'The Beatles', true],
    ['Mario Pasalic', 'Pašalić', true],
    ['The CEO is Dr Leona Fairweather (CEO).', 'Dr. Leona Fairweather (CEO)', true],
    ['The mayor is Kai Wegner.', 'kai wegner', true],
    ['The mayor is Kai Wegner.', 'Kai Weg', false],
    ['anything', '', false],
    ['anything', 'the', false],
  ])('%j contains %j → %s', (text, answer, expected) => {
    expect(answerContains(text, answer)).toBe(expected);
  });
});

describe('normaliseSentence: when two sentences are the same text', () => {
  it('ignores case, punctuation and thousands commas, but not decimal points', () => {
    expect(normaliseSentence('The area is 106,460,000 km2.')).toBe('the area is 106460000 km2');
    expect(normaliseSentence('It is second-largest.')).toBe('it is second largest');
    expect(normaliseSentence('It has 3.5 million')).toBe('it has 3.5 million');
  });

  it('keeps accents and articles, which an edit of the sentence may change', () => {
    expect(normaliseSentence('The Café of Pašalić')).toBe('the café of pašalić');
    expect(sentenceHash('He met the mayor.')).not.toBe(sentenceHash('He met a mayor.'));
    expect(sentenceHash('Cafe Müller')).not.toBe(sentenceHash('Cafe Muller'));
  });

  it('hashes the normalised sentence into 16 hex digits', () => {
    expect(sentenceHash('The area is 106,460,000 km2.')).toMatch(/^[0-9a-f]{16}$/);
    expect(sentenceHash('The area is 106,460,000 km2.')).toBe(sentenceHash('the area is 106460000 km2'));
  });
});

describe("squadNormalise: SQuAD's own rule", () => {
  it.each([
    ['The  Eiffel-Tower!', 'eiffeltower'],
    ['an apple a day', 'apple day'],
    ['Theatre, then another', 'theatre then another'],
    ["Shaquille O'Neal", 'shaquille oneal'],
    ['1,234,567', '1234567'],
    ['3.5', '35'],
    ['  Pašalić  ', 'pašalić'],
    ['Café a', 'café'],
    ['«the» end', '« » end'],
    ['déa the', 'déa'],
  ])('%j → %j', (text, expected) => {
    expect(squadNormalise(text)).toBe(expected);
  });
});

/**
 * Scores worked out by hand from the published definitions: SQuAD v1.1's normalisation and token F1,
 * the check stage's subset match, GrowOVER's scorer (first line, 50 tokens, empty replies, CHANGED_DEL
 * against the old answer), and the weekly report's counting rules.
 */
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../src/random.js';
import {
  bootstrapIntervals,
  growoverScores,
  metaPathOf,
  parsePredictions,
  parseSystemMeta,
  reportJson,
  saysNoAnswer,
  scoreGrowover,
  scoreWeekly,
  squadScores,
  subsetMatch,
  type WeeklyCase,
  type WeeklyGold,
} from '../../../src/evaluate/index.js';
import { withCode } from '../../support/errorCodes.js';

describe('SQuAD exact match and F1', () => {
  it('ignores case, ASCII punctuation and articles', () => {
    expect(squadScores('The Eiffel Tower!', 'eiffel tower')).toEqual({ em: 1, f1: 1 });
  });

  it('counts shared tokens once per occurrence in both (multisets)', () => {
    // "manchester united fc" vs "manchester city fc": 2 shared of 3 and 3 → P = R = 2/3.
    expect(squadScores('Manchester United F.C.', 'Manchester City F.C.').f1).toBeCloseTo(2 / 3, 12);
    // "cat cat cat" vs "cat": 1 shared → P = 1/3, R = 1, F1 = 2·(1/3)/(4/3) = 1/2.
    expect(squadScores('the cat, the cat, a cat', 'cat')).toEqual({ em: 0, f1: 0.5 });
  });

  it('deletes a thousands comma but keeps a space between digit groups as a token break', () => {
    expect(squadScores('1,234,567', '1234567')).toEqual({ em: 1, f1: 1 });
    expect(squadScores('1 234 567', '1,234,567')).toEqual({ em: 0, f1: 0 });
  });

  it('does not fold Unicode: accents and non-ASCII dashes count', () => {
    expect(squadScores('ZÜRICH', 'Zürich')).toEqual({ em: 1, f1: 1 });
    expect(squadScores('Zurich', 'Zürich')).toEqual({ em: 0, f1: 0 });
    // The en dash is not ASCII punctuation: "2024–25" stays one token, "2024-25" becomes "202425".
    expect(squadScores('2024–25', '2024-25').em).toBe(0);
  });

  it('scores an empty prediction 0 against a value', () => {
    expect(squadScores('', 'Paris')).toEqual({ em: 0, f1: 0 });
    expect(squadScores('  ', 'Paris')).toEqual({ em: 0, f1: 0 });
  });
});

/**
 * Whitespace as the reference scorers (Python) see it: \`str.split()\` and \`str.strip()\` break on
 * category Zs and the bidirectional classes WS, B and S, so U+0085 and U+001C-U+001F are whitespace
 * and U+FEFF (or U+200B) is not. Each expected pair worked out from SQuAD v1.1's \`normalize_answer\`
 * and \`f1_score\` (checked by running them), and for GrowOVER from its \`normalize_answer\` (strip,
 * first line, SQuAD's rule).
 */
const WHITESPACE_CASES: Array<[prediction: string, gold: string, em: number, f1: number]> = [
  ['2024\ufeff', '2024', 0, 0], // U+FEFF is no space: the token is "2024\ufeff"
  ['New\u0085York', 'New York', 1, 1], // NEL splits words
  ['New\u001cYork', 'New York', 1, 1], // the file separator splits words
  ['New\u001fYork', 'new york', 1, 1], // so does the unit separator
  ['Paris\u00a0France', 'Paris France', 1, 1],
  ['New\u200bYork', 'New York', 0, 0], // a zero-width space joins
  ['the\u3000Beatles', 'Beatles', 1, 1], // the article goes, the ideographic space splits
  ['Beatles\u2028', 'beatles', 1, 1],
  ['\u0085The Times\u0085', 'Times', 1, 1],
  ['an\u0085apple', 'apple', 1, 1],
  ['a\ufeffb c', 'b c', 0, 0.5], // "a" is an article (U+FEFF is no word character); "\ufeffb" and "c" against "b" and "c"
  ['Zürich\u2009Airport', 'zürich airport', 1, 1],
];

describe('whitespace as the reference scorers see it', () => {
  it.each(WHITESPACE_CASES)('SQuAD: %j against %j scores EM %d, F1 %d', (prediction, gold, em, f1) => {
    expect(squadScores(prediction, gold)).toEqual({ em, f1 });
  });

  it("GrowOVER strips as Python does: U+0085 is stripped, U+FEFF is not and holds the first line", () => {
    expect(growoverScores('\u0085Paris\u0085', 'Paris')).toEqual({ em: 1, f1: 1 });
    // strip() keeps U+FEFF, so the first line is "\ufeff": not empty, and nothing like Paris.
    expect(growoverScores('\ufeff\nParis', 'Paris')).toEqual({ em: 0, f1: 0 });
    expect(growoverScores(' \nParis', 'Paris')).toEqual({ em: 1, f1: 1 });
  });
});

describe('subset match (the check stage rule)', () => {
  it('finds the gold value as whole words, with accents and thousands separators folded', () => {
    expect(subsetMatch('It had 3 644 826 inhabitants.', '3,644,826')).toBe(1);
    expect(subsetMatch('They play in Zurich', 'Zürich')).toBe(1);
    expect(subsetMatch('14 goals', '4')).toBe(0);
    expect(subsetMatch('', 'Paris')).toBe(0);
  });

  it("finds a gold with nothing left once normalised (DailyQA's '-', '?') only where exact match does", () => {
    for (const gold of ['-', '?', '–']) {
      expect([squadScores(gold, gold).em, subsetMatch(gold, gold)]).toEqual([1, 1]);
      expect([squadScores('Paris', gold).em, subsetMatch('Paris', gold)]).toEqual([0, 0]);
      expect(subsetMatch('', gold)).toBe(squadScores('', gold).em);
    }
  });
});

describe("GrowOVER's scorer", () => {
  it('keeps the first line only, after removing </s>', () => {
    expect(growoverScores('</s> Paris\nLondon is larger', 'paris')).toEqual({ em: 1, f1: 1 });
    // CR is not a line break for the scorer: "Paris\r" normalises to "paris\r" → whitespace → "paris".
    expect(growoverScores('Paris\r\nLondon', 'Paris')).toEqual({ em: 1, f1: 1 });
  });

  it('scores F1 on the first 50 tokens only', () => {
    const filler = Array.from({ length: 59 }, (_, i) => `w${i}`).join(' ');
    // "target" + 59 fillers, truncated to 50 tokens: 1 shared → P = 1/50, R = 1 → F1 = 2/51 (not 2/61).
    expect(growoverScores(`target ${filler}`, 'target').f1).toBeCloseTo(2 / 51, 12);
    // the target as the 60th token is cut away.
    expect(growoverScores(`${filler} target`, 'target').f1).toBe(0);
  });

  it('scores an empty prediction 0 even against an empty gold', () => {
    expect(growoverScores('', '')).toEqual({ em: 0, f1: 0 });
    expect(growoverScores('.', 'Paris')).toEqual({ em: 0, f1: 0 });
  });

  it('groups ALL, SAME, NEW, CHANGED and CHANGED_DEL (the old answer of CHANGED items)', () => {
    const report = scoreGrowover([
      { gold: { id: 's', type: 'SAME', answer: 'Berlin', oldAnswer: null }, prediction: 'Berlin' },
      { gold: { id: 'n', type: 'NEW', answer: '42', oldAnswer: null }, prediction: 'forty two' },
      { gold: { id: 'c1', type: 'CHANGED', answer: '12 goals', oldAnswer: '11 goals' }, prediction: '11 goals' },
      { gold: { id: 'c2', type: 'CHANGED', answer: 'Smith', oldAnswer: 'Jones' }, prediction: null },
    ], { seed: 1 });
    // c1 against "12 goals": "goals" shared, P = R = 1/2 → F1 1/2; c2 missing → 0. Percent.
    expect(report.ALL).toMatchObject({ n: 4, em: 25, f1: 37.5 });
    expect(report.SAME).toMatchObject({ n: 1, em: 100, f1: 100, ci: { em: [100, 100], f1: [100, 100] } });
    expect(report.NEW).toMatchObject({ n: 1, em: 0, f1: 0 });
    expect(report.CHANGED).toMatchObject({ n: 2, em: 0, f1: 25 });
    // c1 still gives the old answer exactly: CHANGED_DEL EM 1/2.
    expect(report.CHANGED_DEL).toMatchObject({ n: 2, em: 50, f1: 50 });
    expect(report.ALL.ci.f1[0]).toBeLessThan(37.5);
    expect(report.ALL.ci.f1[1]).toBeGreaterThan(37.5);
    expect(report.missing_sample).toEqual(['c2']);
  });
});

describe('weekly report', () => {
  const gold = (id: string, over: Partial<WeeklyGold>): WeeklyGold => ({
    id,
    date: '2025-01-27',
    status: 'ok',
    answer: null,
    changedAt: null,
    domain: null,
    frequency: 'infrequent_update',
    week: '2025-01-20',
    ...over,
  });
  const cases = [
    { gold: gold('a', { answer: '3rd', changedAt: '2025-01-26T22:10:00Z', domain: 'sports', frequency: 'frequent_update' }), prediction: '3rd' },
    { gold: gold('b', { answer: '1,234', changedAt: '2025-01-20T05:00:00Z', domain: 'economy' }), prediction: 'About 1 234 people' },
    { gold: gold('c', { answer: 'Paris', changedAt: '2025-01-10T00:00:00Z', domain: 'economy' }), prediction: null },
    { gold: gold('d', { status: 'no_key' }), prediction: "I don't know." },
    { gold: gold('e', { status: 'no_page' }), prediction: 'Berlin' },
    { gold: gold('f', { status: 'unknown' }), prediction: 'x' },
  ];

  it('scores valued gold, counts no-answer gold apart, excludes unknown gold and counts missing as wrong', () => {
    const report = scoreWeekly(cases, { seed: 1, outside: { n: 1, sample: ['zz on 2025-01-27'] } });
    // a: EM 1, F1 1, SM 1. b: "about 1 234 people" vs "1234": EM 0, F1 0; SM 1 (the space is a thousands separator). c: missing, 0. Percent.
    expect(report).toMatchObject({ n: 3, queries: 3, scored: 2, missing: 1, unknown: 1, empty_gold: 0, em: expect.closeTo(100 / 3, 10), f1: expect.closeTo(100 / 3, 10), sm: expect.closeTo(200 / 3, 10) });
    expect(report.no_answer).toMatchObject({ n: 2, correct: 1, accuracy: 50 });
    expect(report.missing_sample).toEqual(['c on 2025-01-27']);
    expect(report.outside).toEqual({ n: 1, sample: ['zz on 2025-01-27'] });
    expect(report.by_domain).toMatchObject({ economy: { n: 2, queries: 2, em: 0, f1: 0, sm: 50 }, sports: { n: 1, em: 100, f1: 100, sm: 100 } });
    expect(report.by_frequency).toMatchObject({
      frequent_update: { n: 1, em: 100, f1: 100, sm: 100 },
      infrequent_update: { n: 2, em: 0, f1: 0, sm: 50 },
    });
    // Days from the value's start to 2025-01-27 00:00: 0 (01-26 22:10), 6 (01-20 05:00), 17 (01-10), binned.
    expect(Object.keys(report.by_days_since_change)).toEqual(['0', '4-7', '15-30']);
    expect(report.by_week).toMatchObject({ '2025-01-20': { n: 3, em: expect.closeTo(100 / 3, 10), sm: expect.closeTo(200 / 3, 10) } });
  });

  it('writes a group without items with null rates and interval in JSON, never 0, keeping its counts', () => {
    const onlyInfrequent = cases.filter((item) => item.gold.frequency !== 'frequent_update' && item.gold.status === 'ok');
    const weekly = JSON.parse(reportJson(scoreWeekly(onlyInfrequent, { seed: 1 })));
    expect(weekly.by_frequency.frequent_update).toEqual({ n: 0, queries: 0, em: null, f1: null, sm: null, current: null, outdated: null, future: null, wrong: null, ci: null });
    expect(weekly.by_frequency.infrequent_update).toMatchObject({ n: 2, em: 0, ci: { em: [0, 0] } });
    expect(weekly.no_answer).toEqual({ n: 0, correct: 0, accuracy: null, ci: null });
    const growover = JSON.parse(reportJson(scoreGrowover([{ gold: { id: 'n', type: 'NEW', answer: '42', oldAnswer: null }, prediction: 'x' }], { seed: 1 })));
    expect(growover.CHANGED).toEqual({ n: 0, em: null, f1: null, current: null, outdated: null, wrong: null, ci: null });
    expect(growover.NEW).toMatchObject({ n: 1, em: 0, f1: 0, wrong: 100, ci: { em: [0, 0] } });
  });

  it('gives seeded bootstrap intervals around the mean', () => {
    const first = scoreWeekly(cases, { seed: 7 });
    expect(scoreWeekly(cases, { seed: 7 }).ci).toEqual(first.ci);
    for (const metric of ['em', 'f1', 'sm'] as const) {
      const [low, high] = first.ci[metric];
      expect(low).toBeLessThanOrEqual(first[metric]);
      expect(high).toBeGreaterThanOrEqual(first[metric]);
      expect(high).toBeGreaterThan(low);
    }
    expect(bootstrapIntervals({ em: new Float64Array([1, 1, 1]) }, { seed: 1 }).em).toEqual([1, 1]);
  });

  it('treats an empty-string gold as no value, scored by the no-answer phrases and counted apart', () => {
    const report = scoreWeekly(
      [
        { gold: gold('x', { answer: '' }), prediction: '' },
        { gold: gold('y', { answer: '' }), prediction: 'Berlin' },
        { gold: gold('z', { answer: 'Paris' }), prediction: 'Paris' },
      ],
      { seed: 1 },
    );
    expect(report).toMatchObject({ n: 1, em: 100, empty_gold: 2, no_answer: { n: 2, correct: 1, accuracy: 50 } });
  });

  it('resamples queries, not answers: a query answered on many dates is one unit', () => {
    // 40 queries, each answered on 20 dates, right on all of them or on none: 800 answers, 40 units.
    const many: WeeklyCase[] = [];
    for (let q = 0; q < 40; q++) {
      for (let d = 0; d < 20; d++) many.push({ gold: gold(`q${q}`, { answer: 'yes', date: `2025-02-${String(d + 1).padStart(2, '0')}` }), prediction: q % 2 === 0 ? 'yes' : 'no' });
    }
    const report = scoreWeekly(many, { seed: 3 });
    expect(report).toMatchObject({ n: 800, queries: 40, em: 50 });
    const byQuery = report.ci.em[1] - report.ci.em[0];
    // Resampled as 800 independent answers, the interval would be about sqrt(20) times narrower.
    const byAnswer = bootstrapIntervals({ em: Float64Array.from(many, (c) => (c.prediction === 'yes' ? 1 : 0)) }, { seed: 3 }).em;
    expect(byQuery).toBeGreaterThan(3 * 100 * (byAnswer[1] - byAnswer[0]));
    // Two clusters of 40 per cent each, as a binomial over 40 units: about ±15.5 points.
    expect(byQuery).toBeGreaterThan(25);
    expect(byQuery).toBeLessThan(40);
  });

  it('draws resampling indices as the seeded generator does, one by one', () => {
    const batch = new Uint32Array(50);
    new SeededRandom(3).fillIndices(batch, 7);
    const single = new SeededRandom(3);
    expect([...batch]).toEqual(Array.from({ length: 50 }, () => Math.floor(single.next() * 7)));
  });

  it('knows the documented no-answer phrases', () => {
    expect(saysNoAnswer('N/A')).toBe(true);
    expect(saysNoAnswer('')).toBe(true);
    expect(saysNoAnswer('The answer is unknown to me')).toBe(false);
  });

  it("takes a typographic apostrophe (U+2019, as models write it) for the ASCII one in the phrases", () => {
    expect(saysNoAnswer('I don\u2019t know.')).toBe(true);
    expect(saysNoAnswer('Can\u2019t answer.')).toBe(true);
  });
});

describe('prediction files', () => {
  it('reads JSONL with id or question_id, text or {text} predictions and optional dates', () => {
    const text = '{"id": "q1", "prediction": "Paris"}\n\n{"question_id": 7, "prediction": {"text": "x"}, "date": "2025-01-27"}\n';
    expect(parsePredictions(text, 'p.jsonl')).toEqual([
      { id: 'q1', prediction: 'Paris', date: null },
      { id: '7', prediction: 'x', date: '2025-01-27' },
    ]);
  });

  it("reads GrowOVER's results JSON", () => {
    const text = JSON.stringify({ a: { prediction: { text: 'Paris' }, type: 'SAME' }, b: { prediction: { text: '' } } }, null, 2);
    expect(parsePredictions(text, 'r.json').map((p) => [p.id, p.prediction])).toEqual([
      ['a', 'Paris'],
      ['b', ''],
    ]);
  });

  it('names the bad line, and refuses an id given twice', () => {
    expect(() => parsePredictions('{"id": "q1", "prediction": "a"}\n{"prediction": "b"}\n', 'p.jsonl')).toThrow(withCode('E_PREDICTIONS_INVALID', /p\.jsonl line 2: .*"id"/));
    expect(() => parsePredictions('{"id": "q1", "prediction": "a"}\n{"id": "q1", "prediction": "b"}\n', 'p.jsonl')).toThrow(withCode('E_PREDICTION_DUPLICATE'));
    // A date that is no calendar day is refused by the parser, for the command and the leaderboard alike.
    const badDate = () => parsePredictions('{"id": "q1", "prediction": "a"}\n{"id": "q2", "prediction": "b", "date": "2025-02-30"}\n', 'p.jsonl');
    expect(badDate).toThrow(withCode('E_PREDICTIONS_INVALID'));
    expect(badDate).toThrow(/^p\.jsonl line 2: field "date": "2025-02-30" is not a real calendar date as YYYY-MM-DD$/);
  });

  it("reads SQuAD's {id: answer} JSON, on one line or many, and names the line of an id whose answer is no text", () => {
    expect(parsePredictions('{"q1": "Paris", "q2": ""}', 'squad.json')).toEqual([
      { id: 'q1', prediction: 'Paris', date: null },
      { id: 'q2', prediction: '', date: null },
    ]);
    const pretty = JSON.stringify({ q1: 'Paris', q2: 3, q3: 'Rome' }, null, 2);
    expect(() => parsePredictions(pretty, 'squad.json')).toThrow(withCode('E_PREDICTIONS_INVALID', /^squad\.json line 3: "q2": expected the answer as a string \(SQuAD's \{id: answer\}\) or \{prediction: \{text\}\} \(GrowOVER's results JSON\)$/));
  });

  it('says which shapes it reads when a line is none of them', () => {
    expect(() => parsePredictions('{"id": "q1", "answer": "Paris"}', 'p.jsonl')).toThrow(withCode('E_PREDICTIONS_INVALID', /^p\.jsonl line 1: field "prediction": missing; expected JSONL \{id, prediction\[, date\]\}, RealTimeQA's/));
    expect(() => parsePredictions('id,prediction\nq1,Paris', 'p.csv')).toThrow(withCode('E_PREDICTIONS_INVALID', /^p\.csv line 1: not valid JSON; expected JSONL/));
    expect(() => parsePredictions('{"id": "q1", "prediction": 42}', 'p.jsonl')).toThrow(withCode('E_PREDICTIONS_INVALID', /^p\.jsonl line 1: field "prediction": expected the answer as text/));
  });

  it("reads a system's cutoff beside its predictions, naming the file and the field when it is wrong", () => {
    expect(metaPathOf('subs/gpt.jsonl')).toBe('subs/gpt.meta.json');
    expect(parseSystemMeta('{"cutoff": "2024-12-01", "model": "x"}', 'gpt.meta.json')).toEqual({ cutoff: '2024-12-01' });
    expect(parseSystemMeta('{}', 'gpt.meta.json')).toEqual({ cutoff: null });
    // Saved as UTF-8 with a byte-order mark (as a predictions file may be): read all the same.
    expect(parseSystemMeta('\uFEFF{"cutoff": "2024-12-01"}', 'gpt.meta.json')).toEqual({ cutoff: '2024-12-01' });
    expect(() => parseSystemMeta('{"cutoff": "December 2024"}', 'gpt.meta.json')).toThrow(withCode('E_SYSTEM_META_INVALID', /^gpt\.meta\.json: field "cutoff": "December 2024" is not a real calendar date as YYYY-MM-DD$/));
    expect(() => parseSystemMeta('cutoff=2024', 'gpt.meta.json')).toThrow(withCode('E_SYSTEM_META_INVALID'));
  });
});

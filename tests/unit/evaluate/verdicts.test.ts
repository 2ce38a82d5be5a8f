/**
 * Verdicts worked out by hand: a query's value timeline from its stored intervals (gaps, a replaced
 * template, what the store saw change), each prediction current, outdated (days since the value last
 * held, changes ago), future or wrong, the aliases of a value in every metric and every verdict, a
 * system's cutoff, the rule-based judge's two modes, and the prompt an LLM judge reads, of weekly and
 * GrowOVER items.
 */
import { describe, expect, it } from 'vitest';
import {
  cutoffSide,
  growoverJudgeItem,
  growoverVerdict,
  judgeRequest,
  scoreGrowover,
  matchLevel,
  PredictionJudge,
  ruleVerdicts,
  scoreBest,
  ScoredText,
  scoreWeekly,
  verdictOf,
  WEEKLY_METRICS,
  weeklyItemScore,
  weeklyJudgeItem,
  WeeklyScorer,
  type WeeklyGold,
} from '../../../src/evaluate/index.js';
import { judgeVariables } from '../../../src/llm/judgeTasks.js';
import type { QueryOverSpan } from '../../../src/model/timelines.js';
import { stateAt, valueTimeline, type AnswerState, type ValueTimeline } from '../../../src/timeline/valueTimeline.js';

/** A generated query's intervals as the whole-timeline read gives them. */
function generated(intervals: Array<[value: string, from: string, to: string | null, aliases?: string[]]>, over: Partial<QueryOverSpan> = {}): QueryOverSpan {
  return {
    id: 'q',
    query: 'What is the league position?',
    origin: 'generated',
    imported: [],
    lifetime: { createdAt: '2025-01-10T11:20:00Z', deletedAt: null, coverage: [] },
    intervals: intervals.map(([value, validFrom, validTo, aliases]) => ({ value, revId: 1, validFrom, validTo, aliases: aliases ?? [] })),
    heldFrom: '2025-01-10T11:20:00Z',
    ...over,
  };
}

/**
 * The season page of the sample with two changes in one week and a revert to an earlier value:
 * 5th (created 01-10), 4th (01-26 22:10), 3rd (02-05 10:00), 2nd (02-07 20:40), 4th again (03-23 19:50).
 */
const SEASON = valueTimeline(
  generated([
    ['5th', '2025-01-10T11:20:00Z', '2025-01-26T22:10:00Z'],
    ['4th', '2025-01-26T22:10:00Z', '2025-02-05T10:00:00Z'],
    ['3rd', '2025-02-05T10:00:00Z', '2025-02-07T20:40:00Z'],
    ['2nd', '2025-02-07T20:40:00Z', '2025-03-23T19:50:00Z'],
    ['4th', '2025-03-23T19:50:00Z', null],
  ]),
);

function verdictOn(timeline: ValueTimeline, date: string, prediction: string, exactOnly = false) {
  const instant = `${date}T00:00:00Z`;
  const current = stateAt(timeline, instant);
  const here = timeline[current] as AnswerState;
  const texts = (state: AnswerState) => (state.value === null ? [] : [state.value, ...state.aliases].map((text) => new ScoredText(text)));
  const reply = new ScoredText(prediction);
  return verdictOf({ prediction: reply, currentLevel: matchLevel(reply, texts(here), exactOnly), timeline, current, dateMs: Date.parse(instant), texts, exactOnly });
}

describe('a value timeline', () => {
  it('keeps each value with its start, and says which starts are changes the store saw', () => {
    expect(SEASON.map((state) => [state.value, state.seen])).toEqual([
      ['5th', true], // set by the page's creation
      ['4th', true],
      ['3rd', true],
      ['2nd', true],
      ['4th', true],
    ]);
    // The first revision held is not the page's creation: the value in effect then may be far older.
    const older = valueTimeline(generated([['5th', '2025-01-10T11:20:00Z', '2025-01-26T22:10:00Z'], ['4th', '2025-01-26T22:10:00Z', null]], { lifetime: { createdAt: null, deletedAt: null, coverage: [] } }));
    expect(older.map((state) => state.seen)).toEqual([false, true]);
  });

  it('makes a gap between two intervals a stretch without the key, and one value across a replaced template one stretch', () => {
    const timeline = valueTimeline(
      generated([
        ['212 depots', '2025-01-10T11:20:00Z', '2025-02-01T00:00:00Z'],
        ['212 depots', '2025-02-01T00:00:00Z', '2025-03-05T10:10:00Z'],
        ['219 depots', '2025-03-05T10:10:00Z', '2025-03-26T16:55:00Z'],
        ['219 depots', '2025-04-02T00:00:00Z', null],
      ]),
    );
    expect(timeline.map(({ value, from, to }) => [value, from, to])).toEqual([
      ['212 depots', '2025-01-10T11:20:00Z', '2025-03-05T10:10:00Z'],
      ['219 depots', '2025-03-05T10:10:00Z', '2025-03-26T16:55:00Z'],
      [null, '2025-03-26T16:55:00Z', '2025-04-02T00:00:00Z'],
      ['219 depots', '2025-04-02T00:00:00Z', null],
    ]);
    expect(stateAt(timeline, '2025-03-30T00:00:00Z')).toBe(2);
    expect(stateAt(timeline, '2025-01-01T00:00:00Z')).toBe(-1);
  });

  it("opens an imported query's published days with a start it did not see", () => {
    const timeline = valueTimeline({
      id: 'd',
      query: 'q',
      origin: 'imported',
      imported: [
        { answer: 'A', validFrom: '2025-01-04', validTo: '2025-01-06' },
        { answer: null, validFrom: '2025-01-06', validTo: '2025-01-07' },
        { answer: 'B', validFrom: '2025-01-07', validTo: '2025-01-10' },
      ],
      lifetime: undefined,
      intervals: [],
    });
    expect(timeline.map((state) => [state.value, state.seen])).toEqual([
      ['A', false],
      [null, true],
      ['B', true],
    ]);
    expect(stateAt(timeline, '2025-01-06T00:00:00Z')).toBe(1);
    expect(stateAt(timeline, '2025-01-10T00:00:00Z')).toBe(-1);
  });
});

describe('the verdict of a prediction', () => {
  it('is current for the value in effect, outdated with its age and changes ago for an earlier one', () => {
    // 2025-02-06: 3rd holds (since 02-05 10:00); 4th held until 02-05 10:00, its last day 02-05: 1 day, 1 change ago.
    expect(verdictOn(SEASON, '2025-02-06', '3rd')).toEqual({ verdict: 'current', ageDays: null, changesAgo: null });
    expect(verdictOn(SEASON, '2025-02-06', 'Fourth place, 4th')).toEqual({ verdict: 'outdated', ageDays: 1, changesAgo: 1 });
    // 5th held until 01-26 22:10: on 02-06, 11 days since its last day, and two changes (4th, 3rd) ago.
    expect(verdictOn(SEASON, '2025-02-06', '5th')).toEqual({ verdict: 'outdated', ageDays: 11, changesAgo: 2 });
  });

  it('counts both changes of a week: on the Monday after, the value of the Tuesday before is two changes ago', () => {
    // 2025-02-10: 2nd (since 02-07); 3rd held 02-05 .. 02-07 (1 change ago, 3 days), 4th before it (2 changes ago, 5 days).
    expect(verdictOn(SEASON, '2025-02-10', '3rd')).toEqual({ verdict: 'outdated', ageDays: 3, changesAgo: 1 });
    expect(verdictOn(SEASON, '2025-02-10', '4th')).toEqual({ verdict: 'outdated', ageDays: 5, changesAgo: 2 });
  });

  it('takes a value that held before and again later as outdated, and as current once it holds again', () => {
    // 4th held before 02-05 and again from 03-23: on 03-01 the earlier stretch is the likelier source.
    expect(verdictOn(SEASON, '2025-03-01', '4th')).toEqual({ verdict: 'outdated', ageDays: 24, changesAgo: 2 });
    expect(verdictOn(SEASON, '2025-03-25', '4th')).toEqual({ verdict: 'current', ageDays: null, changesAgo: null });
    // On 03-25, 2nd is one change ago (its last day 03-23), 5th four.
    expect(verdictOn(SEASON, '2025-03-25', '2nd')).toEqual({ verdict: 'outdated', ageDays: 2, changesAgo: 1 });
    expect(verdictOn(SEASON, '2025-03-25', '5th')).toEqual({ verdict: 'outdated', ageDays: 58, changesAgo: 4 });
  });

  it('is future for a value that held only later, wrong for one that never held', () => {
    expect(verdictOn(SEASON, '2025-02-01', '2nd').verdict).toBe('future');
    expect(verdictOn(SEASON, '2025-02-01', '1st').verdict).toBe('wrong');
    expect(verdictOn(SEASON, '2025-02-01', '').verdict).toBe('wrong');
  });

  it("never takes an empty reply for an earlier value with nothing left once normalised (DailyQA's \"-\")", () => {
    // 25011517-6277-0 in the published release: 26, then "-", then "", then 18.
    const numbers = valueTimeline(generated([['26', '2025-01-10T00:00:00Z', '2025-01-16T00:00:00Z'], ['-', '2025-01-16T00:00:00Z', '2025-01-18T00:00:00Z'], ['18', '2025-01-18T00:00:00Z', null]]));
    expect(verdictOn(numbers, '2025-01-18', '').verdict).toBe('wrong');
    expect(verdictOn(numbers, '2025-01-18', '26')).toMatchObject({ verdict: 'outdated', changesAgo: 2 });
  });

  it('never takes an empty reply for an earlier en dash, which SQuAD keeps but the subset match folds away', () => {
    // 25011618-2159-1 in the published release: "–" until 2025-01-17, then "2025–".
    const career = valueTimeline(generated([['–', '2025-01-04T00:00:00Z', '2025-01-17T00:00:00Z'], ['2025–', '2025-01-17T00:00:00Z', null]]));
    expect(verdictOn(career, '2025-02-01', '').verdict).toBe('wrong');
    expect(verdictOn(career, '2025-01-10', '').verdict).toBe('wrong');
    expect(verdictOn(career, '2025-02-01', '–')).toMatchObject({ verdict: 'outdated', changesAgo: 1 });
  });

  it('lets an exact match beat a contained one, and the current value win a tie', () => {
    const names = valueTimeline(generated([['John Smith', '2025-01-10T11:20:00Z', '2025-02-01T00:00:00Z'], ['Smith', '2025-02-01T00:00:00Z', null]]));
    // "John Smith" contains the current "Smith" but is the old value word for word: outdated.
    expect(verdictOn(names, '2025-02-10', 'John Smith').verdict).toBe('outdated');
    // Both contained in the reply: the current value wins.
    expect(verdictOn(names, '2025-02-10', 'Smith, formerly John Smith of Leeds').verdict).toBe('current');
    // Strict (exact only): a contained current value is no match.
    expect(verdictOn(names, '2025-02-10', 'It is Smith', true).verdict).toBe('wrong');
  });

  it("matches an earlier value by its aliases too", () => {
    const leaders = valueTimeline(
      generated([
        ['Oren Blake', '2025-01-10T11:20:00Z', '2025-02-05T16:30:00Z', ['O. Blake']],
        ['Edda Marrow', '2025-02-05T16:30:00Z', null, ['Mayor Marrow']],
      ]),
    );
    expect(verdictOn(leaders, '2025-02-10', 'O. Blake').verdict).toBe('outdated');
    expect(verdictOn(leaders, '2025-02-10', 'Mayor Marrow').verdict).toBe('current');
  });
});

describe('aliases in the metrics', () => {
  it('scores the best over a gold answer and its aliases, metric by metric', () => {
    const reply = new ScoredText('USA');
    const golds = ['United States', 'USA', 'United States of America'].map((text) => new ScoredText(text));
    for (const metric of WEEKLY_METRICS) expect(scoreBest(metric, reply, golds)).toBe(1);
    // "united states" against "united states of america": 2 shared of 2 and 4 → P = 1, R = 1/2, F1 = 2/3.
    expect(scoreBest(WEEKLY_METRICS[1], new ScoredText('the United States'), [new ScoredText('United States of America'), new ScoredText('America')])).toBeCloseTo(2 / 3, 12);
  });

  it('counts the items with aliases and those an alias raised, per metric', () => {
    const gold = (id: string, answer: string, aliases: string[]): WeeklyGold => ({
      id,
      date: '2025-02-10',
      status: 'ok',
      answer,
      changedAt: '2025-02-05T16:30:00Z',
      domain: 'politics',
      frequency: null,
      week: '2025-01-20',
      aliases,
    });
    const report = scoreWeekly(
      [
        // An alias raises all three: the answer alone scores 0.
        { gold: gold('a', 'United States', ['USA']), prediction: 'USA' },
        // The answer itself already matches: nothing raised.
        { gold: gold('b', 'Edda Marrow', ['Mayor Marrow']), prediction: 'Edda Marrow' },
        // An alias raises F1 (one token of two) but neither EM nor SM.
        { gold: gold('c', 'Port Aldwin Rovers', ['Aldwin FC']), prediction: 'Rovers FC' },
        { gold: gold('d', 'Kestrel Vale', []), prediction: 'Kestrel' },
      ],
      { seed: 1 },
    );
    expect(report.aliases).toEqual({ items: 3, changed: 2, by_metric: { em: 1, f1: 2, sm: 1 } });
    expect(report.em).toBe(50);
    expect(report.current).toBe(50);
    expect(weeklyItemScore({ gold: gold('a', 'United States', ['USA']), prediction: 'USA' })).toMatchObject({ em: 1, f1: 1, sm: 1, verdict: 'current' });
  });
});

describe('verdicts in the weekly report', () => {
  const item = (id: string, date: string, prediction: string | null) => {
    const instant = `${date}T00:00:00Z`;
    const state = stateAt(SEASON, instant);
    const held = SEASON[state] as AnswerState;
    const gold: WeeklyGold = { id, date, status: 'ok', answer: held.value, changedAt: held.seen ? held.from : null, since: held.from, domain: 'sports', frequency: 'frequent_update', week: '2025-01-20', timeline: SEASON, state, aliases: held.aliases };
    return { gold, prediction };
  };

  it('gives each verdict as a rate of every group with its interval, and the outdated answers by age and changes ago', () => {
    const scorer = new WeeklyScorer({ cutoff: '2025-02-06' });
    for (const [date, prediction] of [
      ['2025-02-06', '3rd'],
      ['2025-02-10', '3rd'],
      ['2025-02-10', '4th'],
      ['2025-02-01', '2nd'],
      ['2025-02-01', null],
    ] as const) scorer.add(item('q', date, prediction));
    const report = scorer.report({ seed: 1 });
    expect(report).toMatchObject({ n: 5, current: 20, outdated: 40, future: 20, wrong: 20, no_value: 0 });
    expect(report.ci.outdated).toEqual([40, 40]); // one query: every resample draws it
    expect(report.outdated_detail).toEqual({ n: 2, by_age_days: { '2-3': 1, '4-7': 1 }, by_changes_ago: { '1': 1, '2': 1 } });
    expect(report.by_days_since_change['0']).toMatchObject({ n: 1, current: 100 }); // 3rd on 02-06, set 02-05 10:00
    // The cutoff splits by when the answer in effect began: 3rd (02-05) and 4th (01-26) before, 2nd (02-07) after.
    expect(report.by_cutoff).toMatchObject({ cutoff: '2025-02-06', before: { n: 3 }, after: { n: 2, outdated: 100 } });
    // Each group with its own intervals (one query: every resample gives the group's own rates).
    expect(report.by_cutoff?.after).toMatchObject({ ci: { outdated: [100, 100], current: [0, 0] } });
    expect((report.by_cutoff?.before as { ci: Record<string, [number, number]> }).ci.outdated).toEqual([0, 0]);
  });

  it('places an item against a cutoff by the change the store saw, or leaves it undetermined', () => {
    expect(cutoffSide({ changedAt: '2025-02-07T20:40:00Z' }, '2025-02-01')).toBe('after');
    expect(cutoffSide({ changedAt: '2025-01-26T22:10:00Z' }, '2025-02-01')).toBe('before');
    expect(cutoffSide({ changedAt: null, since: '2025-01-04' }, '2025-02-01')).toBe('before');
    expect(cutoffSide({ changedAt: null, since: '2025-02-04' }, '2025-02-01')).toBe('undetermined');
  });
});

describe('the judge', () => {
  it('offline, judges by the rules: relaxed by a contained match, strict by an exact one', () => {
    const at = stateAt(SEASON, '2025-02-10T00:00:00Z');
    expect(ruleVerdicts(SEASON, at, '2nd', 'They are 2nd')).toMatchObject({ relaxed: 'correct', strict: 'wrong' });
    expect(ruleVerdicts(SEASON, at, '2nd', '2nd')).toMatchObject({ relaxed: 'correct', strict: 'correct' });
    expect(ruleVerdicts(SEASON, at, '2nd', 'still 3rd')).toMatchObject({ relaxed: 'outdated', strict: 'wrong' });
    // A later value is wrong to FreshEval, which knows no future.
    expect(ruleVerdicts(SEASON, stateAt(SEASON, '2025-02-01T00:00:00Z'), '4th', '2nd')).toMatchObject({ relaxed: 'wrong', strict: 'wrong' });
    // Without a value, saying so is correct; giving the value the key had is outdated.
    expect(ruleVerdicts(SEASON, at, null, 'unknown')).toMatchObject({ relaxed: 'correct', strict: 'correct' });
    expect(ruleVerdicts(SEASON, at, null, '3rd')).toMatchObject({ relaxed: 'outdated', strict: 'outdated' });
    expect(ruleVerdicts(SEASON, at, '2nd', null)).toMatchObject({ relaxed: 'wrong', strict: 'wrong' });
  });

  it('asks a model once per query, value in effect and reply, and counts its rates by query', async () => {
    const asked: string[] = [];
    const judge = new PredictionJudge({
      provider: 'openai',
      model: 'test-model',
      judgePrediction: async (request) => {
        asked.push(request.prediction);
        return { ok: true, value: { relaxed: request.prediction === '2nd' ? 'correct' : 'outdated', strict: 'wrong', reason: 'r' }, prompt: { name: 'prediction-judge', version: '1' } };
      },
      takeUsage: () => ({ provider: 'openai', model: 'test-model', requests: asked.length, cacheHits: 0, promptTokens: 0, completionTokens: 0, failures: 0 }),
    });
    for (const date of ['2025-02-10', '2025-02-11', '2025-02-12']) {
      const instant = `${date}T00:00:00Z`;
      const state = stateAt(SEASON, instant);
      judge.add(weeklyJudgeItem({ gold: { id: 'q', date, status: 'ok', answer: '2nd', changedAt: null, domain: null, frequency: null, week: null, timeline: SEASON, state, query: 'Q?' }, prediction: '2nd' }));
    }
    judge.add(weeklyJudgeItem({ gold: { id: 'r', date: '2025-02-10', status: 'ok', answer: '2nd', changedAt: null, domain: null, frequency: null, week: null, timeline: SEASON, state: 3, query: 'Q?' }, prediction: '3rd' }));
    judge.add(weeklyJudgeItem({ gold: { id: 's', date: '2025-02-10', status: 'ok', answer: '2nd', changedAt: null, domain: null, frequency: null, week: null, timeline: SEASON, state: 3, query: 'Q?' }, prediction: null }));
    const { report, judgments } = await judge.run(1);
    // Three dates of one value and reply are one prompt; a missing reply is wrong without asking.
    expect(asked).toEqual(['2nd', '3rd']);
    expect(judgments.map((j) => ('relaxed' in j ? j.relaxed : j.failed))).toEqual(['correct', 'correct', 'correct', 'outdated', 'wrong']);
    expect(report).toMatchObject({ judge: 'openai', n: 5, failed: 0, prompts: 2, relaxed: { correct: 60, outdated: 20, wrong: 20 }, strict: { correct: 0, wrong: 100 } });
    // Over the four replies judged (the missing one was not asked): the rules say strict correct (three
    // exact 2nd) and outdated (an exact 3rd), the model wrong.
    expect(report.agreement_with_rules).toEqual({ relaxed: 100, strict: 0 });
  });

  it('shows a model the values with their dates up to the one in effect, not the date asked', () => {
    const variables = judgeVariables({
      question: 'What is the league position?',
      timeline: [
        { value: '5th', from: '2025-01-10T11:20:00Z', to: '2025-01-26T22:10:00Z', seen: false },
        { value: '4th', from: '2025-01-26T22:10:00Z', to: '2025-02-05T10:00:00Z', seen: true },
      ],
      prediction: '5th',
    });
    expect(variables.timeline).toBe('- from 2025-01-10 or earlier until 2025-01-26: 5th\n- from 2025-01-26 (in effect when asked): 4th');
    expect(variables).toMatchObject({ current: '4th', prediction: '5th' });
  });

  it('leaves a start it cannot date unsaid rather than printing an empty date', () => {
    const timeline = (from: string, to: string | null) => [
      { value: 'A', from, to, seen: false },
      { value: 'B', from, to: null, seen: false },
    ];
    const lines = (from: string, to: string | null) => judgeVariables({ question: 'Q?', timeline: timeline(from, to), prediction: 'A' }).timeline;
    expect(lines('', '2025-03-01')).toBe('- until 2025-03-01: A\n- (in effect when asked): B');
    expect(lines('', null)).toBe('- earlier: A\n- (in effect when asked): B');
    // A weekly item whose date has no stretch of the timeline: the value the gold gives, undated.
    const request = judgeRequest({ question: 'Q?', timeline: SEASON, state: -1, value: null, prediction: 'none' });
    expect(judgeVariables(request).timeline).toBe('- (in effect when asked): (no value: the source gives none)');
  });
});

describe('GrowOVER verdicts', () => {
  const changedGold = { id: 'c', type: 'CHANGED' as const, answer: '3.7 million tonnes', oldAnswer: '3.5 million tonnes', question: 'How much steel did the plant make?', madeOn: '2025-03-01' };

  it("shows the judge a CHANGED item's old answer until the snapshot that made it, then its answer; any other item's answer since then", () => {
    const changed = judgeRequest(growoverJudgeItem(changedGold, 'About 3.5 million tonnes'));
    expect(changed).toEqual({
      question: 'How much steel did the plant make?',
      timeline: [
        { value: '3.5 million tonnes', from: '', to: '2025-03-01', seen: false },
        { value: '3.7 million tonnes', from: '2025-03-01', to: null, seen: true },
      ],
      prediction: 'About 3.5 million tonnes',
    });
    expect(judgeVariables(changed)).toMatchObject({
      timeline: '- until 2025-03-01: 3.5 million tonnes\n- from 2025-03-01 (in effect when asked): 3.7 million tonnes',
      current: '3.7 million tonnes',
    });
    const same = judgeVariables(judgeRequest(growoverJudgeItem({ ...changedGold, type: 'SAME', oldAnswer: null, madeOn: '2025-02-01' }, '3.7 million tonnes')));
    expect(same.timeline).toBe('- from 2025-02-01 or earlier (in effect when asked): 3.7 million tonnes');
  });

  it("judges offline as growoverVerdict does (the reply's first line), relaxed by a contained match and strict by an exact one", () => {
    const rules = (prediction: string | null) => growoverJudgeItem(changedGold, prediction).rules;
    expect(rules('3.5 million tonnes\nas of 2023')).toMatchObject({ relaxed: 'outdated', strict: 'outdated' });
    expect(rules('About 3.5 million tonnes')).toMatchObject({ relaxed: 'outdated', strict: 'wrong' });
    expect(rules('About 3.7 million tonnes')).toMatchObject({ relaxed: 'correct', strict: 'wrong' });
    expect(rules('nothing\n3.7 million tonnes')).toMatchObject({ relaxed: 'wrong', strict: 'wrong' });
    expect(rules(null)).toMatchObject({ relaxed: 'wrong', strict: 'wrong', reason: 'no prediction' });
    // An item without an old answer has nothing to be outdated against.
    expect(growoverJudgeItem({ ...changedGold, type: 'NEW', oldAnswer: null }, '3.5 million tonnes').rules).toMatchObject({ relaxed: 'wrong', strict: 'wrong' });
    // The relaxed rule is the item's verdict, named as FreshEval names it.
    for (const reply of ['3.5 million tonnes', 'About 3.7 million tonnes', 'no idea', null]) {
      const verdict = growoverVerdict(changedGold, reply).verdict;
      expect(rules(reply).relaxed).toBe(verdict === 'current' ? 'correct' : verdict);
    }
  });

  it('judges GrowOVER items through the same judge, each item its own unit', async () => {
    const judge = new PredictionJudge(null);
    for (const reply of ['3.5 million tonnes', '3.7 million tonnes', 'About 3.7 million tonnes', null]) judge.add(growoverJudgeItem({ ...changedGold, id: `c-${String(reply)}` }, reply));
    const { report, judgments } = await judge.run(1);
    expect(judgments.map((j) => ('relaxed' in j ? j.relaxed : j.failed))).toEqual(['outdated', 'correct', 'correct', 'wrong']);
    expect(report).toMatchObject({ judge: 'rules', n: 4, failed: 0, relaxed: { correct: 50, outdated: 25, wrong: 25 }, strict: { correct: 25, outdated: 25, wrong: 50 } });
    // Four items, four clusters: the interval is not a point.
    expect(report.relaxed.ci.correct[0]).toBeLessThan(50);
  });

  it("makes a CHANGED item's old answer outdated, on the reply's first line", () => {
    const changed = { id: 'c', type: 'CHANGED' as const, answer: '3.7 million tonnes', oldAnswer: '3.5 million tonnes' };
    expect(growoverVerdict(changed, '3.5 million tonnes\nas of 2023').verdict).toBe('outdated');
    expect(growoverVerdict(changed, 'About 3.7 million tonnes').verdict).toBe('current');
    expect(growoverVerdict(changed, 'nothing\n3.7 million tonnes').verdict).toBe('wrong');
    expect(growoverVerdict({ ...changed, type: 'SAME', oldAnswer: null }, '3.5 million tonnes').verdict).toBe('wrong');
  });

  it('keeps the old answer outdated on an item made CHANGED a month before and kept since as SAME, outside CHANGED_DEL', () => {
    const kept = { id: 'k', type: 'SAME' as const, answer: '3.7 million tonnes', oldAnswer: '3.5 million tonnes' };
    expect(growoverVerdict(kept, '3.5 million tonnes').verdict).toBe('outdated');
    const report = scoreGrowover([{ gold: kept, prediction: '3.5 million tonnes' }], { seed: 1 });
    expect(report.SAME).toMatchObject({ n: 1, outdated: 100, em: 0 });
    // CHANGED_DEL stays GrowOVER's: the CHANGED items of the month alone.
    expect(report.CHANGED_DEL.n).toBe(0);
  });
});

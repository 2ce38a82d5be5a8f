import { describe, expect, it } from 'vitest';
import type { Annotator, AuditInfo, AuditItem, AuditSource, Judgment, Verdict } from '../../../src/model/audit.js';
import { auditReport, formatReport } from '../../../src/audit/report.js';

// A labels audit of 4 items × 3 raters, every figure below worked out by hand.
//
//            stratum   alice      bob        carol      votes c/d/w  majority
//   item 1   new       correct    correct    correct    3/0/0        correct
//   item 2   new       correct    debatable  correct    2/1/0        correct    (disputed)
//   item 3   changed   wrong      debatable  correct    1/1/1        none       (disputed)
//   item 4   changed   debatable  debatable  wrong      0/2/1        debatable  (disputed)
//
// Bob first judged item 1 wrong, then correct: only the later judgment counts. Dave, the
// maintainer, judged nothing and is no annotator of the report.

const audit: AuditInfo = { id: 1, name: 'hand', source: 'labels', params: {}, raters: 3, seed: 7, createdAt: '2026-01-01T00:00:00Z' };

function item(id: number, stratum: string): AuditItem {
  return {
    id, auditId: 1, key: `page-${id}`, stratum,
    content: {
      kind: 'label', title: `Page ${id}`, pageId: id, oldSnapshot: '2024-08', newSnapshot: '2024-09',
      sentence: 's', label: stratum === 'new' ? 'new' : 'changed', matchedOld: [], oldParagraph: '', newParagraph: '',
      similarity: null, evidence: null,
    },
  };
}

const items = [item(1, 'new'), item(2, 'new'), item(3, 'changed'), item(4, 'changed')];
const annotators: Annotator[] = [
  { id: 10, auditId: 1, name: 'carol', role: 'annotator' },
  { id: 11, auditId: 1, name: 'alice', role: 'annotator' },
  { id: 12, auditId: 1, name: 'bob', role: 'annotator' },
  { id: 13, auditId: 1, name: 'dave', role: 'admin' },
];
const ALICE = 11;
const BOB = 12;
const CAROL = 10;

let nextId = 1;
function judgment(itemId: number, annotatorId: number, verdict: Verdict): Judgment {
  const id = nextId++;
  const createdAt = `2026-01-01T00:00:${String(id).padStart(2, '0')}Z`;
  return { id, itemId, annotatorId, verdict, label: null, answer: null, note: null, seconds: 5, createdAt };
}

const judgments = [
  judgment(1, BOB, 'wrong'),
  judgment(1, ALICE, 'correct'), judgment(1, BOB, 'correct'), judgment(1, CAROL, 'correct'),
  judgment(2, ALICE, 'correct'), judgment(2, BOB, 'debatable'), judgment(2, CAROL, 'correct'),
  judgment(3, ALICE, 'wrong'), judgment(3, BOB, 'debatable'), judgment(3, CAROL, 'correct'),
  judgment(4, ALICE, 'debatable'), judgment(4, BOB, 'debatable'), judgment(4, CAROL, 'wrong'),
];

function reportOf(source: AuditSource = 'labels', withStrata = items) {
  return auditReport({ audit: { ...audit, source }, items: withStrata, annotators, judgments });
}

describe('auditReport on a hand-computed audit', () => {
  const report = reportOf();

  it('counts items and the latest judgment of each rater', () => {
    expect(report.audit).toBe('hand');
    expect(report.n_items).toBe(4);
    expect(report.n_judgments).toBe(12);
  });

  it('takes precision over the items with a majority verdict, with Wilson intervals', () => {
    // Items 1, 2, 4 have a majority (correct, correct, debatable): n = 3.
    // Precision 3/3 = 1. Wilson, z² = 3.841459: denominator 1 + z²/3 = 2.280486; at k = n the
    // half-width z·√(z²/36) is z²/6, so low = (1 + z²/6 − z²/6)/2.280486 = 1/2.280486 = 0.438503.
    expect(report.precision.overall.n).toBe(3);
    expect(report.precision.overall.value).toBe(1);
    expect(report.precision.overall.low).toBeCloseTo(0.4385, 4);
    expect(report.precision.overall.high).toBe(1);
    // Strict 2/3: centre (0.666667 + 0.640243)/2.280486 = 0.573083,
    // half 1.959964·√(0.074074 + 0.106707)/2.280486 = 0.365425 → [0.207658, 0.938508].
    expect(report.strict.overall.value).toBeCloseTo(2 / 3, 10);
    expect(report.strict.overall.low).toBeCloseTo(0.2077, 4);
    expect(report.strict.overall.high).toBeCloseTo(0.9385, 4);
    // new: items 1, 2 → precision 2/2, strict 2/2; changed: only item 4 decided → 1/1 and 0/1.
    expect(report.precision.by_stratum.new).toMatchObject({ value: 1, n: 2 });
    expect(report.strict.by_stratum.new).toMatchObject({ value: 1, n: 2 });
    expect(report.precision.by_stratum.changed).toMatchObject({ value: 1, n: 1 });
    expect(report.strict.by_stratum.changed).toMatchObject({ value: 0, n: 1 });
    expect(Object.keys(report.precision.by_stratum)).toEqual(['changed', 'new']);
  });

  it("computes Fleiss' kappa overall and per stratum", () => {
    // Per item P_i = Σ n_ij(n_ij − 1)/(3·2): 1, 1/3, 0, 1/3 → P̄ = 5/12.
    // Category shares of the 12 votes: correct 6, debatable 4, wrong 2 → P_e = 1/4 + 1/9 + 1/36 = 7/18.
    // κ = (5/12 − 7/18)/(11/18) = 1/22.
    expect(report.agreement.fleiss_kappa).toBeCloseTo(1 / 22, 10);
    // new (items 1, 2): P̄ = 2/3, shares 5/6, 1/6 → P_e = 13/18, κ = (2/3 − 13/18)/(5/18) = −1/5.
    expect(report.agreement.by_stratum.new?.fleiss_kappa).toBeCloseTo(-0.2, 10);
    // changed (items 3, 4): P̄ = 1/6, shares 1/6, 3/6, 2/6 → P_e = 7/18, κ = (1/6 − 7/18)/(11/18) = −4/11.
    expect(report.agreement.by_stratum.changed?.fleiss_kappa).toBeCloseTo(-4 / 11, 10);
  });

  it("computes Krippendorff's alpha overall and per stratum", () => {
    // Coincidences, weight 1/(3 − 1) per ordered pair within an item:
    // o_cc = 3 + 1 = 4, o_dd = 1, o_ww = 0; marginals n_c = 6, n_d = 4, n_w = 2, n = 12;
    // off-diagonal 12 − 5 = 7; α = 1 − 11·7/(144 − 36 − 16 − 4) = 1 − 77/88 = 0.125.
    expect(report.agreement.krippendorff_alpha).toBeCloseTo(0.125, 10);
    // new: o_cc = 4, o_cd = o_dc = 1, n = 6, n_c = 5, n_d = 1: α = 1 − 5·2/(36 − 26) = 0.
    expect(report.agreement.by_stratum.new?.krippendorff_alpha).toBeCloseTo(0, 10);
    // changed: diagonal o_dd = 1, n_c = 1, n_d = 3, n_w = 2, n = 6: α = 1 − 5·5/(36 − 14) = −3/22.
    expect(report.agreement.by_stratum.changed?.krippendorff_alpha).toBeCloseTo(-3 / 22, 10);
  });

  it("computes Cohen's kappa per pair of annotators, names sorted", () => {
    // alice c c w d / bob c d d d: p_o = 2/4, p_e = (2/4)(1/4) + (1/4)(3/4) = 5/16 → κ = (3/16)/(11/16) = 3/11.
    // alice c c w d / carol c c c w: p_o = 2/4, p_e = (2/4)(3/4) + (1/4)(1/4) = 7/16 → κ = (1/16)/(9/16) = 1/9.
    // bob c d d d / carol c c c w: p_o = 1/4, p_e = (1/4)(3/4) = 3/16 → κ = (1/16)/(13/16) = 1/13.
    expect(Object.keys(report.agreement.cohen)).toEqual(['alice|bob', 'alice|carol', 'bob|carol']);
    expect(report.agreement.cohen['alice|bob']).toBeCloseTo(3 / 11, 10);
    expect(report.agreement.cohen['alice|carol']).toBeCloseTo(1 / 9, 10);
    expect(report.agreement.cohen['bob|carol']).toBeCloseTo(1 / 13, 10);
  });

  it('lists the majority verdict of every item and the disputed ones', () => {
    expect(report.majority.map((entry) => [entry.item, entry.verdict])).toEqual([[1, 'correct'], [2, 'correct'], [3, null], [4, 'debatable']]);
    expect(report.majority[3]?.votes).toEqual({ correct: 0, debatable: 2, wrong: 1 });
    expect(report.disputed).toEqual([
      { item: 2, key: 'page-2', stratum: 'new', votes: { correct: 2, debatable: 1, wrong: 0 } },
      { item: 3, key: 'page-3', stratum: 'changed', votes: { correct: 1, debatable: 1, wrong: 1 } },
      { item: 4, key: 'page-4', stratum: 'changed', votes: { correct: 0, debatable: 2, wrong: 1 } },
    ]);
  });

  it('scores each annotator against the majority of the other raters only, the maintainer not among them', () => {
    // alice: the others agree only on item 1 (correct, as she said) → 1/1.
    // bob: others agree on item 1 (correct ✓) and item 2 (correct, he said debatable ✗) → 1/2.
    // carol: others agree on item 1 (correct ✓) and item 4 (debatable, she said wrong ✗) → 1/2.
    expect(report.annotators).toEqual([
      { name: 'carol', judged: 4, compared: 2, agreement_with_majority: 0.5, median_seconds: 5 },
      { name: 'alice', judged: 4, compared: 1, agreement_with_majority: 1, median_seconds: 5 },
      { name: 'bob', judged: 4, compared: 2, agreement_with_majority: 0.5, median_seconds: 5 },
    ]);
  });

  it('says beside each majority figure how many items it left out and why', () => {
    // Item 3 (1–1–1) has no majority; every item is judged.
    expect(report.left_out.overall).toEqual({ no_majority: 1, unjudged: 0 });
    expect(report.left_out.by_stratum).toEqual({ changed: { no_majority: 1, unjudged: 0 }, new: { no_majority: 0, unjudged: 0 } });
    const unjudged = auditReport({ audit, items: [...items, item(5, 'new')], annotators, judgments });
    expect(unjudged.left_out.by_stratum.new).toEqual({ no_majority: 0, unjudged: 1 });
    expect(unjudged.precision.by_stratum.new?.n).toBe(2);
  });

  it('counts an item whose raters split on it as half, over every judged item', () => {
    // precision (correct or debatable accepted): item 1 all accept → 1, item 2 all accept → 1,
    // item 3 (w d c) and item 4 (d d w) split → 1/2 each: 3 of 4. Wilson, p = 0.75, z² = 3.841459:
    // denominator 1 + z²/4 = 1.960365, centre (0.75 + 0.480182)/1.960365 = 0.627527,
    // half 1.959964·√(0.046875 + 0.060023)/1.960365 = 0.326886 → [0.300641, 0.954413].
    const half = report.disputed_as_half;
    expect(half.precision.overall).toMatchObject({ value: 0.75, n: 4 });
    expect(half.precision.overall.low).toBeCloseTo(0.3006, 4);
    expect(half.precision.overall.high).toBeCloseTo(0.9544, 4);
    expect(half.precision.by_stratum).toMatchObject({ new: { value: 1, n: 2 }, changed: { value: 0.5, n: 2 } });
    // strict (correct alone accepted): 1, 1/2 (c d c), 1/2 (w d c), 0 (d d w): 2 of 4; new 1.5/2, changed 0.5/2.
    expect(half.strict.overall).toMatchObject({ value: 0.5, n: 4 });
    expect(half.strict.by_stratum).toMatchObject({ new: { value: 0.75, n: 2 }, changed: { value: 0.25, n: 2 } });
  });

  it("sets GrowOVER's published figures beside the measure that repeats them", () => {
    // 26/30 and 29/30 with their Wilson intervals; NEW against precision, CHANGED against strict.
    expect(report.published?.map((p) => [p.stratum, p.measure, p.published, p.ours])).toEqual([
      ['new', 'precision', 26 / 30, report.precision.by_stratum.new],
      ['changed', 'strict', 29 / 30, report.strict.by_stratum.changed],
    ]);
    expect(report.published?.[0]?.published_interval.low).toBeCloseTo(0.7032, 4);
    expect(report.published?.[1]?.published_interval.low).toBeCloseTo(0.8333, 4);
  });
});

describe('auditReport by source', () => {
  it('matches the published strata of a growover audit by item type, and has none for weekly', () => {
    const qa = items.map((entry) => ({ ...entry, stratum: entry.stratum.toUpperCase() }));
    expect(reportOf('growover', qa).published?.map((p) => [p.stratum, p.ours?.n])).toEqual([['NEW', 2], ['CHANGED', 1]]);
    expect(reportOf('growover', qa.slice(0, 2)).published?.map((p) => [p.stratum, p.ours?.n])).toEqual([['NEW', 2], ['CHANGED', undefined]]);
    expect(reportOf('weekly').published).toBeUndefined();
  });

  it('gives no coefficient where nothing is paired, and an empty interval where nothing is decided', () => {
    const empty = auditReport({ audit, items, annotators, judgments: [] });
    expect(empty.precision.overall).toEqual({ value: null, low: 0, high: 1, n: 0 });
    expect(empty.agreement.fleiss_kappa).toBeNull();
    expect(empty.agreement.krippendorff_alpha).toBeNull();
    expect(empty.agreement.cohen).toEqual({});
    expect(empty.disputed).toEqual([]);
  });
});

describe('time per item', () => {
  it('takes the median of the standing verdicts, per annotator, and lists the items that took longest', () => {
    const timed = (id: number, itemId: number, annotatorId: number, seconds: number | null): Judgment => ({ ...judgment(itemId, annotatorId, 'correct'), id, seconds });
    const rows = [
      timed(101, 1, ALICE, 4), timed(102, 1, BOB, 6),
      timed(103, 2, ALICE, 30), timed(104, 2, BOB, 10), timed(105, 2, CAROL, 20),
      timed(106, 3, ALICE, null), timed(107, 3, BOB, 86_400),
      timed(108, 4, CAROL, 8),
    ];
    const report = auditReport({ audit, items, annotators, judgments: rows });
    // Timed: 4, 6, 30, 10, 20, 86400, 8 → sorted 4 6 8 10 20 30 86400, median 10.
    expect(report.time.timed).toBe(7);
    expect(report.time.median_seconds).toBe(10);
    // Item medians: 1 → 5, 2 → 20, 3 → 86400 (its only time), 4 → 8.
    expect(report.time.slowest.map((entry) => [entry.item, entry.median_seconds, entry.seconds])).toEqual([
      [3, 86_400, [86_400]],
      [2, 20, [30, 10, 20]],
      [4, 8, [8]],
      [1, 5, [4, 6]],
    ]);
    expect(report.annotators.map((entry) => [entry.name, entry.median_seconds])).toEqual([['carol', 14], ['alice', 17], ['bob', 10]]);
  });
});

describe('formatReport', () => {
  it('prints the figures as aligned plain-text tables', () => {
    const text = formatReport(reportOf());
    expect(text).toContain('Audit "hand" (labels): 4 items, 12 judgments');
    expect(text).toContain(
      [
        '  stratum  n  left out           precision  95% interval  strict  95% interval',
        '  all      3  1 (1 no majority)     100.0%   43.9-100.0%   66.7%    20.8-93.9%',
        '  changed  1  1 (1 no majority)     100.0%   20.7-100.0%    0.0%     0.0-79.3%',
        '  new      2  0                     100.0%   34.2-100.0%  100.0%   34.2-100.0%',
      ].join('\n'),
    );
    expect(text).toContain(
      [
        '  stratum  n  unjudged  precision  95% interval  strict  95% interval',
        '  all      4         0      75.0%    30.1-95.4%   50.0%    15.0-85.0%',
      ].join('\n'),
    );
    expect(text).toContain('  all              0.045                 0.125');
    expect(text).toContain('  alice|bob    0.273');
    expect(text).toContain('  alice           4         1     100.0%       5.0');
    expect(text).not.toContain('dave');
    expect(text).toContain('Time per item: median 5.0 s over 12 timed verdicts');
    expect(text).toContain('  new      precision      86.7%    70.3-94.7%  30  100.0%   34.2-100.0%  2  0');
    expect(text).toContain('  changed  strict         96.7%    83.3-99.4%  30    0.0%     0.0-79.3%  1  1 (1 no majority)');
    expect(text).toContain('  page-3  changed     3        1          1      1');
  });
});

describe("an audit of a judge's verdicts on predictions", () => {
  // Five judged predictions × 2 raters; an annotator's label is the judge's when they accept it.
  //
  //           judge      alice                bob                  labels           majority
  //   item 1  correct    correct              correct              correct, correct correct
  //   item 2  outdated   debatable            wrong → wrong        outdated, wrong  none
  //   item 3  outdated   wrong → correct      wrong → correct      correct, correct correct
  //   item 4  wrong      correct              correct              wrong, wrong     wrong
  //   item 5  wrong      (not judged)
  //
  // Pairs (judge, majority): (correct, correct), (outdated, correct), (wrong, wrong): 2 of 3 agree.
  // Cohen: p_o = 2/3; judge shares c 1/3, o 1/3, w 1/3; majority c 2/3, w 1/3;
  // p_e = 1/3·2/3 + 1/3·0 + 1/3·1/3 = 1/3; κ = (2/3 − 1/3) / (2/3) = 1/2.
  const prediction = (id: number, verdict: 'correct' | 'outdated' | 'wrong'): AuditItem => ({
    id, auditId: 2, key: `q${id} 2025-02-10`, stratum: verdict,
    content: { kind: 'prediction', question: 'Q?', date: '2025-02-10', prediction: 'p', timeline: [], judge: { name: 'openai/m', mode: 'relaxed', verdict, reason: 'r' } },
  });
  const people: Annotator[] = [
    { id: 20, auditId: 2, name: 'alice', role: 'annotator' },
    { id: 21, auditId: 2, name: 'bob', role: 'annotator' },
  ];
  let id = 100;
  const vote = (itemId: number, annotatorId: number, verdict: Verdict, label: string | null = null): Judgment => ({
    id: id++, itemId, annotatorId, verdict, label, answer: null, note: null, seconds: 3, createdAt: '2026-01-01T00:00:00Z',
  });
  const report = auditReport({
    audit: { ...audit, id: 2, source: 'predictions', raters: 2 },
    items: [prediction(1, 'correct'), prediction(2, 'outdated'), prediction(3, 'outdated'), prediction(4, 'wrong'), prediction(5, 'wrong')],
    annotators: people,
    judgments: [
      vote(1, 20, 'correct'), vote(1, 21, 'correct'),
      vote(2, 20, 'debatable'), vote(2, 21, 'wrong', 'wrong'),
      vote(3, 20, 'wrong', 'correct'), vote(3, 21, 'wrong', 'correct'),
      vote(4, 20, 'correct'), vote(4, 21, 'correct'),
    ],
  });

  it("gives Cohen's kappa of the judge against the annotators' majority label, with what it left out", () => {
    expect(report.judge).toMatchObject({ judge: 'openai/m', mode: 'relaxed', n: 3, left_out: { no_majority: 1, unjudged: 1 } });
    expect(report.judge?.kappa).toBeCloseTo(0.5, 12);
    expect(report.judge?.agreement).toMatchObject({ value: 2 / 3, n: 3 });
    expect(report.judge?.confusion).toEqual({
      correct: { correct: 1, outdated: 0, wrong: 0 },
      outdated: { correct: 1, outdated: 0, wrong: 0 },
      wrong: { correct: 0, outdated: 0, wrong: 1 },
    });
    const [low, high] = report.judge?.kappa_interval ?? [NaN, NaN];
    expect(low).toBeLessThanOrEqual(0.5);
    expect(high).toBeGreaterThanOrEqual(0.5);
    // The same seed gives the same interval.
    expect(auditReport({ audit: { ...audit, id: 2, source: 'predictions', raters: 2 }, items: [], annotators: people, judgments: [] }).judge).toMatchObject({ n: 0, kappa: null, kappa_interval: null });
  });

  it("gives the judge's precision by its verdict as every audit's precision, and prints the comparison", () => {
    // By majority: item 1 correct, item 3 wrong (both say so), item 4 correct; item 2 split, item 5 unjudged.
    expect(report.precision.by_stratum.correct).toMatchObject({ value: 1, n: 1 });
    expect(report.precision.by_stratum.outdated).toMatchObject({ value: 0, n: 1 });
    expect(report.precision.overall).toMatchObject({ value: 2 / 3, n: 3 });
    expect(formatReport(report)).toMatch(/The judge \(openai\/m, relaxed\) against the annotators' majority: 3 items, left out 2 \(1 no majority, 1 unjudged\)\n  Cohen's kappa 0\.500 \(95% bootstrap/);
  });
});

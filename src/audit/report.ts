/**
 * An audit's report (docs/ARCHITECTURE.md §14): the judgments turned into precision with Wilson
 * intervals, agreement coefficients, majority verdicts, disputed items and each annotator against
 * the others, beside GrowOVER's published check where the audit repeats it. Pure: the CLI, the
 * JSON API and the maintainer's page all render the one object computed here.
 *
 * Decisions:
 * - Precision counts items, not judgments: an item's verdict is the strict majority of its raters
 *   (Natural Questions' consensus per item; GrowOVER's majority of three). An item without one
 *   (a 1–1–1 split, or two raters apart) is left out of n and listed among the disputed items
 *   for the maintainer to settle; every figure says how many items it left out and why (no
 *   majority, or not judged yet), because with two raters every disagreement leaves its item out
 *   and a precision of the agreed items alone reads far better than the audit is.
 * - Beside it, the same precision over every judged item with a split counted as half: an item
 *   scores 1 when all its raters accept it (under the measure: correct + debatable, or correct
 *   alone), 0 when none does, 1/2 when they split on it.
 * - Disputed: any item whose raters did not all agree, majority or not, since those are the ones
 *   NQ's experts would have had to discuss to reach a consensus.
 * - An annotator is scored against the majority of the other raters of each item, never a
 *   majority their own vote helped to make; items where the others have no majority do not count.
 *   The maintainer's (admin) account judges nothing and is no annotator of the report.
 * - Time per item: the seconds of the standing verdicts (capped at a day when stored), their
 *   median, each annotator's, and the items whose raters took longest by their median.
 */
import { derivedRandom } from '../random.js';
import { predictionKind } from './kinds/prediction.js';
import { VERDICTS, type Annotator, type AuditInfo, type AuditItem, type AuditSource, type Judgment, type Verdict } from '../model/audit.js';
import { cohenKappa, fleissKappa, krippendorffAlphaNominal, majorityOf, median, wilsonInterval, type Interval } from './statistics.js';

export type { Interval } from './statistics.js';

export type Votes = Record<Verdict, number>;

export interface Agreement {
  fleiss_kappa: number | null;
  krippendorff_alpha: number | null;
}

/** A figure GrowOVER published next to the same measure of this audit. */
export interface PublishedFigure {
  stratum: string;
  published: number;
  source: string;
  ours: Interval | undefined;
  /** The published proportion with its own Wilson interval (k of 30), to see whether the two overlap. */
  published_interval: Interval;
  /** Which of this audit's measures repeats the published one (see GROWOVER_CHECK). */
  measure: 'precision' | 'strict';
}

/** A proportion over the whole audit and per stratum. */
export interface Measure {
  overall: Interval;
  by_stratum: Record<string, Interval>;
}

/** The items a majority figure leaves out, by reason. */
export interface LeftOut {
  /** Judged, but no verdict holds more than half of the votes. */
  no_majority: number;
  /** No standing verdict yet. */
  unjudged: number;
}

/** How long the standing verdicts took, in seconds. */
export interface TimeSpent {
  /** Verdicts with a time. */
  timed: number;
  median_seconds: number | null;
  /** The items whose raters took longest, by their median, with each rater's seconds. */
  slowest: Array<{ item: number; key: string; stratum: string; median_seconds: number; seconds: number[] }>;
}

/** How many items `time.slowest` lists. */
const SLOWEST_ITEMS = 5;

export interface AuditReport {
  audit: string;
  source: AuditSource;
  n_items: number;
  n_judgments: number;
  /** (correct + debatable) / items with a majority verdict. */
  precision: Measure;
  /** correct / items with a majority verdict. */
  strict: Measure;
  /** The items both majority figures (precision and strict) leave out, and why. */
  left_out: { overall: LeftOut; by_stratum: Record<string, LeftOut> };
  /** Both measures over every judged item, an item whose raters split on it counted as half. */
  disputed_as_half: { precision: Measure; strict: Measure };
  agreement: Agreement & {
    by_stratum: Record<string, Agreement>;
    /** Cohen's kappa of each pair of annotators who judged an item in common, keyed "alice|bob" (names sorted). */
    cohen: Record<string, number | null>;
  };
  majority: Array<{ item: number; key: string; stratum: string; verdict: Verdict | null; votes: Votes }>;
  disputed: Array<{ item: number; key: string; stratum: string; votes: Votes }>;
  /** `compared`: the items where the other raters had a majority, the denominator of the agreement. */
  annotators: Array<{ name: string; judged: number; compared: number; agreement_with_majority: number | null; median_seconds: number | null }>;
  time: TimeSpent;
  published?: PublishedFigure[];
  /** An audit of predictions: the judge's verdicts against the annotators' (its precision is `precision` and `strict`, by its verdict). */
  judge?: JudgeAgreement;
}

/**
 * How a judge of predictions agrees with people: each annotator's label of an item is the judge's
 * verdict when they accept it (correct or debatable) and the one they chose when they call it wrong;
 * the annotators' label of an item is the strict majority of theirs.
 */
export interface JudgeAgreement {
  judge: string;
  mode: string;
  /** Items with a majority label, compared. */
  n: number;
  /** Cohen's kappa of the judge's verdicts and the annotators' majority labels, with a 95% bootstrap interval over the items. */
  kappa: number | null;
  kappa_interval: [number, number] | null;
  /** The share of items on which the judge and the majority give the same label, with its Wilson interval. */
  agreement: Interval;
  /** Items by the judge's verdict, then the annotators' majority label. */
  confusion: Record<string, Record<string, number>>;
  /** Items without a majority label, and items nobody judged yet. */
  left_out: LeftOut;
}

/**
 * GrowOVER's human check of its sentence labels (Ko et al., ACL 2024, appendix D, table 12): 30 NEW
 * and 30 CHANGED sentences, three crowd workers each, majority vote; 86.7% (26) and 96.7% (29)
 * correct. Its rule is asymmetric: a NEW label is wrong only when the workers found the sentence
 * supported by the old article ("uncertain" counts for it), a CHANGED label right only when they
 * found it not supported ("uncertain" counts against). "Debatable" here plays "uncertain", so NEW
 * compares with precision and CHANGED with strict precision. For a growover audit the strata are
 * the QA items built on such sentences: the closest figure published, not the same measurement.
 */
const GROWOVER_CHECK = [
  { stratum: 'new', correct: 26, of: 30, measure: 'precision' },
  { stratum: 'changed', correct: 29, of: 30, measure: 'strict' },
] as const;
const GROWOVER_SOURCE = 'GrowOVER (Ko et al. 2024), app. D table 12: 30 sentences, 3 raters, majority vote';

export interface AuditReportInput {
  audit: AuditInfo;
  items: AuditItem[];
  /** The audit's people; its admin, who judges nothing, is left out of the report. */
  annotators: Annotator[];
  /** The latest judgment per item and annotator; should several be given, the highest id counts. */
  judgments: Judgment[];
}

/**
 * The report of an audit from its items, annotators and judgments.
 *
 * @example auditReport(store.reportInput(audit)).precision.overall // { value, low, high, n }
 */
export function auditReport(input: AuditReportInput): AuditReport {
  const annotators = input.annotators.filter((annotator) => annotator.role === 'annotator');
  const ballots = latestBallots(input);
  const names = new Map(annotators.map((annotator) => [annotator.id, annotator.name]));
  const nameOf = (id: number): string => names.get(id) ?? `annotator ${id}`;

  const rows = input.items.map((item) => {
    const cast = ballots.get(item.id) ?? new Map<number, Ballot>();
    const votes = countVotes([...cast.values()].map((ballot) => ballot.verdict));
    return { item, cast, votes, verdict: majorityOf(votes) };
  });
  const strata = [...new Set(input.items.map((item) => item.stratum))].sort();
  const inStratum = (stratum: string): typeof rows => rows.filter((row) => row.item.stratum === stratum);
  const perStratum = <T>(of: (subset: typeof rows) => T): { overall: T; by_stratum: Record<string, T> } => ({
    overall: of(rows),
    by_stratum: Object.fromEntries(strata.map((stratum) => [stratum, of(inStratum(stratum))])),
  });

  const byMajority = (accepted: ReadonlySet<Verdict>) => (subset: typeof rows): Interval => {
    const decided = subset.filter((row) => row.verdict !== null);
    return wilsonInterval(decided.filter((row) => accepted.has(row.verdict as Verdict)).length, decided.length);
  };
  const splitAsHalf = (accepted: ReadonlySet<Verdict>) => (subset: typeof rows): Interval => {
    const judged = subset.filter((row) => row.cast.size > 0);
    const score = judged.reduce((sum, row) => {
      const accepting = VERDICTS.filter((verdict) => accepted.has(verdict)).reduce((count, verdict) => count + row.votes[verdict], 0);
      return sum + (accepting === row.cast.size ? 1 : accepting === 0 ? 0 : 0.5);
    }, 0);
    return wilsonInterval(score, judged.length);
  };
  const leftOut = (subset: typeof rows): LeftOut => ({
    no_majority: subset.filter((row) => row.cast.size > 0 && row.verdict === null).length,
    unjudged: subset.filter((row) => row.cast.size === 0).length,
  });
  const agreementOf = (subset: typeof rows): Agreement => ({
    fleiss_kappa: fleissKappa(subset.map((row) => VERDICTS.map((verdict) => row.votes[verdict]))),
    krippendorff_alpha: krippendorffAlphaNominal(subset.map((row) => [...row.cast.values()].map((ballot) => ballot.verdict))),
  });

  const lenient = new Set<Verdict>(['correct', 'debatable']);
  const strictly = new Set<Verdict>(['correct']);
  const precision = perStratum(byMajority(lenient));
  const strict = perStratum(byMajority(strictly));
  const casts = rows.map((row) => row.cast);
  const report: AuditReport = {
    audit: input.audit.name,
    source: input.audit.source,
    n_items: input.items.length,
    n_judgments: rows.reduce((acc, row) => acc + row.cast.size, 0),
    precision,
    strict,
    left_out: perStratum(leftOut),
    disputed_as_half: { precision: perStratum(splitAsHalf(lenient)), strict: perStratum(splitAsHalf(strictly)) },
    agreement: {
      ...agreementOf(rows),
      by_stratum: Object.fromEntries(strata.map((stratum) => [stratum, agreementOf(inStratum(stratum))])),
      cohen: pairwiseCohen(casts, nameOf),
    },
    majority: rows.map(({ item, votes, verdict }) => ({ item: item.id, key: item.key, stratum: item.stratum, verdict, votes })),
    disputed: rows
      .filter((row) => new Set([...row.cast.values()].map((ballot) => ballot.verdict)).size > 1)
      .map(({ item, votes }) => ({ item: item.id, key: item.key, stratum: item.stratum, votes })),
    annotators: annotators.map((annotator) => againstOthers(annotator, casts)),
    time: timeSpent(rows),
  };
  if (input.audit.source === predictionKind.source) report.judge = judgeAgreement(input, rows);
  if (input.audit.source === 'labels' || input.audit.source === 'growover') {
    report.published = GROWOVER_CHECK.map((check) => {
      const stratum =
        strata.find((name) => name.toLowerCase() === check.stratum) ??
        (input.audit.source === 'growover' ? check.stratum.toUpperCase() : check.stratum);
      return {
        stratum,
        published: check.correct / check.of,
        source: GROWOVER_SOURCE,
        ours: (check.measure === 'precision' ? precision : strict).by_stratum[stratum],
        published_interval: wilsonInterval(check.correct, check.of),
        measure: check.measure,
      };
    });
  }
  return report;
}

/** One annotator's standing verdict on an item, with the seconds it took and the label given with a wrong one. */
interface Ballot {
  verdict: Verdict;
  seconds: number | null;
  label: string | null;
}

/** Resamples of the items behind the kappa's interval. */
const KAPPA_RESAMPLES = 1000;

function judgeAgreement(input: AuditReportInput, rows: ReadonlyArray<{ item: AuditItem; cast: Map<number, Ballot> }>): JudgeAgreement {
  const pairs: Array<[string, string]> = [];
  const leftOut: LeftOut = { no_majority: 0, unjudged: 0 };
  const confusion: Record<string, Record<string, number>> = {};
  let judge = '';
  let mode = '';
  for (const { item, cast } of rows) {
    if (item.content.kind !== predictionKind.name) continue;
    const content = predictionKind.content.parse(item.content);
    const choices = predictionKind.choices?.(content);
    if (choices === undefined) continue;
    judge = content.judge.name;
    mode = content.judge.mode;
    if (cast.size === 0) {
      leftOut.unjudged++;
      continue;
    }
    const labels: Record<string, number> = Object.fromEntries(choices.labels.map((label) => [label, 0]));
    for (const ballot of cast.values()) {
      const label = ballot.verdict === 'wrong' ? (ballot.label ?? '') : choices.proposed;
      labels[label] = (labels[label] ?? 0) + 1;
    }
    const majority = majorityOf(labels);
    if (majority === null) {
      leftOut.no_majority++;
      continue;
    }
    pairs.push([choices.proposed, majority]);
    const row = (confusion[choices.proposed] ??= Object.fromEntries(choices.labels.map((label) => [label, 0])));
    row[majority] = (row[majority] ?? 0) + 1;
  }
  return {
    judge,
    mode,
    n: pairs.length,
    kappa: cohenKappa(pairs),
    kappa_interval: kappaInterval(pairs, input.audit.seed),
    agreement: wilsonInterval(pairs.filter(([a, b]) => a === b).length, pairs.length),
    confusion,
    left_out: leftOut,
  };
}

/** The 95% percentile bootstrap interval of Cohen's kappa over the items (seeded); null for no pairs or when no resample defines it. */
function kappaInterval(pairs: ReadonlyArray<readonly [string, string]>, seed: number): [number, number] | null {
  if (pairs.length === 0) return null;
  const random = derivedRandom(seed, 'audit:kappa');
  const kappas: number[] = [];
  const drawn = new Array<readonly [string, string]>(pairs.length);
  for (let r = 0; r < KAPPA_RESAMPLES; r++) {
    for (let i = 0; i < pairs.length; i++) drawn[i] = pairs[Math.floor(random.next() * pairs.length)] as readonly [string, string];
    const kappa = cohenKappa(drawn);
    if (kappa !== null) kappas.push(kappa);
  }
  if (kappas.length === 0) return null;
  kappas.sort((a, b) => a - b);
  const at = (q: number) => kappas[Math.min(kappas.length - 1, Math.max(0, Math.round(q * (kappas.length - 1))))] as number;
  return [at(0.025), at(0.975)];
}

/** Each item's verdicts by annotator id, the judgment with the highest id winning a repeat. */
function latestBallots(input: AuditReportInput): Map<number, Map<number, Ballot>> {
  const known = new Set(input.items.map((item) => item.id));
  const ballots = new Map<number, Map<number, Ballot>>();
  const ids = new Map<string, number>();
  for (const judgment of input.judgments) {
    if (!known.has(judgment.itemId)) continue;
    const slot = `${judgment.itemId}:${judgment.annotatorId}`;
    if ((ids.get(slot) ?? -Infinity) > judgment.id) continue;
    ids.set(slot, judgment.id);
    const cast = ballots.get(judgment.itemId) ?? new Map<number, Ballot>();
    ballots.set(judgment.itemId, cast);
    cast.set(judgment.annotatorId, { verdict: judgment.verdict, seconds: judgment.seconds, label: judgment.label });
  }
  return ballots;
}

function timeSpent(rows: ReadonlyArray<{ item: AuditItem; cast: Map<number, Ballot> }>): TimeSpent {
  const timed = rows.map((row) => ({
    row,
    seconds: [...row.cast.values()].flatMap((ballot) => (ballot.seconds === null ? [] : [ballot.seconds])),
  }));
  const all = timed.flatMap((entry) => entry.seconds);
  const slowest = timed
    .filter((entry) => entry.seconds.length > 0)
    .map(({ row, seconds }) => ({ item: row.item.id, key: row.item.key, stratum: row.item.stratum, median_seconds: median(seconds) as number, seconds }))
    .sort((a, b) => b.median_seconds - a.median_seconds || a.item - b.item)
    .slice(0, SLOWEST_ITEMS);
  return { timed: all.length, median_seconds: median(all), slowest };
}

function countVotes(verdicts: Iterable<Verdict>): Votes {
  const votes: Votes = { correct: 0, debatable: 0, wrong: 0 };
  for (const verdict of verdicts) votes[verdict]++;
  return votes;
}

function pairwiseCohen(casts: Array<Map<number, Ballot>>, nameOf: (id: number) => string): Record<string, number | null> {
  const pairs = new Map<string, Array<[Verdict, Verdict]>>();
  for (const cast of casts) {
    const voters = [...cast.entries()].map(([id, ballot]) => ({ name: nameOf(id), verdict: ballot.verdict }));
    voters.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    voters.forEach((first, i) => {
      for (const second of voters.slice(i + 1)) {
        const key = `${first.name}|${second.name}`;
        const list = pairs.get(key) ?? [];
        pairs.set(key, list);
        list.push([first.verdict, second.verdict]);
      }
    });
  }
  return Object.fromEntries([...pairs.keys()].sort().map((key) => [key, cohenKappa(pairs.get(key) ?? [])]));
}

function againstOthers(annotator: Annotator, casts: Array<Map<number, Ballot>>): AuditReport['annotators'][number] {
  let judged = 0;
  let compared = 0;
  let agreed = 0;
  const seconds: number[] = [];
  for (const cast of casts) {
    const own = cast.get(annotator.id);
    if (own === undefined) continue;
    judged++;
    if (own.seconds !== null) seconds.push(own.seconds);
    const others = countVotes([...cast.entries()].filter(([id]) => id !== annotator.id).map(([, ballot]) => ballot.verdict));
    const majority = majorityOf(others);
    if (majority === null) continue;
    compared++;
    if (majority === own.verdict) agreed++;
  }
  return { name: annotator.name, judged, compared, agreement_with_majority: compared === 0 ? null : agreed / compared, median_seconds: median(seconds) };
}

/** The report as plain-text tables for a terminal. */
export function formatReport(report: AuditReport): string {
  const strata = Object.keys(report.precision.by_stratum);
  const withAll = <T>(overall: T, byStratum: Record<string, T>): Array<[string, T | undefined]> => [
    ['all', overall],
    ...strata.map((stratum): [string, T | undefined] => [stratum, byStratum[stratum]]),
  ];
  const pick = <T>(measure: { overall: T; by_stratum: Record<string, T> }, name: string): T | undefined => (name === 'all' ? measure.overall : measure.by_stratum[name]);
  const precisionRows = withAll(report.precision.overall, report.precision.by_stratum).map(([name, loose]) => {
    const strict = pick(report.strict, name);
    return [name, String(loose?.n ?? 0), describeLeftOut(pick(report.left_out, name)), percent(loose), range(loose), percent(strict), range(strict)];
  });
  const halfRows = withAll(report.disputed_as_half.precision.overall, report.disputed_as_half.precision.by_stratum).map(([name, loose]) => {
    const strict = pick(report.disputed_as_half.strict, name);
    return [name, String(loose?.n ?? 0), String(pick(report.left_out, name)?.unjudged ?? 0), percent(loose), range(loose), percent(strict), range(strict)];
  });
  const agreementRows = withAll<Agreement>(report.agreement, report.agreement.by_stratum).map(([name, agreement]) => [
    name,
    coefficient(agreement?.fleiss_kappa),
    coefficient(agreement?.krippendorff_alpha),
  ]);
  const sections = [
    `Audit "${report.audit}" (${report.source}): ${report.n_items} items, ${report.n_judgments} judgments`,
    section(
      'Precision per item by majority verdict, Wilson 95% intervals\n' +
        '(precision: correct + debatable; strict: correct only; n: items with a majority verdict;\n' +
        ' left out: items whose raters reached no majority, and items nobody judged yet)',
      table(['stratum', 'n', 'left out', 'precision', '95% interval', 'strict', '95% interval'], precisionRows, 1, [2]),
    ),
    section(
      'Precision counting disputed items as half, Wilson 95% intervals\n' +
        '(an item scores 1 when all its raters accept it, 0 when none does, 1/2 when they split; n: items judged)',
      table(['stratum', 'n', 'unjudged', 'precision', '95% interval', 'strict', '95% interval'], halfRows),
    ),
    section(
      'Agreement on the verdicts (correct / debatable / wrong)',
      table(['stratum', "Fleiss' kappa", "Krippendorff's alpha"], agreementRows),
    ),
  ];
  const pairs = Object.entries(report.agreement.cohen);
  if (pairs.length > 0) {
    const rows = pairs.map(([pair, kappa]) => [pair, coefficient(kappa)]);
    sections.push(section("Cohen's kappa per pair of annotators", table(['pair', 'kappa'], rows)));
  }
  const annotatorRows = report.annotators.map((a) => [
    a.name,
    String(a.judged),
    String(a.compared),
    a.agreement_with_majority === null ? '-' : `${(a.agreement_with_majority * 100).toFixed(1)}%`,
    seconds(a.median_seconds),
  ]);
  sections.push(
    section(
      "Annotators against the majority of the item's other raters",
      table(['annotator', 'judged', 'compared', 'agreement', 'median s'], annotatorRows),
    ),
  );
  const { time } = report;
  const slowest = time.slowest.map((entry) => [entry.key, entry.stratum, String(entry.item), seconds(entry.median_seconds), entry.seconds.map(seconds).join(', ')]);
  sections.push(
    section(
      `Time per item: median ${seconds(time.median_seconds)} s over ${time.timed} timed verdicts`,
      slowest.length === 0 ? '  no timed verdict yet' : `  slowest items:\n${table(['key', 'stratum', 'item', 'median s', 'each rater (s)'], slowest, 2)}`,
    ),
  );
  if (report.published !== undefined) {
    const rows = report.published.map((p) => [
      p.stratum,
      p.measure,
      percent(p.published_interval),
      range(p.published_interval),
      String(p.published_interval.n),
      percent(p.ours),
      range(p.ours),
      String(p.ours?.n ?? 0),
      describeLeftOut(report.left_out.by_stratum[p.stratum]),
    ]);
    const header = ['stratum', 'measure', 'published', '95% interval', 'n', 'ours', '95% interval', 'n', 'left out'];
    sections.push(section(`Published: ${GROWOVER_SOURCE}`, table(header, rows, 2, [8])));
  }
  if (report.judge !== undefined) {
    const j = report.judge;
    const labels = [...new Set([...Object.keys(j.confusion), ...Object.values(j.confusion).flatMap((row) => Object.keys(row))])];
    const rows = Object.entries(j.confusion).map(([verdict, row]) => [verdict, ...labels.map((label) => String(row[label] ?? 0))]);
    // Over the items compared here, with the majority of this mode: not the precision table's, whose majority is by verdict.
    const byVerdict = Object.entries(j.confusion)
      .map(([verdict, row]) => `${verdict} ${row[verdict] ?? 0}/${Object.values(row).reduce((sum, n) => sum + n, 0)}`)
      .join(', ');
    sections.push(
      section(
        `The judge (${j.judge}, ${j.mode}) against the annotators' majority: ${j.n} items, left out ${describeLeftOut(j.left_out)}\n` +
          `  Cohen's kappa ${coefficient(j.kappa)}${j.kappa_interval ? ` (95% bootstrap ${j.kappa_interval[0].toFixed(3)} to ${j.kappa_interval[1].toFixed(3)})` : ''}, the same label on ${percent(j.agreement)} (${range(j.agreement)}); the majority agrees with its verdict: ${byVerdict}\n` +
          '  judge \\ majority',
        table(['judge', ...labels], rows),
      ),
    );
  }
  if (report.disputed.length === 0) {
    sections.push('Disputed items: none');
  } else {
    const rows = report.disputed.map((d) => [d.key, d.stratum, String(d.item), ...VERDICTS.map((verdict) => String(d.votes[verdict]))]);
    const header = ['key', 'stratum', 'item', ...VERDICTS];
    sections.push(section(`Disputed items (raters disagree): ${report.disputed.length}`, table(header, rows, 2)));
  }
  return `${sections.join('\n\n')}\n`;
}

/** "3 (2 no majority, 1 unjudged)", or "0". */
export function describeLeftOut(leftOut: LeftOut | undefined): string {
  if (leftOut === undefined) return '0';
  const total = leftOut.no_majority + leftOut.unjudged;
  const reasons = [
    ...(leftOut.no_majority > 0 ? [`${leftOut.no_majority} no majority`] : []),
    ...(leftOut.unjudged > 0 ? [`${leftOut.unjudged} unjudged`] : []),
  ];
  return reasons.length === 0 ? '0' : `${total} (${reasons.join(', ')})`;
}

function seconds(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : value.toFixed(1);
}

function section(title: string, body: string): string {
  return `${title}\n${body}`;
}

function percent(interval: Interval | undefined): string {
  return interval === undefined || interval.value === null ? '-' : `${(interval.value * 100).toFixed(1)}%`;
}

function range(interval: Interval | undefined): string {
  return interval === undefined || interval.n === 0 ? '-' : `${(interval.low * 100).toFixed(1)}-${(interval.high * 100).toFixed(1)}%`;
}

function coefficient(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : value.toFixed(3);
}

/**
 * Columns padded to their widest cell: names (the first `textColumns`, and those listed in
 * `alsoText`) left-aligned, figures right-aligned.
 */
function table(header: string[], rows: string[][], textColumns = 1, alsoText: readonly number[] = []): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const isText = (column: number) => column < textColumns || alsoText.includes(column);
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) => (isText(column) ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].map((text) => `  ${text}`).join('\n');
}

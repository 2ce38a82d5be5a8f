/**
 * A judge of predictions (docs/ARCHITECTURE.md §15): each expected item correct, outdated or wrong,
 * relaxed and strict as FreshEval defines them, against the answer's values with their dates. With a
 * model (`JudgeTasks`, through the LLM layer and its cache) every distinct prompt is asked once: the
 * prompt holds the values up to the one in effect and not the date, so the dates on which one value
 * held share a call. Without one, the rule-based verdict of `./verdicts.ts` judges, and says so:
 * relaxed by a contained match (SM), strict by an exact one (EM). Rates in percent with 95% intervals
 * by query, as every weekly figure. Weekly and GrowOVER items come in through one neutral shape
 * (`JudgeItem`): `weeklyJudgeItem` and `growoverJudgeItem` make it.
 */
import type { JudgeTasks } from '../llm/judgeTasks.js';
import { commandSpend, type CommandSpend, type Prices } from '../llm/usage.js';
import type { PromptRef } from '../llm/tasks.js';
import { JUDGE_MODES, JUDGE_VERDICTS, type JudgeMode, type JudgeRequest, type JudgeVerdict, type JudgeVerdicts } from '../model/judge.js';
import type { AnswerState, ValueTimeline } from '../timeline/valueTimeline.js';
import { clusteredIntervals, ClusteredSums, type Interval } from './bootstrap.js';
import type { DatedGrowoverGold } from './growoverScores.js';
import { growoverReply } from './metrics.js';
import { ScoredText } from './metrics/scoredText.js';
import { saysNoAnswer } from './noAnswer.js';
import { isValue, matchLevel, verdictOf, type VerdictName } from './verdicts.js';
import type { WeeklyCase } from './weeklyScores.js';

const NO_PREDICTION: JudgeVerdicts = { relaxed: 'wrong', strict: 'wrong', reason: 'no prediction' };

/** The rule-based judge's name in reports and provenance. */
export const RULE_JUDGE: PromptRef = { name: 'rule-based-verdict', version: '1' };
const RULE_DESCRIPTION = 'the rule-based verdict (offline, no LLM asked): relaxed by a contained match (SM), strict by an exact match (EM), over the answer, its aliases and its earlier values';

/** A judge's outcome for one item: its verdicts, or why it has none (a call that kept failing). */
export type ItemJudgment = (JudgeVerdicts & { failed?: undefined }) | { failed: string };

/** A mode's rates over the `n` items given a verdict: none given, its JSON has no rate (`reportJson`). */
export type ModeRates = { n: number } & Record<JudgeVerdict, number> & { ci: Record<JudgeVerdict, Interval> };

/** What a judge by model asked: its distinct prompts, and what they spent (an evaluation is no run, so nothing else records it). */
type JudgeAsked = { prompts: number } & CommandSpend;

/** The judge's rates, relaxed and strict, with who judged and how many items it could not; with a model, what it asked. */
export type JudgeReport = JudgeRates & (JudgeAsked | { prompts?: undefined });

/** Who judged, how many items it could not, and its rates relaxed and strict. */
interface JudgeRates {
  /** `openai`, or `rules` offline. */
  judge: string;
  description: string;
  provider: string;
  model: string;
  prompt: PromptRef;
  /** Items judged: every expected item with a known answer (a missing prediction is wrong without asking). */
  n: number;
  /** Items left out of the rates because the model gave no usable verdict. */
  failed: number;
  relaxed: ModeRates;
  strict: ModeRates;
  /**
   * With a model: how often its verdict is the rule-based one, per mode, in percent, over the replies it
   * judged (a missing reply is wrong on both sides, unasked); null when it judged none.
   */
  agreement_with_rules?: Record<JudgeMode, number> | null;
}

/** What judging one item needs, whichever evaluation it comes from. */
export interface JudgeItem {
  /** The unit the intervals resample: a weekly query (its dates stand or fall together), a GrowOVER item. */
  id: string;
  question: string;
  /** The answer's values with their dates, oldest first. */
  timeline: ValueTimeline;
  /** The index in `timeline` of the stretch in effect when asked, -1 for none. */
  state: number;
  /** The value in effect when asked, null when there is none. */
  value: string | null;
  prediction: string | null;
  /** The rule-based verdicts: the offline judge's, and what a model's are compared with. */
  rules: JudgeVerdicts;
}

/** Distinct prompts asked at once: the client's queue bounds what is in flight, this bounds what waits in memory. */
const BATCH = 512;

/**
 * Collects the items of an evaluation as they are scored, then judges them all.
 *
 * @example
 * const judge = new PredictionJudge(null); // offline: the rule-based verdict
 * evaluateWeekly(gold, index, scope, { seed, onItem: (_, scored) => judge.add(weeklyJudgeItem(scored)) });
 * const { report, judgments } = await judge.run(1);
 */
export class PredictionJudge {
  private readonly items: JudgeItem[] = [];
  /** With a model: the prompt it answered through, and what asking cost. */
  private asked: { prompt: PromptRef; counts: JudgeAsked } | undefined;

  /** @param prices - what the model's tokens cost (the `llmPricePer1k*` settings), for the report's cost */
  constructor(
    private readonly tasks: JudgeTasks | null,
    private readonly prices: Prices = {},
  ) {}

  /** Keeps an item to judge; null (an item whose answer is unknown) is not judged. */
  add(item: JudgeItem | null): void {
    if (item !== null) this.items.push(item);
  }

  /** The verdict of every item added, in the order added, and the report. */
  async run(seed: number | string, resamples?: number): Promise<{ report: JudgeReport; judgments: ItemJudgment[] }> {
    const judgments = this.tasks === null ? this.items.map((item) => item.rules) : await this.ask(this.tasks);
    const report = this.report(judgments, seed, resamples);
    return { report, judgments };
  }

  private async ask(tasks: JudgeTasks): Promise<ItemJudgment[]> {
    const keys = this.items.map((item) => (item.prediction === null ? null : promptKey(item)));
    const distinct = [...new Set(keys.filter((key): key is string => key !== null))];
    const answers = new Map<string, ItemJudgment>();
    let prompt: PromptRef = { name: 'prediction-judge', version: '?' };
    const firstOf = new Map<string, JudgeItem>();
    this.items.forEach((item, i) => {
      const key = keys[i];
      if (key !== null && key !== undefined && !firstOf.has(key)) firstOf.set(key, item);
    });
    for (let start = 0; start < distinct.length; start += BATCH) {
      const batch = distinct.slice(start, start + BATCH);
      const outcomes = await Promise.all(batch.map((key) => tasks.judgePrediction(judgeRequest(firstOf.get(key) as JudgeItem))));
      batch.forEach((key, i) => {
        const outcome = outcomes[i];
        if (outcome) prompt = outcome.prompt;
        answers.set(key, outcome?.ok ? outcome.value : { failed: outcome?.reason ?? 'no reply' });
      });
    }
    this.asked = { prompt, counts: { prompts: distinct.length, ...commandSpend(tasks.takeUsage(), this.prices) } };
    return keys.map((key) => (key === null || key === undefined ? NO_PREDICTION : (answers.get(key) as ItemJudgment)));
  }

  private report(judgments: readonly ItemJudgment[], seed: number | string, resamples?: number): JudgeReport {
    const clusters = new Map<string, number>();
    const sums = new ClusteredSums(JUDGE_MODES.length * JUDGE_VERDICTS.length);
    const row = new Float64Array(JUDGE_MODES.length * JUDGE_VERDICTS.length);
    const agreed: Record<JudgeMode, number> = { relaxed: 0, strict: 0 };
    let asked = 0;
    let failed = 0;
    judgments.forEach((judgment, i) => {
      if (judgment.failed !== undefined) {
        failed++;
        return;
      }
      const item = this.items[i] as JudgeItem;
      row.fill(0);
      if (item.prediction !== null) asked++;
      JUDGE_MODES.forEach((mode, m) => {
        row[m * JUDGE_VERDICTS.length + JUDGE_VERDICTS.indexOf(judgment[mode])] = 1;
        if (item.prediction !== null && judgment[mode] === item.rules[mode]) agreed[mode]++;
      });
      let cluster = clusters.get(item.id);
      if (cluster === undefined) clusters.set(item.id, (cluster = clusters.size));
      sums.add(cluster, row);
    });
    const [intervals = []] = clusteredIntervals([sums], clusters.size, { seed, resamples });
    const means = sums.means();
    const rates = (m: number): ModeRates => {
      const at = (v: number) => m * JUDGE_VERDICTS.length + v;
      const values = Object.fromEntries(JUDGE_VERDICTS.map((verdict, v) => [verdict, 100 * (means[at(v)] ?? 0)])) as Record<JudgeVerdict, number>;
      const ci = Object.fromEntries(JUDGE_VERDICTS.map((verdict, v) => [verdict, (intervals[at(v)] ?? [0, 0]).map((x) => 100 * x) as Interval])) as Record<JudgeVerdict, Interval>;
      return { n: sums.n, ...values, ci };
    };
    const byModel = this.tasks !== null;
    const report: JudgeRates = {
      judge: byModel ? (this.tasks?.provider ?? 'openai') : 'rules',
      description: byModel ? `${this.tasks?.model ?? ''} through prompt prediction-judge (FreshEval's relaxed and strict modes)` : RULE_DESCRIPTION,
      provider: byModel ? (this.tasks?.provider ?? '') : 'offline',
      model: byModel ? (this.tasks?.model ?? '') : 'rules-v1',
      prompt: this.asked?.prompt ?? RULE_JUDGE,
      n: judgments.length,
      failed,
      relaxed: rates(0),
      strict: rates(1),
      ...(byModel ? { agreement_with_rules: asked === 0 ? null : { relaxed: (100 * agreed.relaxed) / asked, strict: (100 * agreed.strict) / asked } } : {}),
    };
    return this.asked ? { ...report, ...this.asked.counts } : report;
  }
}

/**
 * What the judge is asked, which alone makes its prompt: the dates on which the same value held ask
 * the same thing, and so do two queries of one question (the same key of a page asked in two weeks).
 */
function promptKey(item: JudgeItem): string {
  return JSON.stringify(judgeRequest(item));
}

/** The values up to the one in effect (the last), as the judge reads them. */
export function judgeRequest(item: Pick<JudgeItem, 'question' | 'timeline' | 'state' | 'value' | 'prediction'>): JudgeRequest {
  const past = item.state < 0 ? [] : item.timeline.slice(0, item.state + 1);
  const here = past.at(-1);
  const timeline = past.map((state) => ({ value: state.value, from: state.from, to: state.to, seen: state.seen }));
  // What the date has is the gold's word: a deleted page or a published empty string is no value.
  if (here === undefined) timeline.push({ value: item.value, from: '', to: null, seen: false });
  else timeline[timeline.length - 1] = { value: item.value, from: here.from, to: here.to, seen: here.seen };
  return { question: item.question, timeline, prediction: item.prediction ?? '' };
}

/** A weekly item to judge: the query's timeline and the value on the date; null when the answer that day is unknown. */
export function weeklyJudgeItem({ gold, prediction }: WeeklyCase): JudgeItem | null {
  if (gold.status === 'unknown') return null;
  const value = gold.status === 'ok' && isValue(gold.answer) ? gold.answer : null;
  const timeline = gold.timeline ?? [];
  const state = gold.state ?? -1;
  return { id: gold.id, question: gold.query ?? '', timeline, state, value, prediction, rules: ruleVerdicts(timeline, state, value, prediction) };
}

/**
 * A GrowOVER item to judge. Its timeline is what the store knows of it by snapshot: an item with an
 * old answer (CHANGED, now or in an earlier month) held that answer until the snapshot that made it,
 * whose date starts the answer; any other item's answer held at least since that snapshot. Its rules
 * are `growoverVerdict`'s: the reply's first line, the part GrowOVER's scorer reads; the model reads
 * the whole reply.
 *
 * @example growoverJudgeItem({ id: 'c', type: 'CHANGED', answer: '12', oldAnswer: '11', question: 'How many?', madeOn: '2025-03-01' }, '11').rules.relaxed === 'outdated'
 */
export function growoverJudgeItem(gold: DatedGrowoverGold, prediction: string | null): JudgeItem {
  const changed = gold.oldAnswer !== null;
  const answer: AnswerState = { value: gold.answer, aliases: [], from: gold.madeOn, to: null, seen: changed };
  const timeline: ValueTimeline = changed ? [{ value: gold.oldAnswer, aliases: [], from: '', to: gold.madeOn, seen: false }, answer] : [answer];
  const state = timeline.length - 1;
  const rules = ruleVerdicts(timeline, state, gold.answer, prediction === null ? null : growoverReply(prediction));
  return { id: gold.id, question: gold.question, timeline, state, value: gold.answer, prediction, rules };
}

/**
 * The rule-based verdicts of an item in both modes: a value's item by `verdictOf` (a later value is
 * wrong here: FreshEval knows no future), relaxed counting a contained match and strict an exact one;
 * an item without a value correct when the reply says there is none, outdated when it gives a value
 * that held earlier.
 */
export function ruleVerdicts(timeline: ValueTimeline, state: number, value: string | null, prediction: string | null): JudgeVerdicts {
  if (prediction === null) return NO_PREDICTION;
  if (value === null && saysNoAnswer(prediction)) return { relaxed: 'correct', strict: 'correct', reason: 'rule-based: there is no value, and the reply says so' };
  const reply = new ScoredText(prediction);
  const texts = (s: AnswerState) => (isValue(s.value) ? [s.value, ...s.aliases].map((text) => new ScoredText(text)) : []);
  const here = value === null ? [] : [value, ...(timeline[state]?.aliases ?? [])].map((text) => new ScoredText(text));
  const line = state >= 0 ? timeline : [{ value, aliases: [], from: '', to: null, seen: false }];
  const at = state >= 0 ? state : 0;
  const judgeIn = (exactOnly: boolean): JudgeVerdict => {
    const verdict = verdictOf({ prediction: reply, currentLevel: matchLevel(reply, here, exactOnly), timeline: line, current: at, dateMs: 0, texts, exactOnly }).verdict;
    return FROM_VERDICT[verdict];
  };
  const relaxed = judgeIn(false);
  const strict = judgeIn(true);
  return { relaxed, strict, reason: `rule-based: ${relaxed === strict ? relaxed : `${relaxed} by a contained match, ${strict} by an exact one`}` };
}

const FROM_VERDICT: Record<VerdictName, JudgeVerdict> = { current: 'correct', outdated: 'outdated', future: 'wrong', no_value: 'wrong', wrong: 'wrong' };

/**
 * Scoring a system's predictions (docs/ARCHITECTURE.md §15): pure functions over cases, and the
 * evaluation that pairs a submission with the store's gold, so the `evaluate` command, the
 * leaderboard and tests share one definition of every number. Every rate is a percentage with its n
 * and a 95% bootstrap interval (by query for the weekly data).
 *
 * - `readPredictionFile(path, sink)` / `parsePredictions(text, source)`: JSONL
 *   `{id|question_id, prediction, date?}` or GrowOVER's results JSON `{id: {prediction: {text}}}`;
 *   `new ThreadedPredictionFile(path).read(sink)` the same, parsed on a second core (then `close()`).
 * - `evaluateWeekly(new StoreGold(store), feed, {dates, week}, {seed})`: every kept query the scope
 *   expects on each date (of all weeks, or one), paired with the predictions the feed hands on
 *   (`datedSink` gives each its date) as they are read → `WeeklyReport`.
 * - `scoreWeekly(cases, {seed})` / `WeeklyScorer`: the same on cases already paired.
 * - `scoreGrowover(cases, {seed})` → {ALL, SAME, NEW, CHANGED, CHANGED_DEL: {n, em, f1, current, outdated, wrong, ci}, …}.
 * - per item: the metric registry `WEEKLY_METRICS` (`em`, `f1`, `sm`; `scoreBest` over an answer and
 *   its aliases), `squadScores`, `subsetMatch`, `growoverScores`, `saysNoAnswer`; the verdicts
 *   (`verdictOf`, `growoverVerdict`); `clusteredIntervals` / `bootstrapIntervals` for any scores.
 * - `PredictionJudge`: an LLM's or the rule-based verdicts, relaxed and strict (FreshEval), of weekly
 *   (`weeklyJudgeItem`) and GrowOVER (`growoverJudgeItem`) items.
 * - `reportJson(report)`: a report or leaderboard as JSON, a group without items with null rates.
 */
export { bootstrapIntervals, clusteredIntervals, ClusteredSums, type BootstrapOptions, type Interval } from './bootstrap.js';
export { growoverNormalise, growoverScores, squadScores, subsetMatch, type AnswerScores } from './metrics.js';
export { scoreBest, ScoredText, tokenOverlapF1, WEEKLY_METRICS, type Metric, type MetricName } from './metrics/index.js';
export { NO_ANSWER_PHRASES, saysNoAnswer } from './noAnswer.js';
export { parsePredictions, placeOf, readPredictionFile, type Prediction, type PredictionSink } from './predictions.js';
export { ThreadedPredictionFile } from './threadedPredictions.js';
export {
  daysBin,
  daysSinceChange,
  DAY_BIN_ORDER,
  scoreWeekly,
  weeklyItemScore,
  WeeklyScorer,
  cutoffSide,
  MEASURES,
  type GroupScores,
  type Measure,
  type Outside,
  type WeeklyCase,
  type WeeklyGold,
  type WeeklyItemScore,
  type WeeklyReport,
  type WeeklyScoreOptions,
} from './weeklyScores.js';
export { datedSink, evaluateWeekly, type DatedPrediction, type DatedSink, type PredictionFeed, type WeeklyEvaluation, type WeeklyEvaluationOptions } from './weeklyEvaluation.js';
export { isValue, matchLevel, verdictOf, VERDICT_RATES, VERDICTS, type VerdictName, type VerdictOutcome, type VerdictRate } from './verdicts.js';
export { growoverJudgeItem, judgeRequest, PredictionJudge, ruleVerdicts, weeklyJudgeItem, type ItemJudgment, type JudgeItem, type JudgeReport } from './judge.js';
export { cutoffIn, metaPathOf, parseSystemMeta, type SystemMeta } from './systemMeta.js';
export { StoreGold, type EvaluationScope } from './storeCases.js';
export { growoverVerdict, scoreGrowover, GROWOVER_VERDICTS, type DatedGrowoverGold, type GrowoverCase, type GrowoverGold, type GrowoverGroup, type GrowoverGroupScores, type GrowoverReport } from './growoverScores.js';
export { reportJson } from './reportJson.js';

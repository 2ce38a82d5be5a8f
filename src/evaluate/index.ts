/**
 * Scoring a system's predictions (issue 11): pure functions, no store and no files, so the
 * `evaluate` command, the leaderboard and tests share one definition of every number.
 *
 * - `parsePredictions(text, source)`: JSONL `{id|question_id, prediction, date?}` or GrowOVER's
 *   results JSON `{id: {prediction: {text}}}` → `Prediction[]`.
 * - `scoreWeekly(cases, {seed, resamples?, unknownIds?})`: `cases` pair each gold answer
 *   (`WeeklyGold`: status, answer, validFrom, domain, frequency, week) with a prediction (null:
 *   missing) → `WeeklyReport` {n, scored, missing, unknown, em, f1, sm, ci, no_answer, by_domain,
 *   by_frequency, by_days_since_change, by_week, missing_ids, unknown_ids}.
 * - `scoreGrowover(cases, unknownIds?)` → {ALL, SAME, NEW, CHANGED, CHANGED_DEL: {n, em, f1}, …}.
 * - per item: `squadScores` (SQuAD EM/F1), `subsetMatch` (the check stage's SM), `growoverScores`,
 *   `saysNoAnswer` / `NO_ANSWER_PHRASES`; `bootstrapIntervals` for any score columns.
 * - `weeklyCasesFromStore(db, predictions, date)` and `growoverCasesFromStore(db, snapshot,
 *   predictions)` (in `storeCases.ts`) pair predictions with the store's gold.
 */
export { bootstrapIntervals, type BootstrapOptions } from './bootstrap.js';
export { growoverNormalise, growoverScores, squadScores, subsetMatch, tokenF1, type AnswerScores } from './metrics.js';
export { NO_ANSWER_PHRASES, saysNoAnswer } from './noAnswer.js';
export { parsePredictions, type Prediction } from './predictions.js';
export { scoreWeekly, weeklyItemScore, daysSinceChange, type WeeklyItemScore, type GroupScores, type WeeklyCase, type WeeklyGold, type WeeklyReport, type WeeklyScoreOptions } from './weeklyScores.js';
export { weeklyCasesFromStore, growoverCasesFromStore } from './storeCases.js';
export { scoreGrowover, type GrowoverCase, type GrowoverGold, type GrowoverGroup, type GrowoverReport } from './growoverScores.js';

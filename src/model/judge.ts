/**
 * What a judge of predictions says (docs/ARCHITECTURE.md §15): each prediction correct, outdated or
 * wrong against the timeline of the answer, under FreshEval's two modes (FreshQA, Vu et al. 2023):
 * relaxed judges the primary answer only, strict also any other claim the reply makes. Shared by the
 * LLM layer that asks a model, the scoring that counts the verdicts and the audits that check them.
 */

export const JUDGE_VERDICTS = ['correct', 'outdated', 'wrong'] as const;
export type JudgeVerdict = (typeof JUDGE_VERDICTS)[number];

export const JUDGE_MODES = ['relaxed', 'strict'] as const;
export type JudgeMode = (typeof JUDGE_MODES)[number];

/** One prediction to judge: the question, the answer's values with their dates up to the one asked about (last), the reply. */
export interface JudgeRequest {
  question: string;
  /** Oldest first; `value` null: no value then. `to` null: still in effect. `seen` false: held at least since `from`. */
  timeline: ReadonlyArray<{ value: string | null; from: string; to: string | null; seen: boolean }>;
  prediction: string;
}

export interface JudgeVerdicts {
  relaxed: JudgeVerdict;
  strict: JudgeVerdict;
  reason: string;
}

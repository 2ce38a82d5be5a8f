/**
 * The LLM judge of predictions (docs/ARCHITECTURE.md §6, §15): a model reads the question, the answer's
 * values with their dates and a system's reply, and says correct, outdated or wrong, relaxed and strict
 * as FreshEval defines them. One provider, a model behind an OpenAI-compatible server with its replies
 * cached in the store; offline, scoring's rule-based verdict stands in, named as such, so no offline
 * provider lives here.
 */
import { z } from 'zod';
import { JUDGE_VERDICTS, type JudgeRequest, type JudgeVerdicts } from '../model/judge.js';
import type { Usage } from '../model/llmUsage.js';
import type { OpenAiClient } from './openaiClient.js';
import { runPrompt } from './runPrompt.js';
import type { TaskProvider, TaskResult } from './tasks.js';

/** The prediction judge: a model's relaxed and strict verdicts on one reply. */
export interface JudgeTasks extends TaskProvider {
  judgePrediction(request: JudgeRequest): Promise<TaskResult<JudgeVerdicts>>;
}

const JudgeReply = z.object({
  relaxed: z.enum(JUDGE_VERDICTS).describe('correct, outdated or wrong, judging the primary answer only'),
  strict: z.enum(JUDGE_VERDICTS).describe('correct, outdated or wrong, judging every claim of the reply'),
  reason: z.string().trim().min(3).describe('one sentence: which value the reply gives, and why the verdicts'),
});

/**
 * The prediction judge through a model behind an OpenAI-compatible server (prompt `prediction-judge`).
 *
 * @example new PredictionJudge(new OpenAiJudgeTasks(client))
 */
export class OpenAiJudgeTasks implements JudgeTasks {
  readonly provider: string;
  readonly model: string;

  constructor(private readonly client: OpenAiClient) {
    this.provider = client.provider;
    this.model = client.model;
  }

  judgePrediction(request: JudgeRequest): Promise<TaskResult<JudgeVerdicts>> {
    return runPrompt(this.client, 'prediction-judge', JudgeReply, judgeVariables(request));
  }

  takeUsage(): Usage {
    return this.client.usage.take();
  }
}

/**
 * The prompt's variables: the values as dated lines, the one in effect when the question was asked
 * named apart. The date of asking itself is left out: every date on which the same value held gives
 * the same prompt, so the cache answers them all after one call.
 */
export function judgeVariables(request: JudgeRequest): Record<string, string> {
  const day = (instant: string) => instant.slice(0, 10);
  const valueText = (value: string | null) => (value === null || value === '' ? '(no value: the source gives none)' : value);
  const last = request.timeline.length - 1;
  const lines = request.timeline.map((state, index) => {
    // A start the source does not date (a GrowOVER old answer, a value with no stretch) is left unsaid.
    const start = state.from === '' ? '' : state.seen ? `from ${day(state.from)}` : `from ${day(state.from)} or earlier`;
    const end = index === last ? '(in effect when asked)' : state.to === null || state.to === '' ? '' : `until ${day(state.to)}`;
    return `- ${[start, end].filter((part) => part !== '').join(' ') || 'earlier'}: ${valueText(state.value)}`;
  });
  const current = request.timeline.at(-1);
  return {
    question: request.question,
    timeline: lines.join('\n'),
    current: valueText(current?.value ?? null),
    prediction: request.prediction,
  };
}

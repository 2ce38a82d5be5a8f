/** The sentence-change judgement of a model behind an OpenAI-compatible server: one versioned prompt, one reply schema. */
import { z } from 'zod';
import type { LabelTasks, SentenceChange, SentenceChangeRequest } from './labelTasks.js';
import type { OpenAiClient } from './openaiClient.js';
import { runPrompt } from './runPrompt.js';
import type { TaskResult } from './tasks.js';
import type { Usage } from '../model/llmUsage.js';

const SentenceChangeReply = z.object({
  verdict: z.enum(['same', 'changed', 'new']).describe('same, changed or new'),
  reason: z.string().trim().min(3).describe('one sentence naming what differs, or why nothing does'),
});

/**
 * The sentence-change judge through a model behind an OpenAI-compatible server (GrowOVER's GPT-4 step).
 *
 * @example await labelArticle(oldSentences, newSentences, { embedder, nli, judge: new OpenAiLabelTasks(client) })
 */
export class OpenAiLabelTasks implements LabelTasks {
  readonly provider: string;
  readonly model: string;

  constructor(private readonly client: OpenAiClient) {
    this.provider = client.provider;
    this.model = client.model;
  }

  async judgeSentenceChange(request: SentenceChangeRequest): Promise<TaskResult<SentenceChange>> {
    return runPrompt(this.client, 'sentence-change', SentenceChangeReply, {
      old_sentence: request.oldSentence,
      new_sentence: request.newSentence,
      facts: request.facts || 'no differing number, unit, date, name, negation or comparison',
    });
  }

  takeUsage(): Usage {
    return this.client.usage.take();
  }
}

/**
 * The GrowOVER tasks of a model behind an OpenAI-compatible server: each is one prompt template and
 * one reply schema that checks the reply's shape; the generator checks the evidence and answers.
 */
import { z } from 'zod';
import type { ChangedQa, ChangedQaRequest, Dialogue, DialogueRequest, GroundedQa, GroundedQaRequest, GrowoverTasks, NumberedSentence } from './growoverTasks.js';
import type { OpenAiClient } from './openaiClient.js';
import { runPrompt } from './runPrompt.js';
import type { TaskResult } from './tasks.js';
import type { Usage } from '../model/llmUsage.js';

/** Replies are flat string fields (every reply format carries those); sentence numbers are digits. */
const SentenceNumber = z.string().trim().regex(/^\d+$/, 'a sentence number');
const GroundedQaReply = z.object({
  question: z.string().trim().min(5).describe('the question, one sentence ending with "?"'),
  answer: z.string().trim().min(1).describe('the short entity answer, copied word for word from the sentences'),
  first_sentence: SentenceNumber.describe('number of the first evidence sentence'),
  last_sentence: SentenceNumber.describe('number of the last evidence sentence'),
});
const ChangedQaReply = z.object({
  question: z.string().trim().min(5).describe('the question, one sentence ending with "?"'),
  old_answer: z.string().trim().min(1).describe('the answer according to the old sentence, copied from it'),
  new_answer: z.string().trim().min(1).describe('the answer according to the new sentence, copied from it'),
});

/** One user, expert and sentence field per exchange: user_1, expert_1, sentence_1, user_2, … */
function dialogueReply(turns: number) {
  const shape: Record<string, z.ZodString> = {};
  for (let turn = 1; turn <= turns; turn++) {
    shape[`user_${turn}`] = z.string().trim().min(1).describe(`the user's turn ${turn}`);
    shape[`expert_${turn}`] = z.string().trim().min(1).describe(`the expert's reply ${turn}`);
    shape[`sentence_${turn}`] = SentenceNumber.describe(`number of the sentence exchange ${turn} uses`);
  }
  return z.object(shape);
}

/**
 * GrowOVER's generation through a model behind an OpenAI-compatible server, one versioned prompt per task.
 *
 * @example await generateInitial({ tasks: new OpenAiGrowoverTasks(client), embedder, seed: 1, article, sentences })
 */
export class OpenAiGrowoverTasks implements GrowoverTasks {
  readonly provider: string;
  readonly model: string;

  constructor(private readonly client: OpenAiClient) {
    this.provider = client.provider;
    this.model = client.model;
  }

  async generateGroundedQa(request: GroundedQaRequest): Promise<TaskResult<GroundedQa>> {
    const sentences = numberedLines(request.sentences);
    const result =
      request.source === 'initial'
        ? await runPrompt(this.client, 'growover-qa-initial', GroundedQaReply, { title: request.title, numbered_sentences: sentences })
        : await runPrompt(this.client, 'growover-qa-new', GroundedQaReply, { title: request.title, numbered_sentences: sentences, context: request.context || '(none)' });
    if (!result.ok) return result;
    const { question, answer, first_sentence, last_sentence } = result.value;
    return { ...result, value: { question, answer, start: Number(first_sentence), end: Number(last_sentence) } };
  }

  async generateChangedQa(request: ChangedQaRequest): Promise<TaskResult<ChangedQa>> {
    const result = await runPrompt(this.client, 'growover-qa-changed', ChangedQaReply, {
      title: request.title,
      old_sentence: request.oldSentence,
      new_sentence: request.newSentence,
    });
    if (!result.ok) return result;
    return { ...result, value: { question: result.value.question, oldAnswer: result.value.old_answer, newAnswer: result.value.new_answer } };
  }

  async generateDialogue(request: DialogueRequest): Promise<TaskResult<Dialogue>> {
    const result = await runPrompt(this.client, 'dialogue', dialogueReply(request.turns), {
      title: request.title,
      numbered_sentences: numberedLines(request.sentences),
      turns: String(request.turns),
    });
    if (!result.ok) return result;
    const fields = result.value as Record<string, string>;
    const turns = Array.from({ length: request.turns }, (_, i) => ({
      user: fields[`user_${i + 1}`] as string,
      expert: fields[`expert_${i + 1}`] as string,
      sentence: Number(fields[`sentence_${i + 1}`]),
    }));
    return { ...result, value: { turns } };
  }

  takeUsage(): Usage {
    return this.client.usage.take();
  }
}

/** Sentences as the prompts show them: one `[index] text` line each. */
function numberedLines(sentences: readonly NumberedSentence[]): string {
  return sentences.map((sentence) => `[${sentence.index}] ${sentence.text}`).join('\n');
}

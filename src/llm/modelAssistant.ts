/** The assistant backed by a language model: each job is one prompt template and one reply schema. */
import { z } from 'zod';
import {
  infoboxLines,
  numberedLines,
  type ArticleContext,
  type Assistant,
  type ChangedQa,
  type ChangedQaRequest,
  type Dialogue,
  type DialogueRequest,
  type GroundedQa,
  type GroundedQaRequest,
  type TaskResult,
} from './assistant.js';
import { DOMAINS, type Domain } from './domains.js';
import type { OpenAiClient } from './openaiClient.js';
import type { ReplySchema } from './outputModes.js';
import { loadPrompt } from './prompts.js';
import type { Usage } from '../model/llmUsage.js';

/** "as of 2024", "in January", "on 5 February 2025", "2024-05-01": the date is set apart from the question. */
const DATE_RESTRICTION =
  /\b(as of|since|until|by|in|on|during)\s+(early |late |mid-?)?(\d{4}\b(?![–-]\d)|(january|february|march|april|may|june|july|august|september|october|november|december)\b)|\b\d{1,2} (january|february|march|april|may|june|july|august|september|october|november|december) \d{4}\b|\b\d{4}-\d{2}-\d{2}\b/i;

const QuestionReply = z.object({
  question: z
    .string()
    .trim()
    .min(5)
    .refine((question) => !DATE_RESTRICTION.test(question), 'the question must not contain a date restriction')
    .describe('the question, one sentence ending with "?"'),
});
const AnswerReply = z.object({ answer: z.string().trim().min(1).describe('the answer, as short as possible') });
const DomainReply = z.object({ domain: z.enum(DOMAINS) });
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

export class ModelAssistant implements Assistant {
  readonly provider: string;
  readonly model: string;

  constructor(private readonly client: OpenAiClient) {
    this.provider = client.provider;
    this.model = client.model;
  }

  generateQuestion(article: ArticleContext, target: { key: string; value: string }): Promise<TaskResult<{ question: string }>> {
    return this.run('question-generation', QuestionReply, {
      title: article.title,
      url: article.url,
      template: article.template,
      first_paragraph: article.firstParagraph || '(none)',
      infobox: infoboxLines(article.infobox),
      key: target.key,
      value: target.value,
    });
  }

  answerQuestion(article: ArticleContext, question: string): Promise<TaskResult<{ answer: string }>> {
    return this.run('correctness-answer', AnswerReply, {
      title: article.title,
      first_paragraph: article.firstParagraph || '(none)',
      infobox: infoboxLines(article.infobox),
      question,
    });
  }

  classifyDomain(article: ArticleContext, question: string): Promise<TaskResult<{ domain: Domain }>> {
    return this.run('domain-classification', DomainReply, {
      domains: DOMAINS.map((domain) => `- ${domain}`).join('\n'),
      title: article.title,
      template: article.template,
      first_paragraph: article.firstParagraph || '(none)',
      question,
    });
  }

  async generateGroundedQa(request: GroundedQaRequest): Promise<TaskResult<GroundedQa>> {
    const sentences = numberedLines(request.sentences);
    const result =
      request.source === 'initial'
        ? await this.run('growover-qa-initial', GroundedQaReply, { title: request.title, numbered_sentences: sentences })
        : await this.run('growover-qa-new', GroundedQaReply, { title: request.title, numbered_sentences: sentences, context: request.context || '(none)' });
    if (!result.ok) return result;
    const { question, answer, first_sentence, last_sentence } = result.value;
    return { ...result, value: { question, answer, start: Number(first_sentence), end: Number(last_sentence) } };
  }

  async generateChangedQa(request: ChangedQaRequest): Promise<TaskResult<ChangedQa>> {
    const result = await this.run('growover-qa-changed', ChangedQaReply, {
      title: request.title,
      old_sentence: request.oldSentence,
      new_sentence: request.newSentence,
    });
    if (!result.ok) return result;
    return { ...result, value: { question: result.value.question, oldAnswer: result.value.old_answer, newAnswer: result.value.new_answer } };
  }

  async generateDialogue(request: DialogueRequest): Promise<TaskResult<Dialogue>> {
    const result = await this.run('dialogue', dialogueReply(request.turns), {
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

  private async run<S extends ReplySchema>(name: string, schema: S, variables: Record<string, string>): Promise<TaskResult<z.infer<S>>> {
    const prompt = loadPrompt(name);
    const outcome = await this.client.call({ prompt, variables, schema });
    const ref = { name: prompt.name, version: prompt.version };
    return outcome.ok ? { ok: true, value: outcome.value, prompt: ref } : { ok: false, reason: outcome.reason, prompt: ref };
  }
}

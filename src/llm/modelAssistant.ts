/** The assistant backed by a language model: each job is one prompt template and one reply schema. */
import { z } from 'zod';
import { infoboxLines, type ArticleContext, type Assistant, type TaskResult } from './assistant.js';
import { DOMAINS, type Domain } from './domains.js';
import type { OpenAiClient } from './openaiClient.js';
import type { ReplySchema } from './outputModes.js';
import { loadPrompt } from './prompts.js';
import type { Usage } from './usage.js';

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

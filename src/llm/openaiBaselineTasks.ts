/**
 * The baselines through a model behind an OpenAI-compatible server: one prompt template each
 * (`baseline-closed-book`, `baseline-with-document`), the reply checked for its shape only. A
 * failed call is the caller's to count; the prediction is then empty.
 */
import { z } from 'zod';
import type { BaselineQuestion, BaselineTasks, ReferenceDocument } from './baselineTasks.js';
import type { OpenAiClient } from './openaiClient.js';
import { infoboxLines } from './openaiWeeklyTasks.js';
import { runPrompt } from './runPrompt.js';
import type { TaskResult } from './tasks.js';
import type { Usage } from '../model/llmUsage.js';

const AnswerReply = z.object({ answer: z.string().trim().min(1).describe('the answer, as short as possible, or "unknown"') });

/**
 * The baselines' answering through a model behind an OpenAI-compatible server.
 *
 * @example await predictWeekly(store, new OpenAiBaselineTasks(client), 'closed-book', '2025-01-20')
 */
export class OpenAiBaselineTasks implements BaselineTasks {
  readonly provider: string;
  readonly model: string;

  constructor(private readonly client: OpenAiClient) {
    this.provider = client.provider;
    this.model = client.model;
  }

  answerClosedBook(question: BaselineQuestion): Promise<TaskResult<{ answer: string }>> {
    return runPrompt(this.client, 'baseline-closed-book', AnswerReply, { today: question.date, question: question.text });
  }

  answerFromDocument(question: BaselineQuestion, document: ReferenceDocument): Promise<TaskResult<{ answer: string }>> {
    return runPrompt(this.client, 'baseline-with-document', AnswerReply, {
      today: question.date,
      title: document.title,
      reference: referenceText(document),
      question: question.text,
    });
  }

  takeUsage(): Usage {
    return this.client.usage.take();
  }
}

/** The reference as the prompt shows it: the infobox as `key: value` lines (when there is one), then the prose. */
export function referenceText(document: ReferenceDocument): string {
  const infobox = document.infobox === undefined ? '' : `Reference infobox, one field per line as key: value:\n${infoboxLines(document.infobox, document.keyLabels) || '(none)'}\n\n`;
  return `${infobox}Reference text:\n${document.text || '(none)'}`;
}

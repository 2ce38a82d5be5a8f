/**
 * The baselines' offline rules: no network, no model, the same answer for the same input, stored
 * nowhere as model output (provider "offline"). Closed-book knows nothing and answers nothing (the
 * empty prediction). With a document it reads what a perfect reader would, so its score is an upper
 * bound for the reference: the asked infobox key's value (the weekly golden document), or the words
 * that fill a cloze question's blank in the evidence (the offline GrowOVER items are clozes).
 */
import type { BaselineQuestion, BaselineTasks, ReferenceDocument } from './baselineTasks.js';
import type { PromptRef, TaskResult } from './tasks.js';
import type { Usage } from '../model/llmUsage.js';
import { UsageMeter } from './usage.js';

const BASELINE_RULES: PromptRef = { name: 'offline-baseline-rules', version: '1' };
/** The offline rules' way of saying they have no answer: the empty prediction. */
const OFFLINE_NO_ANSWER = '';

/**
 * The baselines' offline rules: closed-book answers nothing; with a document, the asked key's value or the cloze's blank.
 *
 * @example (await new OfflineBaselineTasks().answerClosedBook({ text: 'Who is the mayor of Berlin?', date: '2025-01-20' })).value // { answer: '' }
 */
export class OfflineBaselineTasks implements BaselineTasks {
  readonly provider = 'offline';
  readonly model = 'rules-v1';
  private readonly usage = new UsageMeter(this.provider, this.model);

  async answerClosedBook(): Promise<TaskResult<{ answer: string }>> {
    return { ok: true, value: { answer: OFFLINE_NO_ANSWER }, prompt: BASELINE_RULES };
  }

  async answerFromDocument(question: BaselineQuestion, document: ReferenceDocument): Promise<TaskResult<{ answer: string }>> {
    const fromInfobox = question.key !== undefined ? document.infobox?.[question.key] : undefined;
    const answer = fromInfobox ?? fillBlank(question.text, document.text.split('\n')) ?? OFFLINE_NO_ANSWER;
    return { ok: true, value: { answer }, prompt: BASELINE_RULES };
  }

  takeUsage(): Usage {
    return this.usage.take();
  }
}

const CLOZE = /what fills the blank: "([\s\S]*)"\?$/u;

/**
 * The words of the first sentence that fill the cloze's first blank, or null when the question is
 * no cloze or no sentence fits it.
 *
 * Example: fillBlank('In the article "X", what fills the blank: "It had ___ people"?', ['It had 418,950 people.']) → '418,950'
 */
export function fillBlank(question: string, sentences: readonly string[]): string | null {
  const blanked = CLOZE.exec(question)?.[1];
  if (blanked === undefined || !blanked.includes('___')) return null;
  const pattern = new RegExp(`^${blanked.split('___').map(escapeRegExp).join('(.+?)')}$`, 'u');
  for (const sentence of sentences) {
    const filled = pattern.exec(sentence.trim().replace(/[.!?]+$/u, ''))?.[1];
    if (filled !== undefined) return filled;
  }
  return null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The offline provider of the sentence-change step: no model to ask, so the labeler's models keep their label, and say so. */
import type { LabelTasks, SentenceChange } from './labelTasks.js';
import type { PromptRef, TaskResult } from './tasks.js';
import type { Usage } from '../model/llmUsage.js';
import { UsageMeter } from './usage.js';

const LABEL_RULES: PromptRef = { name: 'offline-label-rules', version: '1' };

/**
 * The offline sentence-change judge: it asks nothing, and keeps the models' label.
 *
 * @example (await new OfflineLabelTasks().judgeSentenceChange()).value?.verdict // 'keep'
 */
export class OfflineLabelTasks implements LabelTasks {
  readonly provider = 'offline';
  readonly model = 'rules-v1';
  private readonly usage = new UsageMeter(this.provider, this.model);

  async judgeSentenceChange(): Promise<TaskResult<SentenceChange>> {
    return { ok: true, value: { verdict: 'keep', reason: 'offline: no LLM asked, the NLI heuristics decide' }, prompt: LABEL_RULES };
  }

  takeUsage(): Usage {
    return this.usage.take();
  }
}

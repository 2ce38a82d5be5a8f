import type { GroundedQaRequest } from '../../src/llm/growoverTasks.js';
import { OfflineGrowoverTasks } from '../../src/llm/offlineGrowoverTasks.js';

/** The offline provider until its nth grounded QA, then an outage: a run that fails part-way. */
export class FailingTasks extends OfflineGrowoverTasks {
  private calls = 0;
  constructor(private readonly failAt: number) {
    super();
  }
  override async generateGroundedQa(request: GroundedQaRequest) {
    if (++this.calls >= this.failAt) throw new Error('LLM server gone');
    return super.generateGroundedQa(request);
  }
}

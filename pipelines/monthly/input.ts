/** What a monthly run gives its stages: the snapshots, the tasks and the models the shell built (docs/ARCHITECTURE.md §7). */
import type { GrowoverTasks } from '../../src/llm/growoverTasks.js';
import type { Prices } from '../../src/llm/usage.js';
import type { Models } from '../../src/models/modelSet.js';
import type { BatchRunner } from '../../src/queue/batchRunner.js';
import type { Stage } from '../../src/runs/stageRunner.js';
import type { Store } from '../../src/store/store.js';

export interface MonthlyInput extends Models {
  /** Absent: the new snapshot is the first, and every article gets initial generation. */
  oldName?: string;
  newName: string;
  tasks: GrowoverTasks;
  prices?: Prices;
  seed: number;
  /** Where the labeling batches run: in this process unless given (`--queue`, docs/ARCHITECTURE.md §13). */
  batchRunner?: BatchRunner;
}

/** The snapshots a monthly run works on: what tells which results the store holds for it. */
export type MonthlyPair = Pick<MonthlyInput, 'oldName' | 'newName'>;

/**
 * A stage of the monthly pipeline. Its results live in the store per article, and can be cleared
 * after the stage is recorded done (an earlier month made again clears the months after it), so the
 * stage also says whether the store holds its work whole.
 */
export interface MonthlyStage extends Stage<MonthlyInput> {
  /** Whether some article of the new snapshot lacks this stage's results in the store. */
  unfinished(input: MonthlyPair, store: Store): boolean;
}

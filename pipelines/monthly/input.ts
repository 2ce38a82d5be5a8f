/** What a monthly run gives its stages: the snapshots, the tasks and the models the shell built (docs/ARCHITECTURE.md §7). */
import type { GrowoverTasks } from '../../src/llm/growoverTasks.js';
import type { Prices } from '../../src/llm/usage.js';
import type { Models } from '../../src/models/modelSet.js';
import type { BatchRunner } from '../../src/queue/batchRunner.js';

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

/** What a monthly run gives its stages: the snapshots, the tasks and the models the shell built (docs/ARCHITECTURE.md §7). */
import type { GrowoverTasks } from '../../src/llm/growoverTasks.js';
import type { Prices } from '../../src/llm/usage.js';
import type { Models } from '../../src/models/modelSet.js';

export interface MonthlyInput extends Models {
  /** Absent: the new snapshot is the first, and every article gets initial generation. */
  oldName?: string;
  newName: string;
  tasks: GrowoverTasks;
  prices?: Prices;
  seed: number;
}

/** What a weekly run gives its stages: the window, the source and the edges the shell built (docs/ARCHITECTURE.md §4). */
import type { Window } from '../../src/model.js';
import type { BatchRunner } from '../../src/queue/batchRunner.js';
import type { RevisionSource } from '../../src/sources/RevisionSource.js';
import type { WeeklyTasks } from '../../src/llm/weeklyTasks.js';
import type { Prices } from '../../src/llm/usage.js';
import type { SearchBackend } from '../../src/search/searchBackend.js';
import type { EntityNameSource } from '../../src/sources/entityNames.js';

export interface WeeklyInput {
  window: Window;
  /** The wiki the run's pages are stored under: empty until `nameWiki` names it. */
  wiki: string;
  /** Needed by the collect stage only. */
  source: RevisionSource | null;
  seed: number;
  revertHours: number;
  keepContent: boolean;
  articleBaseUrl: string;
  /**
   * Set on a run begun before its source said which wiki it is (a dump on standard input, whose
   * `<siteinfo>` comes with its first bytes): collect awaits it before it writes anything, and the
   * run's parameters, `wiki` and `articleBaseUrl` take what it gives (docs/ARCHITECTURE.md §3).
   */
  nameWiki?: () => Promise<{ wiki: string; articleBaseUrl: string }>;
  /** Collect only these pages (sync: the tracked ones); every changed page when absent. */
  onlyPages?: ReadonlySet<number>;
  /**
   * sync: where its source's history ends, when before the window's end (a dump made earlier,
   * `RevisionSource.historyEnd`): the pages are held whole up to there only, not to the window's end.
   */
  sourceEnd?: string;
  /** generate, check, classify: the LLM tasks; the offline rules when absent. */
  tasks?: WeeklyTasks;
  /** Prices per 1,000 tokens, for the cost recorded with the run's LLM usage. */
  prices?: Prices;
  /** check: where descriptiveness searches; a local BM25 index over the store's pages when absent. */
  search?: SearchBackend;
  /** classify: questions kept per domain (750 when absent). */
  domainCap?: number;
  /** export: where the week's release goes; releases/weekly-START beside the database when absent. */
  releaseDir?: string;
  /**
   * labels: where the names of entities the store lacks come from, asked in order (`--labels FILE`,
   * then wbgetentities); none when absent (docs/ARCHITECTURE.md §16).
   */
  entityNames?: readonly EntityNameSource[];
  /** Where the parse and diff batches run: on this process's batch threads unless given (`--queue`, docs/ARCHITECTURE.md §13). */
  batchRunner?: BatchRunner;
  /** Batch threads without the queue (default: one per core); the collect stage then parses as it collects. */
  threads?: number;
  /** Each batch thread's heap in MB (the `threadHeapMb` setting; default src/queue/threadRunner.ts's). */
  threadHeapMb?: number;
}

/** The part of the window the run's source vouches for: all of it, unless the source ends before its end (`sourceEnd`). */
export function heldWindow(input: Pick<WeeklyInput, 'window' | 'sourceEnd'>): Window {
  return input.sourceEnd === undefined ? input.window : { start: input.window.start, end: input.sourceEnd };
}

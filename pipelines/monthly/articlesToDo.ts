/**
 * Which articles a monthly stage works on, and what it clears first. A month's maintain and generate
 * read the items of the month before (docs/ARCHITECTURE.md §7.4), so results are cleared forward in
 * time: a stage that runs again after it ran to its end starts over, and a stage about to write a
 * snapshot's items first clears those of the later snapshots, which were made from them.
 */
import type { GrowoverStage } from '../../src/model/growover.js';
import type { StageContext } from '../../src/runs/stageRunner.js';

/**
 * The articles without the stage's results for the snapshot, after clearing: the stage's own
 * results when it ran to its end before in this run (`--redo`, or its input made again), and the
 * later snapshots' whenever it has something to write.
 */
export function articlesToDo<Article extends { pageId: number }>(context: StageContext, stage: GrowoverStage, snapshot: string, articles: readonly Article[]): Article[] {
  const items = context.store.growover;
  // Redone (--redo, or the snapshot's results made by another run): all of its work again, whatever is stored.
  const ranBefore = context.redone || context.store.runs.getRun(context.runId)?.stages.find((record) => record.stage === stage)?.doneOrder != null;
  if (ranBefore) items.clearStage(snapshot, stage);
  const todo = articles.filter((article) => !items.isDone(snapshot, article.pageId, stage));
  if (ranBefore || todo.length > 0) {
    const cleared = items.clearAfter(snapshot);
    if (cleared.length > 0) context.reporter.warn(`items of later snapshots cleared, made from ${snapshot}'s: run their monthly again`, { snapshots: cleared.join(',') });
  }
  return todo;
}

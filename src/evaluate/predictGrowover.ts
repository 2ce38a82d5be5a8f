/**
 * The GrowOVER baselines (issue 11): every QA item active in a snapshot, answered as of the
 * snapshot's date. closed-book: the date and the question; evidence: the question with the item's
 * evidence sentences in that snapshot. Offline, closed-book answers nothing and evidence fills a
 * cloze's blank from the evidence (an upper bound for the offline items).
 *
 * Example: await predictGrowover(store, new OfflineBaselineTasks(), 'evidence', '2025-04-01')
 */
import type { BaselineTasks } from '../llm/baselineTasks.js';
import type { Store } from '../store/store.js';
import { predictAll, type BaselinePredictions } from './predictBaseline.js';
import { requireWholeMonth } from '../runs/monthlyCommand.js';

/** The GrowOVER baselines `predict growover` runs: the question alone, or with the item's evidence. */
export const GROWOVER_SYSTEMS = ['closed-book', 'evidence'] as const;
export type GrowoverSystem = (typeof GROWOVER_SYSTEMS)[number];

/**
 * Answers every QA item active in a snapshot as one of the baselines.
 *
 * @param store - the store holding the snapshot and its items
 * @param tasks - the answering model: an LLM's tasks, or `OfflineBaselineTasks`
 * @param system - `closed-book` or `evidence`
 * @param snapshot - the snapshot's name
 * @returns the predictions (an item whose call failed has an empty one), and how many failed or were not asked
 * @throws UserError for a snapshot the store does not hold, or whose monthly run stopped part way
 * @example predictionLines((await predictGrowover(store, new OfflineBaselineTasks(), 'evidence', '2025-04-01')).predictions)
 */
export async function predictGrowover(store: Store, tasks: BaselineTasks, system: GrowoverSystem, snapshot: string): Promise<BaselinePredictions> {
  const { snapshots, growover } = store;
  const record = snapshots.requireSnapshot(snapshot);
  requireWholeMonth(store, snapshot);
  // A snapshot of latest revisions has no date of its own: the month of its newest revision stands for it.
  const date = record.asOf?.slice(0, 10) ?? `${growover.month(snapshot)}-01`;
  const items = growover.qaAt(snapshot).filter((item) => item.now !== null);
  if (system === 'closed-book') return predictAll(items, (item) => tasks.answerClosedBook({ text: item.question, date }));
  const articles = new Map<number, { title: string; sentences: string[] }>();
  const article = (pageId: number) => {
    let known = articles.get(pageId);
    if (!known) articles.set(pageId, (known = { title: snapshots.articleTitle(snapshot, pageId), sentences: snapshots.sentences(snapshot, pageId) }));
    return known;
  };
  return predictAll(items, (item) => {
    const state = item.now;
    if (state === null) return null;
    const { title, sentences } = article(state.pageId);
    const evidence = state.indices.map((index) => sentences[index]).filter((text): text is string => text !== undefined);
    if (evidence.length === 0) return null;
    return tasks.answerFromDocument({ text: item.question, date }, { title, text: evidence.join('\n') });
  });
}

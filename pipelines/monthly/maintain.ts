import { fateOf, unchangedContinuations } from '../../src/growover/maintenance.js';
import type { ArticleRef, EvidenceState, ItemKind } from '../../src/model/growover.js';
import type { Store } from '../../src/store/store.js';
import { articlesToDo } from './articlesToDo.js';
import type { MonthlyPair, MonthlyStage } from './input.js';

/**
 * maintain (docs/ARCHITECTURE.md §7.4): carries the items whose evidence is unchanged into the new
 * snapshot, with their evidence moved to its new indices, and retires the others with the reason;
 * an article gone from the new snapshot takes all its items with it.
 */
export const maintainStage: MonthlyStage = {
  name: 'maintain',
  unfinished: (input, store) => maintainWork(input, store).some((article) => !store.growover.isDone(input.newName, article.pageId, 'maintain')),
  async run(input, context) {
    const oldName = input.oldName as string;
    const store = context.store.growover;
    const snapshots = context.store.snapshots;
    const month = store.month(input.newName);
    const work = maintainWork(input, context.store);
    const todo = articlesToDo(context, 'maintain', input.newName, work);
    let done = work.length - todo.length;
    for (const article of todo) {
      const ref: ArticleRef = { snapshot: input.newName, month, pageId: article.pageId, title: article.title };
      const earlier = article.oldPageId === null ? [] : store.evidenceIn(oldName, article.oldPageId);
      const labels = article.gone ? [] : store.labels(oldName, input.newName, article.pageId);
      const continuations = unchangedContinuations(labels);
      const sentences = article.gone ? [] : snapshots.sentences(input.newName, article.pageId);
      const kept: EvidenceState[] = [];
      const retired: Array<{ itemId: string; kind: ItemKind; reason: string }> = [];
      for (const item of earlier) {
        const fate = article.gone ? { kept: false as const, reason: `article not in snapshot ${input.newName}` } : fateOf(item, labels, continuations, sentences);
        if (fate.kept) kept.push({ itemId: item.itemId, kind: item.kind, indices: fate.indices });
        else retired.push({ itemId: item.itemId, kind: item.kind, reason: fate.reason });
      }
      store.saveMaintenance(ref, kept, retired);
      context.reporter.progress(++done, work.length);
    }
    // Counted from the store: the stage's result, whatever earlier attempts of it stored.
    return { articles: work.length, ...store.maintainedCounts(input.newName) };
  },
};

/** The articles maintain works on: each labeled pair, and each article of the old snapshot gone from the new one. */
function maintainWork(input: MonthlyPair, store: Store): Array<{ pageId: number; oldPageId: number | null; title: string; gone: boolean }> {
  const oldName = input.oldName as string;
  const pairs = store.growover.labeledPairs(oldName, input.newName);
  const continued = new Set(pairs.map((pair) => pair.oldPageId));
  const gone = store.snapshots.articles(oldName).filter((article) => !continued.has(article.pageId));
  return [
    ...pairs.map((pair) => ({ pageId: pair.newPageId, oldPageId: pair.oldPageId, title: pair.title, gone: false })),
    ...gone.map((article) => ({ pageId: article.pageId, oldPageId: article.pageId, title: article.title, gone: true })),
  ];
}

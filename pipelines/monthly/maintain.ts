import type { Stage } from '../../src/runs/stageRunner.js';
import { fateOf, unchangedContinuations } from '../../src/growover/maintenance.js';
import type { ArticleRef, EvidenceState, ItemKind } from '../../src/model/growover.js';
import type { MonthlyInput } from './input.js';

/**
 * maintain (docs/ARCHITECTURE.md §7.4): carries the items whose evidence is unchanged into the new
 * snapshot, with their evidence moved to its new indices, and retires the others with the reason;
 * an article gone from the new snapshot takes all its items with it.
 */
export const maintainStage: Stage<MonthlyInput> = {
  name: 'maintain',
  async run(input, context) {
    const oldName = input.oldName as string;
    const store = context.store.growover;
    const snapshots = context.store.snapshots;
    const month = store.month(input.newName);
    const counts = { articles: 0, kept_qa: 0, retired_qa: 0, kept_turns: 0, retired_turns: 0 };
    const pairs = store.labeledPairs(oldName, input.newName);
    const continued = new Set(pairs.map((pair) => pair.oldPageId));
    // Articles gone from the new snapshot take all their items with them.
    const gone = snapshots.articles(oldName).filter((article) => !continued.has(article.pageId));
    const work = [
      ...pairs.map((pair) => ({ pageId: pair.newPageId, oldPageId: pair.oldPageId, title: pair.title, gone: false })),
      ...gone.map((article) => ({ pageId: article.pageId, oldPageId: article.pageId, title: article.title, gone: true })),
    ];
    for (const article of work) {
      counts.articles++;
      const ref: ArticleRef = { snapshot: input.newName, month, pageId: article.pageId, title: article.title };
      if (store.isDone(input.newName, article.pageId, 'maintain')) continue;
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
      counts.kept_qa += kept.filter((item) => item.kind === 'qa').length;
      counts.kept_turns += kept.filter((item) => item.kind === 'turn').length;
      counts.retired_qa += retired.filter((item) => item.kind === 'qa').length;
      counts.retired_turns += retired.filter((item) => item.kind === 'turn').length;
      context.reporter.progress(counts.articles, work.length);
    }
    return counts;
  },
};

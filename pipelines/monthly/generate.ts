import type { Stage } from '../../src/runs/stageRunner.js';
import { withUsage } from '../../src/llm/usage.js';
import { CachingEmbedder } from '../../src/models/embedder.js';
import { generateFromChange, generateInitial, type Generated } from '../../src/growover/generator.js';
import type { ArticleRef } from '../../src/model/growover.js';
import { GrowoverStore } from '../../src/store/growoverStore.js';
import { EmbeddingCache } from '../../src/store/embeddingCache.js';
import { SnapshotStore } from '../../src/store/snapshotStore.js';
import type { MonthlyInput } from './input.js';

/**
 * generate (docs/ARCHITECTURE.md §7.5): new items for every article of the new snapshot, initial
 * ones for an article without earlier items, the others from its new and changed sentences.
 */
export const generateStage: Stage<MonthlyInput> = {
  name: 'generate',
  after: ['maintain'],
  async run(input, context) {
    const store = new GrowoverStore(context.db);
    const snapshots = new SnapshotStore(context.db);
    const month = store.month(input.newName);
    // The label stage stored the vectors of this snapshot's sentences: generation reads them back.
    const embedder = new CachingEmbedder(input.embedder, new EmbeddingCache(context.db));
    const pairs = new Map(input.oldName ? store.labeledPairs(input.oldName, input.newName).map((pair) => [pair.newPageId, pair]) : []);
    const articles = snapshots.articles(input.newName);
    const counts = { articles: articles.length, initial_articles: 0, changed_articles: 0, qa: 0, dialogues: 0, turns: 0, rejects: 0 };
    await withUsage(context, input.tasks, input.prices ?? {}, async () => {
      for (const [position, article] of articles.entries()) {
        if (store.isDone(input.newName, article.pageId, 'generate')) continue;
        const ref: ArticleRef = { snapshot: input.newName, month, pageId: article.pageId, title: article.title };
        const generation = { tasks: input.tasks, embedder, seed: input.seed, article: ref, sentences: store.sentences(input.newName, article.pageId) };
        const oldPageId = pairs.get(article.pageId)?.oldPageId ?? null;
        const hadItems = input.oldName !== undefined && oldPageId !== null && store.evidenceIn(input.oldName, oldPageId).length > 0;
        let generated: Generated;
        if (hadItems) {
          const oldName = input.oldName as string;
          generated = await generateFromChange(generation, store.labels(oldName, input.newName, article.pageId), snapshots.sentences(oldName, oldPageId as number));
          counts.changed_articles++;
        } else {
          generated = await generateInitial(generation);
          counts.initial_articles++;
        }
        store.saveGenerated(ref, generated);
        counts.qa += generated.qa.length;
        counts.dialogues += generated.dialogues.length;
        counts.turns += generated.dialogues.reduce((sum, dialogue) => sum + dialogue.turns.length, 0);
        counts.rejects += generated.rejects.length;
        context.saveProgress({ counts });
        context.reporter.progress(position + 1, articles.length);
      }
    });
    return counts;
  },
};

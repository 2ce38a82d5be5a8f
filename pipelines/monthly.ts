/**
 * The monthly pipeline proper (pipeline `monthly`): after the labels between two snapshots,
 * `maintain` carries the items whose evidence is unchanged into the new snapshot and retires the
 * others, and `generate` makes new items (initial ones for articles without earlier items, the
 * others from new and changed sentences). Without an old snapshot only `generate` runs, initially
 * for every article. Each article's work is one transaction with its done marker: a killed run
 * resumes at the next article, a rerun changes nothing.
 */
import type { Database } from 'better-sqlite3';
import type { Assistant } from '../src/llm/assistant.js';
import type { Prices } from '../src/llm/usage.js';
import { CachingEmbedder, type Embedder } from '../src/models/embedder.js';
import type { NliModel } from '../src/models/nli.js';
import { generateFromChange, generateInitial, type Generated } from '../src/growover/generator.js';
import { GrowoverStore } from '../src/store/growoverStore.js';
import type { ArticleRef, EvidenceState, ItemKind } from '../src/model/growover.js';
import { fateOf, unchangedContinuations } from '../src/growover/maintenance.js';
import { SnapshotStore } from '../src/store/snapshotStore.js';
import type { Reporter } from '../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../src/runs/stageRunner.js';
import { withUsage } from './weekly/llmStageSupport.js';
import { runLabel } from './labels.js';

export interface MonthlyInput {
  /** Absent: the new snapshot is the first, and every article gets initial generation. */
  oldName?: string;
  newName: string;
  assistant: Assistant;
  prices?: Prices;
  embedder: Embedder;
  nli: NliModel;
  seed: number;
}

const maintainStage: Stage<MonthlyInput> = {
  name: 'maintain',
  async run(input, context) {
    const oldName = input.oldName as string;
    const store = new GrowoverStore(context.db);
    const snapshots = new SnapshotStore(context.db);
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

const generateStage: Stage<MonthlyInput> = {
  name: 'generate',
  async run(input, context) {
    const store = new GrowoverStore(context.db);
    const snapshots = new SnapshotStore(context.db);
    const month = store.month(input.newName);
    const embedder = new CachingEmbedder(input.embedder);
    const pairs = new Map(input.oldName ? store.labeledPairs(input.oldName, input.newName).map((pair) => [pair.newPageId, pair]) : []);
    const articles = snapshots.articles(input.newName);
    const counts = { articles: articles.length, initial_articles: 0, changed_articles: 0, qa: 0, dialogues: 0, turns: 0, rejects: 0 };
    await withUsage(input, input.assistant, context, async () => {
      for (const [position, article] of articles.entries()) {
        if (store.isDone(input.newName, article.pageId, 'generate')) continue;
        const ref: ArticleRef = { snapshot: input.newName, month, pageId: article.pageId, title: article.title };
        const generation = { assistant: input.assistant, embedder, seed: input.seed, article: ref, sentences: store.sentences(input.newName, article.pageId) };
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

/** Labels the pair first when they are not yet (the label pipeline skips what it already did). */
export async function runMonthly(options: { db: Database; reporter: Reporter; input: MonthlyInput; llm: string }): Promise<PipelineOutcome> {
  const { db, reporter, input } = options;
  const snapshots = new SnapshotStore(db);
  snapshots.requireSnapshot(input.newName);
  if (input.oldName !== undefined) {
    snapshots.requireSnapshot(input.oldName);
    await runLabel({ db, reporter, input: { oldName: input.oldName, newName: input.newName, embedder: input.embedder, nli: input.nli } });
  }
  const stages = input.oldName === undefined ? [generateStage] : [maintainStage, generateStage];
  return runPipeline({
    db,
    pipeline: 'monthly',
    params: { old: input.oldName ?? null, new: input.newName, llm: options.llm, seed: input.seed, embedder: input.embedder.id },
    stages,
    selected: stages.map((stage) => stage.name),
    input,
    reporter,
  });
}

/**
 * The GrowOVER part of `wikidelta demo`: the monthly pipeline over the demo's snapshots with the
 * offline provider, the monthly counts, and one article's QA items followed across the snapshots
 * (made, kept with their evidence moved, retired, replaced).
 */
import type { Store } from '../../store/store.js';
import { runMonthly } from '../../../pipelines/monthly.js';
import { OfflineGrowoverTasks } from '../../llm/offlineGrowoverTasks.js';
import type { Embedder } from '../../models/embedder.js';
import type { NliModel } from '../../models/nli.js';
import { monthlyCounts } from '../../release/growoverRelease.js';
import type { Reporter } from '../../runs/progress.js';

const DEMO_SEED = 1;

export async function demoGrowover(options: {
  store: Store;
  reporter: Reporter;
  snapshots: readonly string[];
  embedder: Embedder;
  nli: NliModel;
  /** The store as the commands printed name it. */
  db: string;
  out: (line?: string) => void;
}): Promise<void> {
  const { store, reporter, snapshots, out } = options;
  const tasks = new OfflineGrowoverTasks();
  for (const [k, newName] of snapshots.entries()) {
    const oldName = snapshots[k - 1];
    await runMonthly({
      store,
      reporter,
      llm: 'offline',
      input: { ...(oldName ? { oldName } : {}), newName, tasks, embedder: options.embedder, nli: options.nli, seed: DEMO_SEED },
    });
  }
  out('GrowOVER items per snapshot (offline cloze and dialogue rules; QA unchanged/new/changed/deleted, dialogue turns the same):');
  for (const month of monthlyCounts(store, snapshots.at(-1) as string)) {
    const q = month.qa;
    const t = month.turns;
    out(`  ${month.snapshot}: QA ${q.unchanged}/${q.new}/${q.changed}/${q.deleted}, turns ${t.unchanged}/${t.new}/${t.changed}/${t.deleted}`);
  }
  const items = store.growover;
  const featured = items.featuredArticle();
  if (featured === undefined) return;
  out(`one article across the snapshots: ${featured.title}`);
  for (const snapshot of snapshots) {
    const qa = items.articleQaAt(snapshot, featured.pageId);
    if (qa.length === 0) continue;
    out(`  ${snapshot}`);
    for (const item of qa) {
      if (item.indices === null) {
        out(`    ${'retired'.padEnd(10)}${clip(item.question)}  (${item.retiredReason})`);
        continue;
      }
      const answer = item.oldAnswer === null ? item.answer : `${item.oldAnswer} → ${item.answer}`;
      out(`    ${item.type.padEnd(10)}${clip(item.question)}  answer: ${answer}  evidence: sentence ${item.indices.join(', ')}`);
    }
  }
  out(`release: wikidelta export growover --db ${options.db} --snapshot ${snapshots.at(-1)} --out releases/growover-${snapshots.at(-1)}`);
}

function clip(text: string, length = 110): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

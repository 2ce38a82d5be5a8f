/**
 * The monthly part of `wikidelta demo`: snapshots of the embedded sample on the first of three
 * months, each consecutive pair labeled with the offline models, counts and a few examples printed.
 */
import type { Store } from '../../store/store.js';
import { runLabel } from '../../../pipelines/monthly/label.js';
import { runSnapshot } from '../../../pipelines/monthly/snapshot.js';
import { CachingEmbedder } from '../../models/embedder.js';
import { chooseModels } from '../../models/choose.js';
import type { Reporter } from '../../runs/progress.js';
import { demoGrowover } from './growoverDemo.js';
import { dumpSnapshotArticles } from '../../sources/snapshotSources.js';

/** The sample's suggested snapshot dates (data/sample/README.md). */
const SNAPSHOT_DATES = ['2025-02-01', '2025-03-01', '2025-04-01'];
const EXAMPLES_PER_PAIR = 3;

export async function demoMonthly(options: { store: Store; reporter: Reporter; dump: string; wiki: string; db: string; out: (line?: string) => void }): Promise<void> {
  const { store, reporter, out } = options;
  const snapshots = store.snapshots;
  for (const date of SNAPSHOT_DATES) {
    const asOf = `${date}T00:00:00Z`;
    await runSnapshot({
      store,
      reporter,
      input: { snapshot: { name: date, wiki: options.wiki, source: options.dump, asOf }, articles: () => dumpSnapshotArticles(options.dump, asOf) },
    });
  }
  out(`monthly snapshots of the sample (each article as of DATE 00:00 UTC): ${SNAPSHOT_DATES.map((date) => `${date} ${snapshots.articles(date).length} articles`).join(', ')}`);
  const defaults = await chooseModels({});
  // One cache across the pairs and the monthly runs: the demo's snapshots share most sentences.
  const embedder = new CachingEmbedder(defaults.embedder);
  const { nli } = defaults;
  for (let k = 1; k < SNAPSHOT_DATES.length; k++) {
    const [oldName, newName] = [SNAPSHOT_DATES[k - 1] as string, SNAPSHOT_DATES[k] as string];
    await runLabel({ store, reporter, input: { oldName, newName, embedder, nli } });
    const counts = Object.entries(snapshots.labelCounts(oldName, newName)).map(([label, count]) => `${count} ${label}`).join(', ');
    out(`sentence labels ${oldName} → ${newName} (${embedder.id} + ${nli.id}): ${counts}`);
    const changed = [...snapshots.labels(oldName, newName)].filter((label) => label.label === 'changed').slice(0, EXAMPLES_PER_PAIR);
    for (const label of changed) out(`  changed in ${label.title}: "${clip(label.oldText ?? '')}" → "${clip(label.text)}"`);
  }
  await demoGrowover({ store, reporter, snapshots: SNAPSHOT_DATES, embedder, nli, db: options.db, out });
}

function clip(text: string, length = 70): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

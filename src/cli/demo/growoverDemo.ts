/**
 * The GrowOVER part of `wikidelta demo`: the monthly pipeline over the demo's snapshots with the
 * offline provider, the monthly counts, and one article's QA items followed across the snapshots
 * (made, kept with their evidence moved, retired, replaced).
 */
import type { Database } from 'better-sqlite3';
import { runMonthly } from '../../../pipelines/monthly.js';
import { OfflineAssistant } from '../../llm/offlineAssistant.js';
import { EvidenceIndices } from '../../store/growoverStore.js';
import type { Embedder } from '../../models/embedder.js';
import type { NliModel } from '../../models/nli.js';
import { monthlyCounts } from '../../release/growoverRelease.js';
import type { Reporter } from '../../runs/progress.js';

const DEMO_SEED = 1;

interface ItemAt {
  id: string;
  question: string;
  answer: string;
  old_answer: string | null;
  snapshot: string;
  type: string;
  indices: string | null;
  retired_reason: string | null;
}

export async function demoGrowover(options: {
  db: Database;
  reporter: Reporter;
  snapshots: readonly string[];
  embedder: Embedder;
  nli: NliModel;
  out: (line?: string) => void;
}): Promise<void> {
  const { db, reporter, snapshots, out } = options;
  const assistant = new OfflineAssistant();
  for (const [k, newName] of snapshots.entries()) {
    const oldName = snapshots[k - 1];
    await runMonthly({
      db,
      reporter,
      llm: 'offline',
      input: { ...(oldName ? { oldName } : {}), newName, assistant, embedder: options.embedder, nli: options.nli, seed: DEMO_SEED },
    });
  }
  out('GrowOVER items per snapshot (offline cloze and dialogue rules; QA unchanged/new/changed/deleted, dialogue turns the same):');
  for (const month of monthlyCounts(db, snapshots.at(-1) as string)) {
    const q = month.qa;
    const t = month.turns;
    out(`  ${month.snapshot}: QA ${q.unchanged}/${q.new}/${q.changed}/${q.deleted}, turns ${t.unchanged}/${t.new}/${t.changed}/${t.deleted}`);
  }
  const pageId = featuredArticle(db);
  if (pageId === undefined) return;
  const title = db.prepare('SELECT title FROM growover_qa WHERE page_id = ? LIMIT 1').pluck().get(pageId) as string;
  out(`one article across the snapshots: ${title}`);
  for (const snapshot of snapshots) {
    const items = itemsAt(db, snapshot, pageId);
    if (items.length === 0) continue;
    out(`  ${snapshot}`);
    for (const item of items) {
      if (item.indices === null) {
        out(`    ${'retired'.padEnd(10)}${clip(item.question)}  (${item.retired_reason})`);
        continue;
      }
      const indices = EvidenceIndices.parse(JSON.parse(item.indices));
      const answer = item.old_answer === null ? item.answer : `${item.old_answer} → ${item.answer}`;
      out(`    ${item.type.padEnd(10)}${clip(item.question)}  answer: ${answer}  evidence: sentence ${indices.join(', ')}`);
    }
  }
  out(`release: wikidelta export growover --db data/demo.sqlite --snapshot ${snapshots.at(-1)} --out releases/growover-${snapshots.at(-1)}`);
}

/** The article with a CHANGED item if any (the most interesting story), else the one with the most items. */
function featuredArticle(db: Database): number | undefined {
  return db
    .prepare(
      `SELECT page_id FROM growover_qa GROUP BY page_id
       ORDER BY MAX(type = 'changed') DESC, MAX(status = 'retired') DESC, COUNT(*) DESC, page_id LIMIT 1`,
    )
    .pluck()
    .get() as number | undefined;
}

/** The article's items active in the snapshot (with their evidence) and those retired there. */
function itemsAt(db: Database, snapshot: string, pageId: number): ItemAt[] {
  return db
    .prepare(
      `SELECT q.id, q.question, q.answer, q.old_answer, e.snapshot, e.type, e.indices, NULL AS retired_reason
       FROM growover_evidence e JOIN growover_qa q ON q.id = e.item_id WHERE e.snapshot = ? AND e.page_id = ?
       UNION ALL
       SELECT q.id, q.question, q.answer, q.old_answer, q.retired_snapshot, 'retired', NULL, q.retired_reason
       FROM growover_qa q WHERE q.retired_snapshot = ? AND q.page_id = ?
       ORDER BY 1`,
    )
    .all(snapshot, pageId, snapshot, pageId) as ItemAt[];
}

function clip(text: string, length = 110): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

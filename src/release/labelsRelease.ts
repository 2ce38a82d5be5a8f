/**
 * A release of the sentence labels between two snapshots (docs/ARCHITECTURE.md §8): the labels as
 * `export labels` prints them (one JSON line per sentence of the new snapshot, then one per deleted
 * old sentence), the same records as a typed Parquet table, and a dataset card. Rendering only: the
 * same store gives byte-identical files.
 */
import type { StoredLabel } from '../model/labels.js';
import type { Store } from '../store/store.js';
import { cardFrontMatter, loadingSection } from './datasetCard.js';
import { cardConfigs, jsonLinesFormat, tableFileList, tableFiles, type ReleaseTable } from './formats/index.js';
import type { TableRecord, TableSpec } from './parquetTable.js';
import type { ReleaseDraft } from './writeRelease.js';

const LABELS_TABLE: TableSpec = {
  name: 'labels',
  columns: [
    { name: 'title', type: 'string', repeats: true },
    { name: 'label', type: 'string', repeats: true },
    { name: 'new_index', type: 'int32', nullable: true },
    { name: 'new_text', type: 'string', nullable: true },
    { name: 'old_index', type: 'int32', nullable: true },
    { name: 'old_indices', type: 'int32s' },
    { name: 'old_text', type: 'string', nullable: true },
    { name: 'similarity', type: 'float64', nullable: true },
    { name: 'backend', type: 'string', nullable: true, repeats: true },
    { name: 'step', type: 'string', nullable: true, repeats: true },
    { name: 'evidence', type: 'string', nullable: true },
  ],
};

/** A label as a JSON line: a new sentence with its label and match, or a deleted old sentence. */
export function labelRecord(label: StoredLabel): TableRecord {
  if (label.side === 'old') return { title: label.title, label: 'deleted', old_index: label.index, old_text: label.text };
  return {
    title: label.title,
    new_index: label.index,
    new_text: label.text,
    label: label.label,
    old_indices: label.oldIndices,
    old_text: label.oldText,
    similarity: label.similarity,
    backend: label.backend,
    step: label.step,
    evidence: label.evidence,
  };
}

/** The sentence-label release of a snapshot pair: every sentence of the new snapshot with its label, similarity and evidence. */
export async function renderLabelsRelease(store: Store, oldName: string, newName: string): Promise<ReleaseDraft> {
  const snapshots = store.snapshots;
  const wiki = snapshots.requireSnapshot(newName).wiki;
  const records = [...snapshots.labels(oldName, newName)].map(labelRecord);
  const counts = snapshots.labelCounts(oldName, newName);
  // labels.jsonl is what `export labels` prints: without the keys a deleted sentence has no value for.
  const table: ReleaseTable = { spec: LABELS_TABLE, records, ownShape: [jsonLinesFormat.name] };
  const files = await tableFiles([table]);
  files.set('labels.jsonl', records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  files.set('README.md', datasetCard(oldName, newName, table, counts));
  return {
    kind: 'labels',
    series: `labels ${wiki}`,
    date: store.growover.date(newName),
    command: `wikidelta export labels --old ${oldName} --new ${newName}`,
    parameters: { old: oldName, new: newName },
    files,
  };
}

function datasetCard(oldName: string, newName: string, table: ReleaseTable, counts: Record<string, number>): string {
  const frontMatter = cardFrontMatter({
    prettyName: `wikidelta sentence labels ${oldName} → ${newName}`,
    language: ['en'],
    taskCategories: ['text-classification'],
    taskIds: ['natural-language-inference'],
    configs: cardConfigs([table]),
  });
  return `${frontMatter}# wikidelta sentence labels ${oldName} → ${newName}

Every sentence of the articles of snapshot ${newName}, labeled against the same article in
${oldName} (unchanged, changed, new, undecided), then every sentence of ${oldName} that is gone
(deleted), as wikidelta's labeler decided, with the evidence of each decision.

| label | sentences |
|---|---|
${Object.entries(counts).map(([label, n]) => `| ${label} | ${n} |`).join('\n')}

## Files

| file | content |
|---|---|
| ${tableFileList([table])} | one row per sentence: \`title\`, \`label\`, \`new_index\` and \`new_text\` (the sentence in ${newName}; null for deleted ones), \`old_index\` (a deleted sentence's index in ${oldName}), \`old_indices\` and \`old_text\` (the sentences of ${oldName} it was matched with), \`similarity\`, \`backend\` and \`step\` (what decided), \`evidence\` (why, past the similarity rules). The JSON lines leave out the keys a deleted sentence has no value for |

Indices are sentence indices of the article, as cut by wikidelta's one sentence splitter.

${loadingSection('labels', 'labels')}
## Licence

The text of this release is derived from Wikipedia and is available under the Creative Commons
Attribution-ShareAlike licence (CC BY-SA 4.0); the authors are the contributors named in each
article's history.
`;
}

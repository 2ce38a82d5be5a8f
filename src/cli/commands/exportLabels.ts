import type { Command } from 'commander';
import { once } from 'node:events';
import { writeFileAtomically } from '../../release/atomicFiles.js';
import { UserError } from '../../errors.js';
import type { StoredLabel } from '../../model/labels.js';
import { SnapshotStore } from '../../store/snapshotStore.js';
import { withSession } from '../session.js';

interface ExportLabelsFlags {
  old: string;
  new: string;
  out?: string;
}

/** `export labels`: one JSON object per sentence of the new snapshot, then one per deleted old sentence, article by article. */
export function registerExportLabels(exportGroup: Command): void {
  exportGroup
    .command('labels')
    .description('sentence labels between two snapshots as JSON lines')
    .requiredOption('--old <name>', 'the earlier snapshot')
    .requiredOption('--new <name>', 'the later snapshot')
    .option('--out <file>', 'write to this file (default: standard output)')
    .action(async (flags: ExportLabelsFlags, command: Command) => {
      await withSession(command, { write: false, lock: true }, async (session) => {
        const store = new SnapshotStore(session.db);
        store.requireSnapshot(flags.old);
        store.requireSnapshot(flags.new);
        if (Object.values(store.labelCounts(flags.old, flags.new)).every((count) => count === 0)) {
          throw new UserError(`no labels between "${flags.old}" and "${flags.new}": run wikidelta label --old ${flags.old} --new ${flags.new} first`);
        }
        const lines = labelLines(store.labels(flags.old, flags.new));
        if (flags.out) {
          writeFileAtomically(flags.out, lines);
          return;
        }
        for (const line of lines) {
          if (!process.stdout.write(line)) await once(process.stdout, 'drain');
        }
      });
    });
}

function* labelLines(labels: Iterable<StoredLabel>): Iterable<string> {
  for (const label of labels) yield `${JSON.stringify(toRecord(label))}\n`;
}

function toRecord(label: StoredLabel): Record<string, unknown> {
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

import { Option, type Command } from 'commander';
import { once } from 'node:events';
import { writeFileAtomically } from '../../release/atomicFiles.js';
import { UserError } from '../../errors.js';
import type { StoredLabel } from '../../model/labels.js';
import { labelRecord, renderLabelsRelease } from '../../release/labelsRelease.js';
import { writeRelease } from '../../release/writeRelease.js';
import { addOptions, outputFile, outputFileOption, refuseUsage } from '../options.js';
import { previousChoice, previousOptions, releaseLine, releaseSummary, type PreviousFlags } from '../releaseOptions.js';
import { withSession } from '../session.js';

interface ExportLabelsFlags extends PreviousFlags {
  old: string;
  new: string;
  out?: string;
  release?: string;
}

/**
 * `export labels`: one JSON object per sentence of the new snapshot, then one per deleted old
 * sentence, article by article; with --release, a release of them (JSON lines, Parquet, card,
 * manifest, changes).
 */
export function registerExportLabels(exportGroup: Command): void {
  addOptions<ExportLabelsFlags>(exportGroup.command('labels').description('sentence labels between two snapshots as JSON lines, or as a release with --release'), {
    old: new Option('--old <name>', 'the earlier snapshot').makeOptionMandatory(),
    new: new Option('--new <name>', 'the later snapshot').makeOptionMandatory(),
    out: outputFileOption('--out <file>', 'write to this file'),
    release: new Option('--release <dir>', 'write a release directory: labels.jsonl, labels.parquet, README.md, MANIFEST.json, CHANGES.md'),
    ...previousOptions('--release'),
  }).action(async (flags: ExportLabelsFlags, command: Command) => {
    if (flags.out !== undefined && flags.release !== undefined) refuseUsage(command, '--out writes one file, --release a release directory: give one of them');
    if (flags.previous !== undefined && flags.release === undefined) refuseUsage(command, '--previous is for a release (--release DIR)');
    await withSession(command, { write: false, lock: true }, async (session) => {
      const snapshots = session.store.snapshots;
      snapshots.requireSnapshot(flags.old);
      snapshots.requireSnapshot(flags.new);
      if (Object.values(snapshots.labelCounts(flags.old, flags.new)).every((count) => count === 0)) {
        throw new UserError('E_PREREQUISITE_MISSING', `no labels between "${flags.old}" and "${flags.new}": run wikidelta label --old ${flags.old} --new ${flags.new} first`);
      }
      if (flags.release !== undefined) {
        const written = await writeRelease(session.store, flags.release, await renderLabelsRelease(session.store, flags.old, flags.new), previousChoice(flags));
        process.stdout.write(
          session.json
            ? `${JSON.stringify({ dir: flags.release, ...releaseSummary(written) })}\n`
            : `release of the labels ${flags.old} → ${flags.new} written to ${flags.release}\n${releaseLine(written)}`,
        );
        return;
      }
      const lines = labelLines(snapshots.labels(flags.old, flags.new));
      const out = outputFile(flags.out);
      if (out !== undefined) {
        writeFileAtomically(out, lines);
        return;
      }
      for (const line of lines) {
        if (!process.stdout.write(line)) await once(process.stdout, 'drain');
      }
    });
  });
}

function* labelLines(labels: Iterable<StoredLabel>): Iterable<string> {
  for (const label of labels) yield `${JSON.stringify(labelRecord(label))}\n`;
}

import { Option, type Command } from 'commander';
import { UserError } from '../../errors.js';
import { renderGrowoverRelease } from '../../release/growoverRelease.js';
import { writeRelease } from '../../release/writeRelease.js';
import { growoverFigures, withFigures } from '../../plots/datasetFigures.js';
import { addOptions } from '../options.js';
import { previousChoice, previousOptions, releaseLine, releaseSummary, type PreviousFlags } from '../releaseOptions.js';
import { withSession, type GlobalFlags } from '../session.js';
import { monthlyCommandFor } from '../../runs/monthlyCommand.js';

interface ExportGrowoverFlags extends PreviousFlags {
  snapshot: string;
  out: string;
}

/** `export growover`: a snapshot's monthly release, GrowOVER's formats plus Parquet tables, the native one, a dataset card, manifest and changes. */
export function registerExportGrowover(exportGroup: Command): void {
  addOptions<ExportGrowoverFlags>(
    exportGroup
      .command('growover')
      .description("a snapshot's GrowOVER QA and dialogue release: qa.jsonl, article_dialogue.jsonl, dialogue.jsonl, turn.jsonl, their Parquet tables, native.jsonl, README.md, MANIFEST.json, CHANGES.md"),
    {
      snapshot: new Option('--snapshot <name>', 'the snapshot whose items to release').makeOptionMandatory(),
      out: new Option('--out <dir>', 'the release directory').makeOptionMandatory(),
      ...previousOptions(),
    },
  ).action(async (flags: ExportGrowoverFlags, command: Command) => {
    const { months, written } = await withSession(command, { write: false, lock: true }, async (session) => {
      const snapshot = session.store.snapshots.requireSnapshot(flags.snapshot);
      const { draft, months } = await renderGrowoverRelease(session.store, flags.snapshot);
      if (!months.some((month) => month.snapshot === flags.snapshot)) {
        throw new UserError('E_PREREQUISITE_MISSING', `no GrowOVER items in snapshot "${flags.snapshot}": run ${monthlyCommandFor(session.store, flags.snapshot)} first`);
      }
      // The figures of the snapshots up to this one, as the card's month table counts them.
      const files = await withFigures(draft.files, growoverFigures(session.store, snapshot.asOf ?? snapshot.name));
      return { months, written: await writeRelease(session.store, flags.out, { ...draft, files }, previousChoice(flags)) };
    });
    const current = months.find((month) => month.snapshot === flags.snapshot);
    if (command.optsWithGlobals<GlobalFlags>().json) {
      process.stdout.write(`${JSON.stringify({ snapshot: flags.snapshot, out: flags.out, counts: current, ...releaseSummary(written) })}\n`);
      return;
    }
    const describe = (c: Record<string, number>) => Object.entries(c).map(([k, v]) => `${v} ${k}`).join(', ');
    process.stdout.write(`release ${flags.snapshot} written to ${flags.out}\n  QA: ${describe(current?.qa ?? {})}\n  turns: ${describe(current?.turns ?? {})}\n${releaseLine(written)}`);
  });
}

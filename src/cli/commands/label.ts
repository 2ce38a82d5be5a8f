import type { Command } from 'commander';
import { runLabel } from '../../../pipelines/monthly/label.js';
import { SnapshotStore } from '../../store/snapshotStore.js';
import { pricesOf } from '../../llm/openTasks.js';
import { addModelOptions, modelsFrom, withLabelLlm, type ModelFlags } from '../modelOptions.js';
import { withSession } from '../session.js';

interface LabelFlags extends ModelFlags {
  old: string;
  new: string;
}

export function registerLabel(program: Command): void {
  addModelOptions(
    program
      .command('label')
      .description('label every sentence of the new snapshot unchanged, changed, new or undecided against the old one (and deleted old ones); prints the counts')
      .requiredOption('--old <name>', 'the earlier snapshot')
      .requiredOption('--new <name>', 'the later snapshot'),
  ).action(async (flags: LabelFlags, command: Command) => {
    const models = await modelsFrom(flags);
    const counts = await withSession(command, { write: true, flags: { llm: flags.llm } }, async (session) => {
      const store = new SnapshotStore(session.db);
      store.requireSnapshot(flags.old);
      store.requireSnapshot(flags.new);
      const input = { oldName: flags.old, newName: flags.new, ...withLabelLlm(models, session.db, session.settings), prices: pricesOf(session.settings) };
      await runLabel({ db: session.db, reporter: session.reporter, input });
      return store.labelCounts(flags.old, flags.new);
    });
    if (command.optsWithGlobals<{ json?: boolean }>().json) {
      process.stdout.write(`${JSON.stringify({ old_snapshot: flags.old, new_snapshot: flags.new, counts })}\n`);
      return;
    }
    process.stdout.write(`labels ${flags.old} → ${flags.new}\n`);
    for (const [label, count] of Object.entries(counts)) process.stdout.write(`  ${label.padEnd(10)} ${count}\n`);
  });
}

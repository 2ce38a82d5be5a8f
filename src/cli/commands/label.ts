import { Option, type Command } from 'commander';
import { runLabel } from '../../../pipelines/monthly/label.js';
import { pricesOf, SessionTasks } from '../../llm/openTasks.js';
import { modelOptions, modelsFrom, withLabelLlm, type ModelFlags } from '../modelOptions.js';
import { addOptions } from '../options.js';
import { withSession, type GlobalFlags } from '../session.js';
import { QUEUE_OPTION_HELP, queueOptions, queueRunnerFor, requireQueue, type QueueFlags } from '../queueOption.js';

interface LabelFlags extends ModelFlags, QueueFlags {
  old: string;
  new: string;
}

export function registerLabel(program: Command): void {
  addOptions<LabelFlags>(
    program
      .command('label')
      .description('label every sentence of the new snapshot unchanged, changed, new or undecided against the old one (and deleted old ones); prints the counts'),
    {
      old: new Option('--old <name>', 'the earlier snapshot').makeOptionMandatory(),
      new: new Option('--new <name>', 'the later snapshot').makeOptionMandatory(),
      ...queueOptions(QUEUE_OPTION_HELP),
      ...modelOptions(),
    },
  ).action(async (flags: LabelFlags, command: Command) => {
    await requireQueue(flags.queue);
    const models = await modelsFrom(flags);
    const counts = await withSession(command, { write: true, flags: { llm: flags.llm } }, async (session) => {
      const store = session.store.snapshots;
      store.requireSnapshot(flags.old);
      store.requireSnapshot(flags.new);
      const input = { oldName: flags.old, newName: flags.new, ...withLabelLlm(models, new SessionTasks(session.store, session.settings)), prices: pricesOf(session.settings) };
      await runLabel({ store: session.store, reporter: session.reporter, input: { ...input, ...(await queueRunnerFor(flags.queue, flags, session.settings)) } });
      return store.labelCounts(flags.old, flags.new);
    });
    if (command.optsWithGlobals<GlobalFlags>().json) {
      process.stdout.write(`${JSON.stringify({ old_snapshot: flags.old, new_snapshot: flags.new, counts })}\n`);
      return;
    }
    process.stdout.write(`labels ${flags.old} → ${flags.new}\n`);
    for (const [label, count] of Object.entries(counts)) process.stdout.write(`  ${label.padEnd(10)} ${count}\n`);
  });
}

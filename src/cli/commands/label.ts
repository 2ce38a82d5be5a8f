import type { Command } from 'commander';
import { runLabel } from '../../../pipelines/monthly/label.js';
import { SnapshotStore } from '../../store/snapshotStore.js';
import { chosenProvider, pricesOf } from '../../llm/openTasks.js';
import { UserError } from '../../errors.js';
import { addModelOptions, modelChoiceOf, modelsFrom, withLabelLlm, type ModelFlags } from '../modelOptions.js';
import { withSession } from '../session.js';
import { parseQueueUrl, requireReachable } from '../../queue/connection.js';

interface LabelFlags extends ModelFlags {
  old: string;
  new: string;
  queue?: string;
}

export function registerLabel(program: Command): void {
  addModelOptions(
    program
      .command('label')
      .description('label every sentence of the new snapshot unchanged, changed, new or undecided against the old one (and deleted old ones); prints the counts')
      .requiredOption('--old <name>', 'the earlier snapshot')
      .requiredOption('--new <name>', 'the later snapshot')
      .option('--queue <url>', 'label on the workers of this BullMQ queue (redis://HOST:PORT, see wikidelta worker); this process writes the store'),
  ).action(async (flags: LabelFlags, command: Command) => {
    // A bad or unreachable queue is one line before the store is touched.
    if (flags.queue) await requireReachable(parseQueueUrl(flags.queue));
    const models = await modelsFrom(flags);
    const counts = await withSession(command, { write: true, flags: { llm: flags.llm } }, async (session) => {
      const store = new SnapshotStore(session.db);
      store.requireSnapshot(flags.old);
      store.requireSnapshot(flags.new);
      const input = { oldName: flags.old, newName: flags.new, ...withLabelLlm(models, session.db, session.settings), prices: pricesOf(session.settings) };
      // An online LLM judge needs its client and its cache in the store: it does not run on workers yet.
      if (flags.queue && chosenProvider(session.settings) !== 'offline') throw new UserError('--queue runs the offline judge only: add --llm offline, or label without --queue to ask the LLM');
      // BullMQ loads only when a queue is asked for, not with every command's start-up.
      const batchRunner = flags.queue ? new (await import('../../queue/bullmqRunner.js')).BullmqRunner(flags.queue, modelChoiceOf(flags), 'offline') : undefined;
      await runLabel({ db: session.db, reporter: session.reporter, input: { ...input, ...(batchRunner ? { batchRunner } : {}) } });
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

import type { Command } from 'commander';
import { runLabel } from '../../../pipelines/labels.js';
import { chooseModels } from '../../models/choose.js';
import { SnapshotStore } from '../../store/snapshotStore.js';
import { withSession } from '../session.js';

interface LabelFlags {
  old: string;
  new: string;
  embeddingModel?: string;
  sameThreshold?: string;
  nliModel?: string;
  modelCache?: string;
}

export function registerLabel(program: Command): void {
  program
    .command('label')
    .description('label every sentence of the new snapshot unchanged, changed, new or undecided against the old one (and deleted old ones); prints the counts')
    .requiredOption('--old <name>', 'the earlier snapshot')
    .requiredOption('--new <name>', 'the later snapshot')
    .option('--embedding-model <dir>', 'ONNX sentence-embedding model directory (default: Universal Sentence Encoder Lite)')
    .option('--same-threshold <x>', 'cosine at which two texts are the same statement, calibrated for the embedding model')
    .option('--nli-model <dir>', 'ONNX NLI cross-encoder directory (default: the heuristic NLI)')
    .option('--model-cache <dir>', 'where models named by hub id are downloaded, on machines that reach the hub')
    .action(async (flags: LabelFlags, command: Command) => {
      const { embedder, nli } = chooseModels({
        embeddingModel: flags.embeddingModel,
        sameThreshold: flags.sameThreshold,
        nliModel: flags.nliModel,
        modelCache: flags.modelCache,
      });
      const counts = await withSession(command, { write: true }, async (session) => {
        const store = new SnapshotStore(session.db);
        store.requireSnapshot(flags.old);
        store.requireSnapshot(flags.new);
        await runLabel({ db: session.db, reporter: session.reporter, input: { oldName: flags.old, newName: flags.new, embedder, nli } });
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

import { Command, CommanderError, Option } from 'commander';
import { oneLine, UserError } from '../errors.js';
import { wikideltaVersion } from '../settings.js';
import { registerAnswer } from './commands/answer.js';
import { registerAudit } from './commands/audit.js';
import { registerChanges } from './commands/changes.js';
import { registerDailyQa } from './commands/dailyqa.js';
import { addGroups } from './commands/groups.js';
import { registerDemo } from './commands/demo.js';
import { registerExportGrowover } from './commands/exportGrowover.js';
import { registerExportLabels } from './commands/exportLabels.js';
import { registerExportWeekly } from './commands/exportWeekly.js';
import { registerEvaluate } from './commands/evaluate.js';
import { registerLabel } from './commands/label.js';
import { registerLeaderboard } from './commands/leaderboard.js';
import { registerMonthly } from './commands/monthly.js';
import { registerPredict } from './commands/predict.js';
import { registerRelease } from './commands/release.js';
import { registerServe } from './commands/serve.js';
import { registerSnapshot } from './commands/snapshot.js';
import { registerStats } from './commands/stats.js';
import { registerStatus } from './commands/status.js';
import { registerSync } from './commands/sync.js';
import { registerWeekly } from './commands/weekly.js';
import { registerWorker } from './commands/worker.js';

export function buildProgram(): Command {
  const program = new Command('wikidelta')
    .description("Turns Wikipedia's changes into time-sensitive question-answering datasets")
    .version(wikideltaVersion)
    .addOption(new Option('--db <path>', 'SQLite database (else WIKIDELTA_DB, else data/wikidelta.sqlite)'))
    .addOption(new Option('--json', 'machine-readable output (and JSON-lines progress)'))
    .addOption(new Option('--config <path>', 'JSON config file (else WIKIDELTA_CONFIG, else ./wikidelta.config.json if present)'))
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`wikidelta: ${oneLine(text.replace(/^error: /, ''))}\n`) });
  registerWeekly(program);
  registerChanges(program);
  registerAnswer(program);
  registerSync(program);
  registerStats(program);
  registerEvaluate(program);
  registerSnapshot(program);
  registerLabel(program);
  registerMonthly(program);
  registerStatus(program);
  registerWorker(program);
  registerDemo(program);
  registerPredict(program);
  registerLeaderboard(program);
  registerServe(program);
  registerAudit(program);
  const groups = addGroups(program);
  registerDailyQa(groups);
  registerExportLabels(groups.exportGroup);
  registerExportWeekly(groups.exportGroup);
  registerExportGrowover(groups.exportGroup);
  registerRelease(program);
  exitOverrideEverywhere(program);
  return program;
}

/** Usage errors anywhere in the command tree end in one line and exit code 2, never process.exit. */
function exitOverrideEverywhere(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) exitOverrideEverywhere(sub);
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are exits with code 0; usage errors were already printed as one line.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof UserError) {
      process.stderr.write(`wikidelta: ${oneLine(error)}\n`);
      return 1;
    }
    process.stderr.write(`wikidelta: internal error: ${oneLine(error)}\n`);
    if (process.env.WIKIDELTA_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    return 70;
  }
}

// A reader that stops early (`| head`) is not an error of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const code = await main(process.argv.slice(2));
// main awaits all of a command's work, so what may still hold the event loop here is a library's
// housekeeping, not ours: after a --queue run's large results, the Redis reply parser shrinks its
// buffer every 50 ms for up to a second before it lets the process go. Exit once what was written
// to standard output and error has been handed over.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((flushed) => stream.write('', () => flushed()))));
process.exit(code);

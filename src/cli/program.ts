/**
 * The command tree: the global options and every command, each registered from its own module.
 * Built apart from the entry point (main.ts) so tests can build and walk it without running it.
 */
import { Command, Option } from 'commander';
import { addOptions } from './options.js';
import type { GlobalFlags } from './session.js';
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
  const program = addOptions<GlobalFlags>(new Command('wikidelta').description("Turns Wikipedia's changes into time-sensitive question-answering datasets").version(wikideltaVersion), {
    db: new Option('--db <path>', 'SQLite database (else WIKIDELTA_DB, else data/wikidelta.sqlite)'),
    json: new Option('--json', 'machine-readable output (and JSON-lines progress)'),
    config: new Option('--config <path>', 'JSON config file (else WIKIDELTA_CONFIG, else ./wikidelta.config.json if present)'),
  })
    .showHelpAfterError(false)
    .exitOverride()
    // main.ts prints a usage error as every other error, from the CommanderError it ends in.
    .configureOutput({ outputError: () => {} });
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

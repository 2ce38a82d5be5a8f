import type { Command } from 'commander';
import { formatRunUsage, runUsage } from '../../llm/usage.js';
import { shownStatus } from '../../runs/liveness.js';
import { RunStore, type RunRecord } from '../../store/runStore.js';
import { integerOption } from '../options.js';
import { withSession } from '../session.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('runs, their stages, counts and every failure (newest run first); a run whose process is gone shows as interrupted')
    .addOption(integerOption('--limit <n>', 'how many runs to show').default(20))
    .action(async (flags: { limit: number }, command: Command) => {
      await withSession(command, { write: false }, (session) => {
        const runs = new RunStore(session.db).listRuns(flags.limit);
        if (session.json) {
          const shown = runs.map((run) => ({ ...run, status: shownStatus(run), llm_usage: runUsage(session.db, run.id) }));
          process.stdout.write(`${JSON.stringify({ database: session.dbPath, runs: shown })}\n`);
          return;
        }
        process.stdout.write(`database ${session.dbPath}: ${runs.length === 0 ? 'no runs yet' : `${runs.length} most recent runs`}\n`);
        for (const run of runs) process.stdout.write(formatRun(run) + formatRunUsage(runUsage(session.db, run.id)));
      });
    });
}

export function formatRun(run: RunRecord): string {
  const params = Object.entries(run.params)
    .map(([key, value]) => `${key}=${formatParam(value)}`)
    .join(' ');
  const status = shownStatus(run);
  const gone = status === 'interrupted' ? ` (process ${run.pid} is gone)` : '';
  const lines = [`run ${run.id} ${run.pipeline} ${status}${gone}  started ${run.startedAt}${run.finishedAt ? `, finished ${run.finishedAt}` : ''}`];
  lines.push(`  ${params}`);
  if (run.error) lines.push(`  error: ${run.error}`);
  for (const stage of run.stages) {
    const counts = Object.entries(stage.counts).map(([k, v]) => `${k}=${v}`).join(' ');
    lines.push(`  ${stage.stage.padEnd(8)} ${stage.status.padEnd(8)} ${stage.seconds.toFixed(2).padStart(7)} s  ${counts}${stage.error ? `  error: ${stage.error}` : ''}`);
  }
  run.failures.forEach((failure, index) => lines.push(`  failure ${index + 1}: ${failure.stage ?? 'run'}: ${failure.error} (${failure.failedAt})`));
  return `${lines.join('\n')}\n`;
}

/** A window shows as start..end, other objects as JSON, absent values as `-`. */
function formatParam(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value !== 'object') return String(value);
  const window = value as { start?: unknown; end?: unknown };
  if (Object.keys(value).length === 2 && typeof window.start === 'string' && typeof window.end === 'string') return `${window.start}..${window.end}`;
  return JSON.stringify(value);
}

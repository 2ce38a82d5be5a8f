import { Option, type Command } from 'commander';
import { clearedStages } from '../../../pipelines/monthly.js';
import { formatRunUsage, runUsage } from '../../llm/usage.js';
import { errorLine, runHealth } from '../../runs/health.js';
import { shownRun, shownStatus } from '../../runs/liveness.js';
import { PIPELINE_NAMES, type RunRecord } from '../../store/runStore.js';
import { addOptions, integerOption } from '../options.js';
import { withSession, type Session } from '../session.js';
import { UserError } from '../../errors.js';

export function registerStatus(program: Command): void {
  addOptions<StatusFlags>(
    program.command('status').description('runs, their stages, counts and every failure (newest run first); a run whose process is gone shows as interrupted'),
    {
      limit: integerOption('--limit <n>', 'how many runs to show', { min: 1 }).default(20),
      check: new Option('--check', 'for monitoring: one line about the newest run; exit 1 when it failed, was interrupted or is older than --max-age'),
      maxAge: integerOption('--max-age <hours>', 'with --check: the newest run must have finished (or, running, started) within this many hours'),
      // Only the names runs are recorded under: a misspelt one would alarm as "no runs yet" for ever.
      pipeline: new Option('--pipeline <name>', 'with --check: the newest run of this pipeline').choices(PIPELINE_NAMES),
    },
  ).action(async (flags: StatusFlags, command: Command) => {
    await withSession(command, { write: false }, (session) => {
      if (flags.check) return checkNewestRun(session, flags);
      if (flags.maxAge !== undefined || flags.pipeline !== undefined) throw new UserError('E_FLAGS_CONFLICT', '--max-age and --pipeline go with --check');
      const runs = session.store.runs.listRuns(flags.limit);
      if (session.json) {
        const shown = runs.map((run) => ({ ...shownRun(run, clearedStages(session.store, run)), llm_usage: runUsage(session.store, run.id) }));
        process.stdout.write(`${JSON.stringify({ database: session.dbPath, runs: shown })}\n`);
        return;
      }
      process.stdout.write(`database ${session.dbPath}: ${runs.length === 0 ? 'no runs yet' : `${runs.length} most recent runs`}\n`);
      for (const run of runs) process.stdout.write(formatRun(run, clearedStages(session.store, run)) + formatRunUsage(runUsage(session.store, run.id)));
    });
  });
}

interface StatusFlags {
  limit: number;
  check?: boolean;
  maxAge?: number;
  pipeline?: string;
}

function checkNewestRun(session: Session, flags: StatusFlags): void {
  if (flags.maxAge !== undefined && flags.maxAge < 1) throw new UserError('E_FLAG_INVALID', `invalid --max-age ${flags.maxAge}: expected a whole number of hours ≥ 1`);
  const run = session.store.runs.newestRun(flags.pipeline);
  const health = runHealth(run, run && shownStatus(run, clearedStages(session.store, run)), new Date(), flags.maxAge);
  if (!health.healthy) throw new UserError('E_STATUS_UNHEALTHY', flags.pipeline && !run ? `no ${flags.pipeline} runs in this store yet` : health.line);
  process.stdout.write(session.json ? `${JSON.stringify({ ok: true, run: run?.id, line: health.line })}\n` : `${health.line}\n`);
}

/** A run as `status` prints it; `cleared`: its done stages whose results the store no longer holds (`clearedStages`). */
export function formatRun(record: RunRecord, cleared: readonly string[] = []): string {
  const run = shownRun(record, cleared);
  const params = Object.entries(run.params)
    .map(([key, value]) => `${key}=${formatParam(value)}`)
    .join(' ');
  const { status } = run;
  // A run stopped by a signal ended itself; one whose process died never wrote its end.
  const gone = status === 'interrupted' && run.finishedAt === null ? ` (process ${run.pid} is gone)` : '';
  const lines = [`run ${run.id} ${run.pipeline} ${status}${gone}  started ${run.startedAt}${run.finishedAt ? `, finished ${run.finishedAt}` : ''}`];
  lines.push(`  ${params}`);
  if (run.error) lines.push(`  error: ${errorLine(run.error, run.errorCode)}`);
  if (run.status === 'cleared') lines.push(`  note: the results of ${cleared.join(', ')} were cleared since, an earlier snapshot's made again: run it again`);
  for (const stage of run.stages) {
    const counts = Object.entries(stage.counts).map(([k, v]) => `${k}=${v}`).join(' ');
    lines.push(`  ${stage.stage.padEnd(8)} ${stage.status.padEnd(8)} ${stage.seconds.toFixed(2).padStart(7)} s  ${counts}${stage.error ? `  error: ${errorLine(stage.error, stage.errorCode)}` : ''}`);
  }
  const driven = run.stages.find((stage) => (stage.counts['wikidata_driven_pages'] ?? 0) > 0)?.counts;
  if (driven) {
    const templates = Object.keys(driven).filter((key) => key.startsWith('wikidata_driven:')).map((key) => `${key.slice('wikidata_driven:'.length)}: ${driven[key]}`);
    lines.push(`  note: infoboxes filled from Wikidata on ${driven['wikidata_driven_pages']} page(s) (${templates.join(', ')}): their facts change in the pages' Wikidata entities; collect those for their changes`);
  }
  const older = run.stages.find((stage) => (stage.counts['older_readings'] ?? 0) > 0)?.counts;
  if (older) {
    lines.push(`  note: ${older['older_readings']} revision(s) of ${older['older_reading_pages']} page(s) were read by an older wikidelta: their values keep its reading; run the weeks holding them with --redo collect to read them again`);
  }
  run.failures.forEach((failure, index) => lines.push(`  failure ${index + 1}: ${failure.stage ?? 'run'}: ${errorLine(failure.error, failure.errorCode)} (${failure.failedAt})`));
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

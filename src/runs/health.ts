/**
 * Whether the newest run is healthy, for monitoring (`status --check`): one line that says why not,
 * so a cron mail or an alert shows the reason without opening the store. The clock is passed in, so
 * the rule is tested with fixed dates. docs/ARCHITECTURE.md §9
 */
import type { RunRecord } from '../store/runStore.js';
import type { ShownRunStatus } from './liveness.js';

export interface RunHealth {
  healthy: boolean;
  /** One line: the run, its status and its age, or why it is unhealthy. */
  line: string;
}

/**
 * A run is unhealthy when it failed or was interrupted, or when its last sign of life (its end, or
 * its start while it runs) is older than `maxAgeHours`. No run at all is unhealthy too: a monitor
 * pointed at an empty store is watching nothing.
 */
export function runHealth(run: RunRecord | undefined, status: ShownRunStatus | undefined, now: Date, maxAgeHours?: number): RunHealth {
  if (!run || !status) return { healthy: false, line: 'no runs in this store yet' };
  const lastSeen = run.finishedAt ?? run.startedAt;
  const ageHours = (now.getTime() - Date.parse(lastSeen)) / 3_600_000;
  const described = `run ${run.id} ${run.pipeline} ${status}, ${run.finishedAt ? 'finished' : 'started'} ${lastSeen} (${ageHours.toFixed(1)} h ago)`;
  if (status === 'failed' || status === 'interrupted') {
    // Shown interrupted while recorded as running, its process gone: no error recorded yet, and an earlier attempt's is not its own.
    const failure = run.status === 'running' ? undefined : run.failures.at(-1);
    const reason =
      run.error !== null
        ? errorLine(run.error, run.errorCode)
        : run.status === 'running'
          ? errorLine(`process ${run.pid ?? '?'} is gone; the same command started again continues the run`, 'E_RUN_INTERRUPTED')
          : failure && errorLine(failure.error, failure.errorCode);
    return { healthy: false, line: `${described}${reason ? `: ${reason}` : ''}` };
  }
  if (maxAgeHours !== undefined && ageHours > maxAgeHours) return { healthy: false, line: `${described}: older than --max-age ${maxAgeHours} h` };
  return { healthy: true, line: `ok: ${described}` };
}

/** A recorded error as the command that met it printed it, `CODE: message` (one recorded before codes were kept has none). */
export function errorLine(message: string, code: string | null): string {
  return code === null ? message : `${code}: ${message}`;
}

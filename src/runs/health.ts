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
 * A run is unhealthy when it failed or was interrupted, when its results were cleared since it ran,
 * or when its last sign of life (its end, or its start while it runs) is older than `maxAgeHours`.
 * No run at all is unhealthy too: a monitor pointed at an empty store is watching nothing.
 */
export function runHealth(run: RunRecord | undefined, status: ShownRunStatus | undefined, now: Date, maxAgeHours?: number): RunHealth {
  if (!run || !status) return { healthy: false, line: 'no runs in this store yet' };
  const lastSeen = run.finishedAt ?? run.startedAt;
  const ageHours = (now.getTime() - Date.parse(lastSeen)) / 3_600_000;
  const described = `run ${run.id} ${run.pipeline} ${status}, ${run.finishedAt ? 'finished' : 'started'} ${lastSeen} (${ageHours.toFixed(1)} h ago)`;
  if (status === 'failed' || status === 'interrupted') return { healthy: false, line: `${described}${failureReason(run) ?? ''}` };
  if (status === 'cleared') return { healthy: false, line: `${described}: its results were cleared since (an earlier one made again): run it again` };
  if (maxAgeHours !== undefined && ageHours > maxAgeHours) return { healthy: false, line: `${described}: older than --max-age ${maxAgeHours} h` };
  return { healthy: true, line: `ok: ${described}` };
}

/**
 * Why a failed or interrupted run stopped, after a colon: its recorded error, else (recorded as
 * running, its process gone) the interruption, never an earlier attempt's failure; else its last
 * failure, if any.
 */
function failureReason(run: RunRecord): string | undefined {
  if (run.error !== null) return `: ${errorLine(run.error, run.errorCode)}`;
  if (run.status === 'running') return `: ${errorLine(`process ${run.pid ?? '?'} is gone; the same command started again continues the run`, 'E_RUN_INTERRUPTED')}`;
  const last = run.failures.at(-1);
  return last && `: ${errorLine(last.error, last.errorCode)}`;
}

/** A recorded error as the command that met it printed it, `CODE: message` (one recorded before codes were kept has none). */
export function errorLine(message: string, code: string | null): string {
  return code === null ? message : `${code}: ${message}`;
}

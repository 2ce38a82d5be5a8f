/**
 * Whether a run recorded as running still is: only while its process lives. A run whose process was
 * killed (SIGKILL, a crash, a power cut) never wrote its end, so its record alone would say running
 * for ever. docs/ARCHITECTURE.md §9
 */
import type { RunRecord, RunStatus, StageRecord } from '../store/runStore.js';

export type ShownRunStatus = RunStatus | 'interrupted';

/** True while a process with this id exists on this host (one we may not signal still exists). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The status to show for a run: `interrupted` when it is recorded as running but its process is gone,
 * or when a signal stopped it (recorded as failed with E_RUN_INTERRUPTED: no verdict on its input).
 */
export function shownStatus(run: Pick<RunRecord, 'status' | 'pid' | 'errorCode'>): ShownRunStatus {
  if (run.status === 'failed' && run.errorCode === STOPPED) return 'interrupted';
  return run.status === 'running' && run.pid !== null && !processAlive(run.pid) ? 'interrupted' : run.status;
}

const STOPPED = 'E_RUN_INTERRUPTED';

/** A run as shown: interrupted when its process is gone or was stopped, and so is the stage it was in. */
export function shownRun(run: RunRecord): Omit<RunRecord, 'status' | 'stages'> & { status: ShownRunStatus; stages: Array<Omit<StageRecord, 'status'> & { status: StageRecord['status'] | 'interrupted' }> } {
  const status = shownStatus(run);
  const stages = run.stages.map((stage) =>
    status === 'interrupted' && (stage.status === 'running' || (stage.status === 'failed' && stage.errorCode === STOPPED)) ? { ...stage, status: 'interrupted' as const } : stage,
  );
  return { ...run, status, stages };
}

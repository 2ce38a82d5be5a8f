/**
 * Whether a run recorded as running still is: only while its process lives. A run whose process was
 * killed (SIGKILL, a crash, a power cut) never wrote its end, so its record alone would say running
 * for ever. docs/ARCHITECTURE.md §9
 */
import type { RunRecord, RunStatus, StageRecord } from '../store/runStore.js';

export type ShownRunStatus = RunStatus | 'interrupted' | 'cleared';

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
 * or when a signal stopped it (recorded as failed with E_RUN_INTERRUPTED: no verdict on its input);
 * `cleared` when it is recorded done but some of its stages' results are no longer in the store
 * (`clearedStages`, which the pipeline tells: a month made again clears the later months' items), so
 * it is to run again.
 */
export function shownStatus(run: Pick<RunRecord, 'status' | 'pid' | 'errorCode'>, clearedStages: readonly string[] = []): ShownRunStatus {
  if (run.status === 'done' && clearedStages.length > 0) return 'cleared';
  if (run.status === 'failed' && run.errorCode === STOPPED) return 'interrupted';
  return run.status === 'running' && run.pid !== null && !processAlive(run.pid) ? 'interrupted' : run.status;
}

const STOPPED = 'E_RUN_INTERRUPTED';

/**
 * A run as shown: interrupted when its process is gone or was stopped, and so is the stage it was in;
 * cleared when the store no longer holds the results of some of its done stages, and so are they.
 */
export function shownRun(
  run: RunRecord,
  clearedStages: readonly string[] = [],
): Omit<RunRecord, 'status' | 'stages'> & { status: ShownRunStatus; stages: Array<Omit<StageRecord, 'status'> & { status: StageRecord['status'] | 'interrupted' | 'cleared' }> } {
  const status = shownStatus(run, clearedStages);
  const stages = run.stages.map((stage) => {
    if (status === 'interrupted' && (stage.status === 'running' || (stage.status === 'failed' && stage.errorCode === STOPPED))) return { ...stage, status: 'interrupted' as const };
    return status === 'cleared' && clearedStages.includes(stage.stage) ? { ...stage, status: 'cleared' as const } : stage;
  });
  return { ...run, status, stages };
}

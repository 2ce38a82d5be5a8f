/**
 * `wikidelta worker --queue URL`: a process that takes the queue's batch jobs (docs/ARCHITECTURE.md
 * §13) until stopped. It needs no store: each job carries its inputs and its result goes back to
 * the command that queued it. Run one per core, on as many machines as wanted. A failed job's line
 * and the summary it ends with when stopped name the errors' codes.
 */
import { Option, type Command } from 'commander';
import { z } from 'zod';
import { UserError } from '../../errors.js';
import { addOptions } from '../options.js';
import type { GlobalFlags } from '../session.js';
import { failedJobsLine } from '../../queue/failedJobs.js';
import type { WorkerSummary } from '../../queue/worker.js';
import { hidingPasswords } from '../../queue/connection.js';

interface WorkerFlags {
  queue: string;
  concurrency: string;
  lockMs: string;
}

const Positive = z.coerce.number().int().positive();

export function registerWorker(program: Command): void {
  addOptions<WorkerFlags>(
    program
      .command('worker')
      .description('run the batch jobs (labeling, item generation; weekly parse and diff, and reading dump files by path) that label, monthly and weekly --queue put on a BullMQ queue in Redis, until stopped'),
    {
      queue: new Option('--queue <url>', 'the Redis server holding the queue, e.g. redis://127.0.0.1:6379').makeOptionMandatory(),
      concurrency: new Option('--concurrency <n>', 'jobs at once in this process (CPU-bound: start one process per core instead)').default('1'),
      lockMs: new Option('--lock-ms <ms>', "how long a job stays claimed after its worker went silent (killed, machine lost) before another takes it").default('30000'),
    },
  ).action(async (flags: WorkerFlags, command: Command) => {
    const concurrency = Positive.safeParse(flags.concurrency);
    const lockMs = Positive.safeParse(flags.lockMs);
    if (!concurrency.success) throw new UserError('E_FLAG_INVALID', `invalid --concurrency ${flags.concurrency}: a whole number from 1`);
    if (!lockMs.success) throw new UserError('E_FLAG_INVALID', `invalid --lock-ms ${flags.lockMs}: a whole number of milliseconds`);
    const json = Boolean(command.optsWithGlobals<GlobalFlags>().json);
    // BullMQ loads with this command only, not with every command's start-up.
    const { startWorker } = await import('../../queue/worker.js');
    const worker = await startWorker({
      queueUrl: flags.queue,
      concurrency: concurrency.data,
      lockMs: lockMs.data,
      onEvent: (event) => {
        if (event.kind === 'error') {
          process.stderr.write(
            json ? `${JSON.stringify({ time: new Date().toISOString(), level: 'warn', event: 'worker error', detail: event.detail })}\n` : `wikidelta worker: ${event.detail ?? ''}\n`,
          );
        } else if (json) {
          const { kind, job, detail, code, final } = event;
          process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: kind === 'failed' ? 'warn' : 'info', event: `job ${kind}`, job, detail, code, final })}\n`);
        } else if (event.kind === 'failed') {
          const retried = event.final ? '' : ' (to be retried)';
          process.stderr.write(`wikidelta worker: job ${event.job} failed${retried}: ${event.code ? `${event.code}: ` : ''}${event.detail ?? ''}\n`);
        }
      },
    });
    process.stderr.write(`wikidelta worker: taking jobs from ${hidingPasswords(flags.queue)}\n`);
    const summary = await new Promise<WorkerSummary>((resolveStopped) => {
      let stopping = false;
      // A second signal stops without waiting for the running jobs, with the summary still said.
      const stop = () => {
        void worker.close({ now: stopping }).then(resolveStopped);
        stopping = true;
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    const failed = summary.failed.length === 0 ? 'none failed' : failedJobsLine(summary.failed);
    process.stderr.write(
      json
        ? `${JSON.stringify({ time: new Date().toISOString(), level: 'info', event: 'worker stopped', completed: summary.completed, failed_jobs: summary.failed })}\n`
        : `wikidelta worker: stopped; ${summary.completed} job${summary.completed === 1 ? '' : 's'} done, ${failed}\n`,
    );
  });
}

/** What every benchmark shares: its figures printed as JSON lines, and a child command measured from outside. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
/** Prints one benchmark figure as a JSON line: the contract every benchmark follows. */
export function report(name: string, value: number, unit: string, extra: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ name, value: Number(value.toFixed(3)), unit, ...extra })}\n`);
}

/** Peak resident set size of this process so far, in MB. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** A child process's CPU seconds (user and system, all its threads) so far, from Linux's /proc. */
export function childCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** A child process's peak resident set so far, in MB, from Linux's /proc. */
export function childPeakRssMb(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Runs a command to its end, sampling its CPU seconds and peak RSS every 0.2 s (the last fraction
 * of a second is missed); its standard output is kept, a failure is thrown with its last line.
 */
export async function measureCommand(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ seconds: number; cpuSeconds: number; peakRssMb: number; stdout: string }> {
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  let peak = 0;
  let cpu = 0;
  const watch = setInterval(() => {
    try {
      peak = Math.max(peak, childPeakRssMb(child.pid as number));
      cpu = childCpuSeconds(child.pid as number);
    } catch {
      // It has just ended.
    }
  }, 200);
  const code = await new Promise<number | null>((resolveExit) => child.once('close', resolveExit));
  clearInterval(watch);
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: cpu, peakRssMb: peak, stdout };
}

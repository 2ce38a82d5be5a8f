import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const cliPath = join(repoRoot, 'bin/wikidelta.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The stable code of the error the command ended with (`E_DUMP_TRUNCATED`, src/errors.ts): see errorOf. */
  errorCode: string | null;
}

/** Starts the real command as a user would, with a clean environment apart from what the test gives. */
export function startCli(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): ChildProcess {
  return spawn(process.execPath, [cliPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export interface RunOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  cwd?: string;
}

/** Runs the command to its end, whatever its exit; the test reads the code and what it printed. */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const child = startCli(args, options);
  const result = collect(child);
  child.stdin?.end(options.input ?? '');
  return result;
}

/**
 * Runs the command and fails unless it exits 0, with its arguments and what it printed on standard
 * error in the message, so a failed step shows why instead of `expected 1 to be 0`.
 */
export async function runCliOk(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const result = await runCli(args, options);
  if (result.code !== 0) {
    throw new Error(`wikidelta ${args.join(' ')} exited with ${result.code ?? result.signal}:\n${result.stderr}`);
  }
  return result;
}

/** Waits for a started command to end; its standard input is left to the caller. */
export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  // Decoded as a stream, so a character split across two chunks is not turned into two "\ufffd".
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  // A command that fails early closes its input; writes after that are not the test's concern.
  child.stdin?.on('error', () => {});
  return new Promise((resolvePromise) => child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr, errorCode: errorOf(stderr)?.code ?? null })));
}

/**
 * The error a command ended with, from its last line on standard error in either form
 * (`wikidelta: CODE: message`, or the JSON object of --json); null when it ended without one.
 */
export function errorOf(stderr: string): { code: string; message: string } | null {
  const last = stderr.trimEnd().split('\n').pop() ?? '';
  const line = /^wikidelta: (E_[A-Z0-9_]+): (.*)$/.exec(last);
  if (line) return { code: line[1] as string, message: line[2] as string };
  if (!last.startsWith('{')) return null;
  try {
    const { code, message } = JSON.parse(last) as { code?: unknown; message?: unknown };
    return typeof code === 'string' && typeof message === 'string' ? { code, message } : null;
  } catch {
    return null;
  }
}

/**
 * Waits until what a started command printed on one stream matches, and gives all of it so far; a
 * command that ends first fails the wait with what it printed instead of leaving the test to time out.
 */
export function waitForOutput(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string> {
  const source = child[stream];
  if (source === null) return Promise.reject(new Error(`the command has no ${stream} pipe`));
  source.setEncoding('utf8');
  let printed = '';
  return new Promise((resolvePrinted, rejectPrinted) => {
    const onData = (chunk: string): void => {
      printed += chunk;
      if (!pattern.test(printed)) return;
      source.off('data', onData);
      child.off('close', onClose);
      resolvePrinted(printed);
    };
    const onClose = (code: number | null): void => rejectPrinted(new Error(`the command ended (exit ${code}) before printing ${pattern} on ${stream}: ${printed}`));
    source.on('data', onData);
    child.on('close', onClose);
  });
}

export function tempDir(prefix = 'wikidelta-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

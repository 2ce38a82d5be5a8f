import { Command, CommanderError } from 'commander';
import { oneLine, UserError, type ErrorCode } from '../errors.js';
import { buildProgram } from './program.js';
import type { GlobalFlags } from './session.js';

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are exits with code 0; help shown for a missing command was printed as it is.
      if (error.exitCode === 0) return 0;
      if (error.code !== 'commander.help') reportError(wantsJson(program, argv), 'E_USAGE', error.message.replace(/^error: /, ''));
      return 2;
    }
    if (error instanceof UserError) {
      reportError(wantsJson(program, argv), error.code, error.message, error.details);
      return 1;
    }
    reportError(wantsJson(program, argv), 'E_INTERNAL', `internal error: ${oneLine(error)}`);
    if (process.env.WIKIDELTA_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    return 70;
  }
}

/**
 * The one line a failed command ends with, on standard error: `wikidelta: CODE: message`, or under
 * --json one JSON object shaped as the progress lines before it, with the code and the error's
 * details (README.md, "Error codes").
 */
function reportError(json: boolean, code: ErrorCode, message: string, details?: Readonly<Record<string, unknown>>): void {
  const line = oneLine(message);
  process.stderr.write(json ? `${JSON.stringify({ ...details, time: new Date().toISOString(), level: 'error', code, message: line })}\n` : `wikidelta: ${code}: ${line}\n`);
}

/** A usage error may stop the parse before --json is read, so the command line is asked too. */
function wantsJson(program: Command, argv: string[]): boolean {
  return program.opts<GlobalFlags>().json === true || argv.includes('--json');
}

// A reader that stops early (`| head`) is not an error of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const code = await main(process.argv.slice(2));
// main awaits all of a command's work, so what may still hold the event loop here is a library's
// housekeeping, not ours: after a --queue run's large results, the Redis reply parser shrinks its
// buffer every 50 ms for up to a second before it lets the process go. Exit once what was written
// to standard output and error has been handed over.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((flushed) => stream.write('', () => flushed()))));
process.exit(code);

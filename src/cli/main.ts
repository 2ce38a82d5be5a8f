import { CommanderError } from 'commander';
import { oneLine, UserError } from '../errors.js';
import { buildProgram } from './program.js';

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are exits with code 0; usage errors were already printed as one line.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof UserError) {
      process.stderr.write(`wikidelta: ${oneLine(error)}\n`);
      return 1;
    }
    process.stderr.write(`wikidelta: internal error: ${oneLine(error)}\n`);
    if (process.env.WIKIDELTA_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    return 70;
  }
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

/**
 * Makes sure the Debian packages the tests need are there before any test starts, the way
 * testcontainers pulls an image: as root it installs the missing ones and says which; otherwise it
 * stops the run at once with one line naming the command to run. scripts/system-deps.sh holds the
 * one list of packages and does the installing.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/packageRoot.js';

const SCRIPT = 'scripts/system-deps.sh';

export default function installSystemPackages(): void {
  const listed = spawnSync('bash', [SCRIPT, '--missing'], { cwd: packageRoot(), encoding: 'utf8' });
  if (listed.status !== 0) throw oneLineError(`${SCRIPT} --missing failed: ${listed.stderr.trim()}`);
  const missing = listed.stdout.split('\n').filter((name) => name !== '');
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw oneLineError(`the tests need Debian packages that are missing (${missing.join(' ')}): run sudo bash ${SCRIPT}`);
  process.stdout.write(`installing the Debian packages the tests need: ${missing.join(' ')}\n`);
  const installed = spawnSync('bash', [join(packageRoot(), SCRIPT)], { encoding: 'utf8' });
  if (installed.status !== 0) throw oneLineError(`installing ${missing.join(' ')} failed: ${installed.stdout}${installed.stderr}`.trim());
  process.stdout.write(`installed ${missing.join(' ')}\n`);
}

/** The reporter prints an error's stack; this one is about the machine, so its stack says nothing. */
function oneLineError(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

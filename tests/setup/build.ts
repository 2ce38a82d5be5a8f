/**
 * Compiles the sources to dist/ before the integration tests, the global setup of their project only,
 * since they run the command as users do (bin/wikidelta.js runs dist/): a run after an edit then
 * tests the edit, not the last build. Unit tests import the sources and need no build.
 * Type errors do not stop the tests (tsc still emits, as vitest runs sources it does not
 * type-check); `npm run typecheck` is the CI step that fails on them.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { packageRoot } from '../../src/packageRoot.js';

/** tsc's exit status when it reported type errors but wrote the output anyway. */
const EMITTED_WITH_ERRORS = 2;

export default function build(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageRoot(), encoding: 'utf8' });
  if (result.status === 0) return;
  if (result.status === EMITTED_WITH_ERRORS) {
    process.stderr.write('build: the sources have type errors (npm run typecheck lists them); testing what tsc emitted\n');
    return;
  }
  throw new Error(`build failed (tsc exited with ${result.status ?? result.signal}): ${result.stdout}${result.stderr}`);
}

/**
 * Runs every `scripts/bench/*.bench.ts` in its own process (so peak RSS figures are per benchmark)
 * and passes their JSON lines through. `npm run bench -- NAME` runs only the files whose name
 * contains NAME.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts') && name.includes(filter))
  .sort();

let failed = 0;
for (const file of files) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    failed++;
    process.stdout.write(`${JSON.stringify({ name: file, error: `exited with ${result.status ?? result.signal}` })}\n`);
  }
}
process.exit(failed === 0 ? 0 : 1);

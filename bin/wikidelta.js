#!/usr/bin/env node
// Runs the compiled command from dist/ (built by `npm ci` through `prepare`, or `npm run build`):
// compiling the TypeScript on every call would cost each call seconds of start-up.
import { existsSync } from 'node:fs';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('wikidelta: the command is not built: run `npm run build`\n');
  process.exit(70);
}
await import(main.href);

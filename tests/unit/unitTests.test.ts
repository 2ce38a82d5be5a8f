/**
 * Unit tests stay unit tests (docs/ARCHITECTURE.md §10): no file under tests/unit reads ../shared,
 * runs the command (which needs the build in dist/) or starts a test server, so `npx vitest run
 * tests/unit` takes seconds and runs anywhere. A test that needs one of them is an integration test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/cli.js';

/** The testkit modules a unit test may use: temporary folders and paths, and data built in memory or from the embedded sample. */
const ALLOWED_TESTKIT = new Set(['cli', 'auditFixture', 'entityHistories', 'entityWeeks', 'townDump', 'redirectedSample']);

/** What each rule looks for in a unit file, and why it is refused. */
const RULES: Array<{ pattern: RegExp; why: string }> = [
  { pattern: /\.\.\/shared\b/, why: 'reads ../shared' },
  { pattern: /\b(runCli|runCliOk|startCli|cliPath)\b/, why: 'runs the command' },
];

function unitFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return unitFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each way a unit file breaks the rules, as "file: why". */
function unitViolations(path: string, text: string): string[] {
  const name = relative(repoRoot, path);
  const found = RULES.filter((rule) => rule.pattern.test(text)).map((rule) => `${name}: ${rule.why}`);
  for (const [, module] of text.matchAll(/from '(?:\.\.\/)+testkit\/(\w+)\.js'/g)) {
    if (!ALLOWED_TESTKIT.has(module as string)) found.push(`${name}: imports testkit/${module}.js`);
  }
  return found;
}

describe('unit tests', () => {
  it('read no ../shared, run no command and start no server', () => {
    const self = fileURLToPath(import.meta.url);
    const files = unitFiles(join(repoRoot, 'tests/unit')).filter((path) => path !== self);
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((path) => unitViolations(path, readFileSync(path, 'utf8')))).toEqual([]);
  });

  it('would catch each kind of breach', () => {
    const path = join(repoRoot, 'tests/unit/example.test.ts');
    expect(unitViolations(path, "const data = join(repoRoot, '../shared/data');")).toEqual(['tests/unit/example.test.ts: reads ../shared']);
    expect(unitViolations(path, "import { sharedData } from '../../testkit/sharedData.js';")).toEqual(['tests/unit/example.test.ts: imports testkit/sharedData.js']);
    expect(unitViolations(path, "await runCliOk(['status']);")).toEqual(['tests/unit/example.test.ts: runs the command']);
    expect(unitViolations(path, "import { startMediaWiki } from '../../testkit/mediawiki.js';")).toEqual(['tests/unit/example.test.ts: imports testkit/mediawiki.js']);
    expect(unitViolations(path, "import { tempDir } from '../../testkit/cli.js';")).toEqual([]);
  });
});

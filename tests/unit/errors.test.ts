/**
 * The stable error codes are one list (src/errors.ts): each is used, each is documented in
 * README.md's table with the same meaning, and no test names a code the list does not have.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/cli.js';
import { errorCodes, UserError } from '../../src/errors.js';

function sourceFiles(folder: string): string[] {
  return readdirSync(join(repoRoot, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

function codesNamedIn(folders: string[], except: string): Set<string> {
  const named = new Set<string>();
  for (const path of folders.flatMap(sourceFiles)) {
    if (path === except) continue;
    for (const [, code] of readFileSync(path, 'utf8').matchAll(/'(E_[A-Z0-9_]+)'/g)) named.add(code as string);
  }
  return named;
}

describe('error codes', () => {
  const listed = Object.keys(errorCodes);

  it('are each used by the code that reports them', () => {
    const used = codesNamedIn(['src', 'pipelines'], join(repoRoot, 'src/errors.ts'));
    expect(listed.filter((code) => !used.has(code))).toEqual([]);
  });

  it("are README.md's table of error codes, row for row with the same meaning", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Error codes'));
    const rows = [...section.matchAll(/^\| `(E_[A-Z0-9_]+)` \| (.*) \|$/gm)].map(([, code, meaning]) => [code, meaning]);
    expect(rows).toEqual(Object.entries(errorCodes));
  });

  it('named in tests are all in the list', () => {
    const named = codesNamedIn(['tests'], '');
    expect([...named].filter((code) => !(code in errorCodes))).toEqual([]);
  });

  it('travel with the error and its subclasses', () => {
    const error = new UserError('E_DUMP_TRUNCATED', 'dump is truncated', { cause: 'x' });
    expect([error.code, error.message, error.cause, error.name]).toEqual(['E_DUMP_TRUNCATED', 'dump is truncated', 'x', 'UserError']);
  });
});

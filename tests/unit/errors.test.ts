/**
 * The stable error codes are one list (src/errors.ts): each is used, each is documented in
 * README.md's table with the same meaning, and no test names a code the list does not have.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../testkit/cli.js';
import { withCode } from '../support/errorCodes.js';
import { carried, codeOf, errorCodes, fromCarried, InputError, parseCarried, UserError } from '../../src/errors.js';

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

  it('cross a text-only boundary (a job failure reason, a thread message) as `CODE: line` and come back', () => {
    const input = new InputError('E_DUMP_TRUNCATED', 'dump is truncated\ninside page "A"');
    expect(carried(input)).toBe('E_DUMP_TRUNCATED: dump is truncated inside page "A"');
    expect(fromCarried(carried(input))).toEqual(withCode('E_DUMP_TRUNCATED', 'dump is truncated inside page "A"'));
    expect(fromCarried(carried(input))).toBeInstanceOf(UserError);
    // A bug stays a bug: a plain Error, reported as E_INTERNAL.
    const bug = new TypeError('x is undefined');
    expect([codeOf(bug), carried(bug)]).toEqual(['E_INTERNAL', 'E_INTERNAL: x is undefined']);
    expect(fromCarried(carried(bug))).not.toBeInstanceOf(UserError);
    expect(fromCarried(carried(bug)).message).toBe('x is undefined');
    // Text without a known code (BullMQ's own reasons) is an internal one, whole.
    expect(parseCarried('job stalled more than allowable limit')).toEqual({ code: 'E_INTERNAL', message: 'job stalled more than allowable limit' });
    expect(parseCarried('E_NOT_A_CODE: x')).toEqual({ code: 'E_INTERNAL', message: 'E_NOT_A_CODE: x' });
  });

  it('travel with the error and its subclasses', () => {
    const error = new UserError('E_DUMP_TRUNCATED', 'dump is truncated', { cause: 'x' });
    expect([error.code, error.message, error.cause, error.name]).toEqual(['E_DUMP_TRUNCATED', 'dump is truncated', 'x', 'UserError']);
  });
});

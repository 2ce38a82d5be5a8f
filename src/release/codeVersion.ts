/**
 * Which code wrote a release: the package's version and, when it runs from a git checkout of
 * wikidelta itself, that checkout's commit and whether tracked files differ from it. Asked of git
 * once per process; an installed package (no checkout of its own) has no commit.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../packageRoot.js';

export interface CodeVersion {
  version: string;
  commit: string | null;
  modified: boolean | null;
}

const PackageJson = z.object({ version: z.string() });

let known: CodeVersion | undefined;

/** This code's version as a manifest records it: the package version and, in a git checkout, its commit and whether it was modified. */
export function codeVersion(): CodeVersion {
  if (known) return known;
  const root = packageRoot();
  const version = PackageJson.parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))).version;
  const git = (...args: string[]) => {
    const result = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return result.status === 0 ? result.stdout.trim() : undefined;
  };
  // A package installed inside someone else's repository must not report that repository's commit.
  const toplevel = git('rev-parse', '--show-toplevel');
  const commit = toplevel !== undefined && resolve(toplevel) === resolve(root) ? git('rev-parse', 'HEAD') : undefined;
  const status = commit === undefined ? undefined : git('status', '--porcelain', '--untracked-files=no');
  known = { version, commit: commit ?? null, modified: status === undefined ? null : status !== '' };
  return known;
}

/**
 * The one way wikidelta writes output files: a reader, a crash or a kill sees the old output or the
 * new one, never a part or a mix. A release is written into a new directory beside the old and
 * swapped in by renames; a single file goes through a temporary name created exclusively (O_EXCL,
 * random, so a symlink planted in the directory is never followed) and a rename; a device or FIFO
 * is written into, never replaced. An output path that is a symlink is written where it points: the
 * user's link stays, and the output lands where the link says. docs/ARCHITECTURE.md §8
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../errors.js';
import { notADirectory } from '../pathProblems.js';

/** A file's content: text (written as UTF-8), bytes, or text in pieces. */
export type FileContent = string | Uint8Array | Iterable<string>;

/**
 * Writes a release: every file into a new directory beside `dir`, then swapped in for the old one,
 * which is removed after the swap. Files of an earlier release that this one lacks do not survive.
 * `ownEntry`: the names an existing `dir` may hold to be replaced (a release's: `releaseEntry()` of
 * the formats' registry); any other entry means the directory is someone's, and it is left alone.
 */
export function writeFilesAtomically(dir: string, files: ReadonlyMap<string, string | Uint8Array>, ownEntry: RegExp): void {
  const existing = statOf(dir, 'the output directory');
  if (existing && !existing.isDirectory()) throw new UserError('E_OUTPUT_UNWRITABLE', `cannot write into ${dir}: ${dir} is not a directory`);
  if (existing) {
    const foreign = readdirSync(dir, { withFileTypes: true }).filter((entry) => !entry.isFile() || !ownEntry.test(entry.name));
    if (foreign.length > 0) {
      throw new UserError(
        'E_OUTPUT_DIR_FOREIGN',
        `cannot write into ${dir}: it holds files this command did not write (${foreign.map((entry) => entry.name).slice(0, 3).join(', ')}); give a new directory as --out`,
      );
    }
  }
  const target = existing ? realpathSync(dir) : dir;
  const parent = dirname(target);
  makeDirectory(parent, target);
  removeLeftovers(parent, basename(target));
  const staging = join(parent, `.${basename(target)}.new-${randomSuffix()}`);
  try {
    mkdirSync(staging);
    for (const [name, content] of files) {
      const path = join(staging, name);
      mkdirSync(dirname(path), { recursive: true });
      writeNewFile(path, content);
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw outputProblem(error, target);
  }
  if (!existing) {
    renameSync(staging, target);
    return;
  }
  const old = join(parent, `.${basename(target)}.old-${randomSuffix()}`);
  renameSync(target, old);
  renameSync(staging, target);
  rmSync(old, { recursive: true, force: true });
}

/**
 * Writes one output file. A regular file (or none) is replaced whole through an exclusive temporary
 * file beside it, created with `mode` (e.g. 0o600 for a file holding secrets, never readable by
 * others even for a moment); a FIFO or device is written into directly, as a shell redirection would.
 */
export function writeFileAtomically(path: string, content: FileContent, options: { mode?: number } = {}): void {
  const existing = statOf(path, 'the file');
  if (existing?.isDirectory()) throw new UserError('E_OUTPUT_UNWRITABLE', `cannot write ${path}: it is a directory`);
  if (existing && !existing.isFile()) {
    try {
      writeInto(path, content, 'w');
    } catch (error) {
      throw outputProblem(error, path);
    }
    return;
  }
  const target = existing ? realpathSync(path) : path;
  makeDirectory(dirname(target), target);
  const temporary = join(dirname(target), `.${basename(target)}.${randomSuffix()}.tmp`);
  try {
    writeNewFile(temporary, content, options.mode);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw outputProblem(error, target);
  }
}

/** Creates a file that must not exist yet (O_EXCL: an existing name, symlink or not, is an error). */
function writeNewFile(path: string, content: FileContent, mode?: number): void {
  writeInto(path, content, 'wx', mode);
}

function writeInto(path: string, content: FileContent, flags: 'w' | 'wx', mode?: number): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, flags, mode);
    for (const chunk of typeof content === 'string' || content instanceof Uint8Array ? [content] : content) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    }
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function statOf(path: string, what: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    throw new UserError('E_OUTPUT_UNWRITABLE', `cannot write ${what} ${path}: ${notADirectory(error, path) ?? (error as Error).message}`);
  }
}

function makeDirectory(dir: string, forPath: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new UserError('E_OUTPUT_UNWRITABLE', `cannot write ${forPath}: ${notADirectory(error, dir) ?? (error as Error).message}`);
  }
}

/**
 * A failed file-system call becomes one line naming the output (never the temporary name it was being
 * written under), and for a full disk what to do; anything else is left as it is.
 */
function outputProblem(error: unknown, path: string): unknown {
  if (error instanceof UserError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return new UserError('E_OUTPUT_UNWRITABLE', `cannot write ${path}: ${code}, the disk is full: free space on it and run the command again`);
  return typeof code === 'string' ? new UserError('E_OUTPUT_UNWRITABLE', `cannot write ${path}: ${code} (${(error as Error).message})`) : error;
}

/** Staging and old directories of an earlier export killed before it could remove them. */
function removeLeftovers(parent: string, name: string): void {
  const leftover = new RegExp(`^\\.${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(new|old)-[0-9a-f]{16}$`);
  for (const entry of readdirSync(parent)) {
    if (leftover.test(entry)) rmSync(join(parent, entry), { recursive: true, force: true });
  }
}

function randomSuffix(): string {
  return randomBytes(8).toString('hex');
}

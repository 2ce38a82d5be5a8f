/**
 * The run lock of a store (docs/ARCHITECTURE.md §9): a file beside the store's real path (symbolic
 * links resolved, so every name of one store finds one lock) holding its owner, created whole and
 * at once (written to a file of its own, then hard-linked into place: a starter never sees it
 * empty; without hard links, created exclusively and written). A lock whose process is gone (same host, pid not alive) is stale: it is replaced and
 * reported, never silently ignored. Replacing is the one step two starters could both take, each
 * having found the lock stale and removed the other's new one; it is done under the store's own
 * SQLite write lock, which the kernel releases when a process dies, so one starter replaces it and
 * the others find the winner's lock.
 */
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors.js';
import { notADirectory } from '../pathProblems.js';
import { takeWriteLock } from '../store/database.js';
import { processAlive } from './liveness.js';

const LockOwner = z.object({ pid: z.number().int(), host: z.string(), startedAt: z.string(), command: z.string() });
type LockOwner = z.infer<typeof LockOwner>;

/** How long a starter waits for another one to finish replacing a stale lock. */
const REPLACE_WAIT_MS = 5000;
/** What a file that cannot be created in its directory fails with. */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

export interface HeldLock {
  path: string;
  /** The owner of a stale lock this one replaced, so the caller can report it. */
  replacedStale: LockOwner | null;
  release(): void;
}

/** The store's path with symbolic links resolved (of its directory when it does not exist yet). */
function realStorePath(dbPath: string): string {
  if (existsSync(dbPath)) return realpathSync(dbPath);
  const dir = dirname(dbPath);
  return existsSync(dir) ? join(realpathSync(dir), basename(dbPath)) : dbPath;
}

/**
 * Takes the lock of the store at `dbPath`, or refuses with one line naming its holder. With
 * `readOnly`, a lock that cannot be created because the directory cannot be written (a store on a
 * read-only mount, or another user's) is not needed: the caller only reads, and gets a lock that
 * holds nothing as long as no live run holds the real one.
 */
export function acquireLock(dbPath: string, command: string, options: { readOnly?: boolean } = {}): HeldLock {
  const storePath = realStorePath(dbPath);
  const path = `${storePath}.lock`;
  const owner: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command };
  const held = (replacedStale: LockOwner | null): HeldLock => ({ path, replacedStale, release: () => releaseIfOwned(path, owner) });
  try {
    if (createWhole(path, owner)) return held(null);
  } catch (error) {
    if (!(options.readOnly && NOT_WRITABLE.has((error as NodeJS.ErrnoException).code ?? ''))) throw cannotCreate(path, error);
    refuseLive(dbPath, path, readOwner(path), owner.host);
    return { path, replacedStale: null, release: () => {} };
  }
  refuseLive(dbPath, path, readOwner(path), owner.host);
  // Another starter may have replaced the stale lock meanwhile, or its owner released it: look again, under the lock.
  const replaced = underStoreWriteLock(storePath, () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const found = existsSync(path);
      const holder = found ? readOwner(path) : null;
      if (found) {
        refuseLive(dbPath, path, holder, owner.host);
        rmSync(path, { force: true });
      }
      if (createWhole(path, owner)) return found ? (holder ?? { pid: -1, host: owner.host, startedAt: 'unknown', command: 'unreadable lock file' }) : null;
    }
    throw new UserError('E_STORE_LOCKED', `cannot take the lock ${path}: another process keeps creating it`);
  });
  return held(replaced);
}

/** Refuses when `holder` is a live run (on this host), or one on another host this one cannot judge. */
function refuseLive(dbPath: string, path: string, holder: LockOwner | null | undefined, host: string): void {
  if (!holder) return;
  if (holder.host !== host) {
    throw new UserError('E_STORE_LOCKED', `database ${dbPath} is locked by pid ${holder.pid} on another host (${holder.host}); remove ${path} if that run is gone`);
  }
  if (processAlive(holder.pid)) {
    throw new UserError(
      'E_STORE_LOCKED',
      `database ${dbPath} is locked by another run (pid ${holder.pid} on ${holder.host}, "${holder.command}", since ${holder.startedAt}); wait for it to finish`,
    );
  }
}

/** Errors of a filesystem that has no hard links (FAT, exFAT, some network and FUSE mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Creates the lock file with its whole content at once; false when one exists. Written to a file of
 * its own first, then linked to the lock's name, which fails when the name is taken. Where the
 * filesystem has no hard links, the name is created exclusively and then written: a starter reading
 * it in that instant finds it empty and may take it for stale, a narrow race the link closes where
 * links exist; refusing to lock at all there would be worse.
 */
function createWhole(path: string, owner: LockOwner): boolean {
  mkdirSync(dirname(path), { recursive: true });
  const draft = `${path}.${owner.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    writeExclusively(draft, owner);
    linkSync(draft, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (NO_HARD_LINKS.has(code)) return createDirectly(path, owner);
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

function createDirectly(path: string, owner: LockOwner): boolean {
  try {
    writeExclusively(path, owner);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function writeExclusively(path: string, owner: LockOwner): void {
  const fd = openSync(path, 'wx');
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
}

/** Runs `body` holding the store's SQLite write lock (taken with BEGIN IMMEDIATE, left with a rollback: nothing is written). */
function underStoreWriteLock<T>(storePath: string, body: () => T): T {
  let release: () => void;
  try {
    release = takeWriteLock(storePath, REPLACE_WAIT_MS);
  } catch (error) {
    throw new UserError('E_LOCK_UNWRITABLE', `cannot replace the stale lock of ${storePath}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return body();
  } finally {
    release();
  }
}

function cannotCreate(path: string, error: unknown): UserError {
  return new UserError('E_LOCK_UNWRITABLE', `cannot create lock ${path}: ${notADirectory(error, dirname(path)) ?? (error as Error).message}`, { cause: error });
}

function readOwner(path: string): LockOwner | null {
  try {
    const parsed = LockOwner.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function releaseIfOwned(path: string, owner: LockOwner): void {
  const holder = readOwner(path);
  if (holder?.pid === owner.pid && holder.startedAt === owner.startedAt) rmSync(path, { force: true });
}

import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';
import { UserError } from '../errors.js';
import { processAlive } from './liveness.js';

const LockOwner = z.object({ pid: z.number().int(), host: z.string(), startedAt: z.string(), command: z.string() });
type LockOwner = z.infer<typeof LockOwner>;

export interface HeldLock {
  path: string;
  /** The owner of a stale lock this one replaced, so the caller can report it. */
  replacedStale: LockOwner | null;
  release(): void;
}

/**
 * An exclusive lock on a database, as a file beside it created with O_EXCL. A lock whose process is
 * gone (same host, pid not alive) is stale: it is replaced and reported, never silently ignored.
 */
export function acquireLock(dbPath: string, command: string): HeldLock {
  const path = `${dbPath}.lock`;
  const owner: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command };
  let replacedStale: LockOwner | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(owner));
      closeSync(fd);
      return { path, replacedStale, release: () => releaseIfOwned(path, owner.pid) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new UserError(`cannot create lock ${path}: ${(error as Error).message}`);
    }
    const holder = readOwner(path);
    if (holder && isAlive(holder)) throw lockedBy(dbPath, holder);
    if (holder && holder.host !== owner.host) {
      throw new UserError(`database ${dbPath} is locked by pid ${holder.pid} on another host (${holder.host}); remove ${path} if that run is gone`);
    }
    replacedStale = holder ?? { pid: -1, host: owner.host, startedAt: 'unknown', command: 'unreadable lock file' };
    rmSync(path, { force: true });
  }
  throw new UserError(`cannot take the lock ${path}: another process keeps creating it`);
}

function lockedBy(dbPath: string, holder: LockOwner): UserError {
  return new UserError(
    `database ${dbPath} is locked by another run (pid ${holder.pid} on ${holder.host}, "${holder.command}", since ${holder.startedAt}); wait for it to finish`,
  );
}

function readOwner(path: string): LockOwner | null {
  try {
    const parsed = LockOwner.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function isAlive(owner: LockOwner): boolean {
  return owner.host !== hostname() || processAlive(owner.pid);
}

function releaseIfOwned(path: string, pid: number): void {
  if (readOwner(path)?.pid === pid) rmSync(path, { force: true });
}

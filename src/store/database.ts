import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../errors.js';
import { z } from 'zod';
import { migrations, type Migration } from './migrations.js';
import { Numbers, Texts } from './rows.js';

export type { Database };

/** How long a statement waits for another process's write lock before it fails as busy. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * The one line to show for an SQLite failure that is the store's condition, not a bug: busy past
 * the timeout, read-only, full, or not a database. Undefined for anything else. `bytesLeft` tells
 * the space left under the store (an I/O error with under 1 MiB left is the full disk).
 */
export function storeProblem(error: unknown, path: string, bytesLeft: (dir: string) => number | undefined = freeBytes): UserError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new UserError('E_STORE_BUSY', `database ${path} is busy: another process has held it locked for more than ${BUSY_TIMEOUT_MS / 1000} s; try again once it is done`, { cause: error });
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new UserError('E_STORE_READ_ONLY', `database ${path} is read-only (${(error as Error).message}): give a writable file or directory with --db`, { cause: error });
  }
  // A full disk shows as SQLITE_FULL when a page cannot be written, but as an I/O error when the WAL
  // index (-shm) cannot grow, which every command meets first on opening the store: not a damaged store.
  if (code.startsWith('SQLITE_FULL') || (code.startsWith('SQLITE_IOERR') && (bytesLeft(dirname(path)) ?? Infinity) < 1024 * 1024)) {
    return new UserError('E_STORE_DISK_FULL', `database ${path}: the disk is full: free space on it and run the command again (a run continues where it stopped)`, { cause: error });
  }
  if (code.startsWith('SQLITE_CANTOPEN')) return new UserError('E_STORE_UNOPENABLE', `cannot open database ${path}: ${(error as Error).message}`, { cause: error });
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
    return new UserError('E_STORE_INVALID', `database ${path} is not a usable wikidelta store: ${(error as Error).message}`, { cause: error });
  }
  return undefined;
}

/** The bytes left to this user on the filesystem holding `dir`; undefined when that cannot be told. */
function freeBytes(dir: string): number | undefined {
  try {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

/**
 * Opens (creating if needed) a wikidelta database: WAL, foreign keys, and every pending migration
 * applied; or, `readonly`, an existing store whose schema must be current.
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Database {
  if (path !== ':memory:') {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      throw new UserError('E_STORE_UNOPENABLE', `cannot create the directory of database ${path}: ${(error as Error).message}`);
    }
  }
  let db: Database;
  try {
    db = new Sqlite(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (error) {
    throw new UserError('E_STORE_UNOPENABLE', `cannot open database ${path}: ${(error as Error).message}`);
  }
  try {
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!options.readonly) {
      assertNotForeign(db, path);
      applyMigrations(db, migrations);
    } else assertCurrentSchema(db, path);
  } catch (error) {
    db.close();
    if (error instanceof UserError) throw error;
    throw storeProblem(error, path) ?? new UserError('E_STORE_INVALID', `database ${path} is not a usable wikidelta store: ${(error as Error).message}`);
  }
  return db;
}

/**
 * Opens a store for a command that only reads it (answer, status, changes, evaluate, export). A
 * store this process may write (the file and its directory) is opened as a writer would, pending
 * migrations applied; another user's store, or one on a read-only mount, is opened read-only, its
 * schema required to be current.
 */
export function openStoreForReading(path: string): Database {
  if (writable(path) && writable(dirname(path))) return openDatabase(path);
  if (inWalMode(path) && !existsSync(`${path}-shm`)) {
    throw new UserError(
      'E_STORE_READ_ONLY',
      `database ${path} is in WAL mode and neither it nor its directory can be written here, which SQLite needs to read it: ` +
        'run one writing wikidelta command on it where it can be written (a writer leaves it readable), or read a copy',
    );
  }
  return openDatabase(path, { readonly: true });
}

/** Whether the file's SQLite header says WAL (its read and write versions are 2). */
function inWalMode(path: string): boolean {
  const header = Buffer.alloc(20);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    return readSync(fd, header, 0, header.length, 0) === header.length && header[18] === 2;
  } finally {
    closeSync(fd);
  }
}

/**
 * Takes the SQLite write lock of the store at `path` on a connection of its own (BEGIN IMMEDIATE,
 * waiting up to `waitMs` for another holder), and gives the function that lets it go again (a
 * rollback: nothing is written). The kernel releases it when the process dies, which is what the
 * run lock (src/runs/lock.ts) relies on; throws SQLite's error when it cannot be taken.
 */
export function takeWriteLock(path: string, waitMs: number): () => void {
  const guard = new Sqlite(path, { timeout: waitMs });
  try {
    guard.exec('BEGIN IMMEDIATE');
  } catch (error) {
    guard.close();
    throw error;
  }
  return () => {
    guard.exec('ROLLBACK');
    guard.close();
  };
}

/**
 * Closes a store, leaving it in rollback-journal mode when no other connection has it open. SQLite
 * reads a store in WAL mode only where it may create the `-shm` file beside it, so a store left in
 * WAL mode could not be read from a read-only mount or by another user; every connection that may
 * write puts it back in WAL mode when it opens it. With another connection open the switch is
 * refused at once (busy) and the store stays as it is, for the last one to close.
 */
export function closeStore(db: Database): void {
  if (db.open && !db.readonly) {
    try {
      db.pragma('busy_timeout = 0');
      db.pragma('journal_mode = DELETE');
    } catch {
      // Busy: another process reads or writes the store; the last writer to close alone switches it.
    }
  }
  db.close();
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Applies the migrations of `list` the store lacks, in order, each in its own transaction; returns how many it applied. */
export function applyMigrations(db: Database, list: readonly Migration[]): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const current = schemaVersion(db);
  const latest = list.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new UserError('E_STORE_TOO_NEW', `database schema version ${current} is newer than this wikidelta (${latest}): upgrade wikidelta`);
  }
  const done = new Set(Numbers.parse(db.prepare('SELECT version FROM schema_migrations').pluck().all()));
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  let applied = 0;
  for (const migration of list) {
    if (done.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
    })();
    applied++;
  }
  return applied;
}

/** The store's schema version: the newest migration applied, 0 for a store without any. */
export function schemaVersion(db: Database): number {
  return z.number().int().nullable().parse(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()) ?? 0;
}

/** Whether no table holds a row but the schema's own record: a store just created, with nothing written yet. */
export function holdsNothing(db: Database): boolean {
  const tables = Texts.parse(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'").pluck().all());
  return tables.every((table) => db.prepare(`SELECT 1 FROM "${table.replace(/"/g, '""')}" LIMIT 1`).get() === undefined);
}

/**
 * Refuses a database another program made (tables, but no wikidelta migrations), so that opening
 * it never writes wikidelta's schema into it.
 */
function assertNotForeign(db: Database, path: string): void {
  const tables = Texts.parse(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all());
  if (tables.length > 0 && !tables.includes('schema_migrations')) {
    throw new UserError('E_STORE_INVALID', `database ${path} is not a wikidelta store: it holds another program's tables (${tables.slice(0, 3).join(', ')}${tables.length > 3 ? ', …' : ''}); give another --db`);
  }
}

function assertCurrentSchema(db: Database, path: string): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  const latest = migrations.at(-1)?.version ?? 0;
  if (!exists) throw new UserError('E_STORE_INVALID', `database ${path} has no current wikidelta schema: run a pipeline on it first`);
  const version = schemaVersion(db);
  if (version < latest) {
    // Read-only here, an older wikidelta's store cannot take the migrations that any writer applies.
    throw new UserError(
      'E_STORE_INVALID',
      `database ${path} was written by an older wikidelta (schema ${version}; this one reads ${latest}) and cannot be upgraded where it cannot be written: ` +
        'run any wikidelta command on it once where it can be written (which upgrades it), or read an upgraded copy',
    );
  }
}

import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../errors.js';
import { migrations, type Migration } from './migrations.js';

export type { Database };

/** Opens (creating if needed) a wikidelta database: WAL, foreign keys, and every pending migration applied. */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  let db: Database;
  try {
    db = new Sqlite(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (error) {
    throw new UserError(`cannot open database ${path}: ${(error as Error).message}`);
  }
  try {
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (!options.readonly) applyMigrations(db, migrations);
    else assertCurrentSchema(db, path);
  } catch (error) {
    db.close();
    if (error instanceof UserError) throw error;
    throw new UserError(`database ${path} is not a usable wikidelta store: ${(error as Error).message}`);
  }
  return db;
}

export function applyMigrations(db: Database, list: readonly Migration[]): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const current = schemaVersion(db);
  const latest = list.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new UserError(`database schema version ${current} is newer than this wikidelta (${latest}): upgrade wikidelta`);
  }
  const done = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
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

export function schemaVersion(db: Database): number {
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null } | undefined;
  return row?.version ?? 0;
}

function assertCurrentSchema(db: Database, path: string): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  const latest = migrations.at(-1)?.version ?? 0;
  if (!exists || schemaVersion(db) < latest) {
    throw new UserError(`database ${path} has no current wikidelta schema: run a pipeline on it first`);
  }
}

import type { Command } from 'commander';
import { resolve } from 'node:path';
import { openDatabase, type Database } from '../store/database.js';
import { acquireLock, type HeldLock } from '../runs/lock.js';
import { createReporter, type Reporter } from '../runs/progress.js';
import { RunStore } from '../store/runStore.js';
import { loadSettings, type Settings } from '../settings.js';
import { UserError } from '../errors.js';
import { existsSync } from 'node:fs';

export interface GlobalFlags {
  db?: string;
  json?: boolean;
  config?: string;
}

/** What a command works with: validated settings, the database, and (for writers) the lock. */
export interface Session {
  settings: Settings;
  dbPath: string;
  db: Database;
  json: boolean;
  reporter: Reporter;
  close(): void;
}

/** Settings from the command's flags, the environment and the config file. */
export function settingsFor(command: Command, flags: Record<string, unknown> = {}): { settings: Settings; json: boolean } {
  const globals = command.optsWithGlobals<GlobalFlags>();
  const settings = loadSettings({
    configPath: globals.config,
    flags: { db: globals.db, ...flags },
  });
  return { settings, json: Boolean(globals.json) };
}

/**
 * Opens the database for a command. Writers take the lock first; a stale lock left by a dead process
 * is reported and the runs it left 'running' are marked failed, so status tells what happened.
 */
export function openSession(command: Command, options: { write: boolean; flags?: Record<string, unknown>; dbPath?: string }): Session {
  const { settings, json } = settingsFor(command, options.flags);
  const dbPath = resolve(options.dbPath ?? settings.db);
  const reporter = createReporter(process.stderr, { json });
  if (!options.write && !existsSync(dbPath)) throw new UserError(`no database at ${dbPath}: run a pipeline first or pass --db`);
  let lock: HeldLock | null = null;
  if (options.write) {
    lock = acquireLock(dbPath, process.argv.slice(2).join(' '));
  }
  let db: Database;
  try {
    db = openDatabase(dbPath);
  } catch (error) {
    lock?.release();
    throw error;
  }
  if (lock?.replacedStale) {
    const stale = lock.replacedStale;
    const marked = new RunStore(db).markInterrupted(`interrupted: process ${stale.pid} died without finishing`, 'others');
    reporter.warn(`removed a stale lock left by dead process ${stale.pid} ("${stale.command}", since ${stale.startedAt})`, {
      runs_marked_failed: marked,
    });
  }
  const release = () => lock?.release();
  const interrupt = (signal: NodeJS.Signals) => {
    new RunStore(db).markInterrupted(`interrupted by ${signal}`, 'mine');
    reporter.warn(`stopped by ${signal}`);
    db.close();
    release();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  if (options.write) {
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
  }
  return {
    settings,
    dbPath,
    db,
    json,
    reporter,
    close() {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      db.close();
      release();
    },
  };
}

/** Runs a command body with a session that is always closed (lock released) afterwards. */
export async function withSession<T>(
  command: Command,
  options: { write: boolean; flags?: Record<string, unknown>; dbPath?: string },
  body: (session: Session) => Promise<T> | T,
): Promise<T> {
  const session = openSession(command, options);
  try {
    return await body(session);
  } finally {
    session.close();
  }
}

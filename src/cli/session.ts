import type { Command } from 'commander';
import { resolve } from 'node:path';
import { storeProblem } from '../store/database.js';
import { Store } from '../store/store.js';
import { acquireLock, type HeldLock } from '../runs/lock.js';
import { createReporter, type Reporter } from '../runs/progress.js';
import { loadSettings, type Settings } from '../settings.js';
import { UserError } from '../errors.js';
import { existsSync, rmSync } from 'node:fs';
import { hidingPasswords } from '../queue/connection.js';

/** The program's own options (src/cli/program.ts), which every command reads through `optsWithGlobals`. */
export interface GlobalFlags {
  db?: string;
  json?: boolean;
  config?: string;
}

/** What a command works with: validated settings, the store, and (for writers) the lock. */
export interface Session {
  settings: Settings;
  dbPath: string;
  /** Whether this session made the store (no file was there). */
  created: boolean;
  /** The session's one Store: every repository, each statement prepared once. */
  store: Store;
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

export interface SessionOptions {
  /** Writes the store: may create it, and takes the lock. */
  write: boolean;
  /** Takes the lock without writing (default: `write`): exports, which must not read a run half-way. */
  lock?: boolean;
  flags?: Record<string, unknown>;
  dbPath?: string;
}

/**
 * Opens the database for a command. Writers (and exports) take the lock first; a stale lock left by
 * a dead process is reported and the runs it left 'running' are marked failed, so status tells what
 * happened. Readers open a store they cannot write (another user's, a read-only mount) read-only,
 * and an export that cannot create the lock there reads without it (docs/ARCHITECTURE.md §9).
 */
export function openSession(command: Command, options: SessionOptions): Session {
  const { settings, json } = settingsFor(command, options.flags);
  const dbPath = resolve(options.dbPath ?? settings.db);
  const reporter = createReporter(process.stderr, { json });
  if (!options.write && !existsSync(dbPath)) throw new UserError('E_STORE_MISSING', `no database at ${dbPath}: run a pipeline first or pass --db`);
  const created = options.write && !existsSync(dbPath);
  const lock: HeldLock | null = (options.lock ?? options.write) ? acquireLock(dbPath, hidingPasswords(process.argv.slice(2).join(' ')), { readOnly: !options.write }) : null;
  let store: Store;
  try {
    store = options.write ? Store.open(dbPath) : Store.openForReading(dbPath);
  } catch (error) {
    lock?.release();
    throw error;
  }
  if (lock?.replacedStale) {
    const stale = lock.replacedStale;
    const marked = store.runs.markInterrupted(`interrupted: process ${stale.pid} died without finishing`, 'others');
    reporter.warn(`removed a stale lock left by dead process ${stale.pid} ("${stale.command}", since ${stale.startedAt})`, {
      runs_marked_failed: marked,
    });
  }
  const release = () => lock?.release();
  const close = () => store.close();
  // Stays the handler of both signals until the process ends: with `once`, a second signal (a
  // second Ctrl-C, systemd's stop repeated) would meet the default action and end the process
  // before the first one's handler removed the lock. Marking the run may fail (a busy store); the
  // lock goes all the same.
  const interrupt = (signal: NodeJS.Signals) => {
    try {
      store.runs.markInterrupted(`interrupted by ${signal}`, 'mine');
      reporter.warn(`stopped by ${signal}`);
      close();
    } finally {
      release();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
  };
  if (lock) {
    process.on('SIGINT', interrupt);
    process.on('SIGTERM', interrupt);
  }
  return {
    settings,
    dbPath,
    created,
    store,
    json,
    reporter,
    close() {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      close();
      release();
    },
  };
}

/**
 * Runs a command body with a session that is always closed (lock released) afterwards. A store that
 * is busy, read-only or full ends the command with one line naming it, not as a bug.
 */
export async function withSession<T>(command: Command, options: SessionOptions, body: (session: Session) => Promise<T> | T): Promise<T> {
  const session = openSession(command, options);
  let failed = false;
  try {
    return await body(session);
  } catch (error) {
    failed = true;
    throw storeProblem(error, session.dbPath) ?? error;
  } finally {
    // A command refused before it wrote anything (a flag, a missing file) leaves no store it made behind.
    const leftEmpty = failed && session.created && session.store.isEmpty();
    session.close();
    if (leftEmpty) for (const suffix of ['', '-wal', '-shm']) rmSync(`${session.dbPath}${suffix}`, { force: true });
  }
}

/**
 * A real MediaWiki (Debian's package, PHP's built-in server, SQLite) on loopback for integration
 * tests and benchmarks, set up with the recipe of docs/ARCHITECTURE.md §10 in a fresh temporary directory.
 */
import { Mwn } from 'mwn';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const MEDIAWIKI_ROOT = '/usr/share/mediawiki';
const MAINTENANCE = join(MEDIAWIKI_ROOT, 'maintenance');
const ADMIN_USER = 'Admin';
// install.php rejects short or common passwords; this one is only ever used on loopback.
const ADMIN_PASSWORD = 'wikidelta-loopback-admin';
const STARTUP_TIMEOUT_MS = 20_000;
// php -S serves one request at a time unless told to fork workers; the source under test keeps
// up to 3 requests in flight, so give it room for those plus a test's own admin requests.
const SERVER_WORKERS = '4';

const execFileAsync = promisify(execFile);

export interface MediaWikiServer {
  /** e.g. http://127.0.0.1:34567/api.php */
  apiUrl: string;
  /** e.g. http://127.0.0.1:34567 */
  baseUrl: string;
  /** The temporary directory holding LocalSettings.php and the SQLite databases. */
  dir: string;
  /** The administrator created by install.php, for tests that write through the API. */
  adminUser: string;
  adminPassword: string;
  /** Imports more revisions, then rebuilds recent changes and the search index. */
  importDump(file: string): Promise<void>;
  /** Requests the server has answered so far (every request, including the startup probe). */
  requestCount(): number;
  /**
   * The count once the server's log has gone quiet: php -S writes a request's log line after the
   * answer, so a count read right after a reply can still miss that request, or an earlier one.
   */
  settledRequestCount(): Promise<number>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** XML dumps imported before the server starts, in order. */
  dumps: string[];
  /** Fixed port; by default a free one is picked. */
  port?: number;
  /** PHP appended to LocalSettings.php before any import (e.g. wikibaseItemSettings() of testkit/wikibaseApi.ts). */
  localSettings?: string;
}

export async function startMediaWiki(options: StartOptions): Promise<MediaWikiServer> {
  assertInstalled();
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const dir = await mkdtemp(join(tmpdir(), 'wikidelta-mediawiki-'));
  const env = { ...process.env, MW_CONFIG_FILE: join(dir, 'LocalSettings.php') };

  const runMaintenance = async (script: string, ...args: string[]): Promise<void> => {
    try {
      await execFileAsync('php', [join(MAINTENANCE, script), ...args], { env, cwd: dir, maxBuffer: 64 * 1024 * 1024 });
    } catch (error) {
      const output = error as { stdout?: string; stderr?: string };
      throw new Error(`MediaWiki ${script} failed: ${output.stderr || output.stdout || String(error)}`);
    }
  };
  const importDump = async (file: string): Promise<void> => {
    await runMaintenance('importDump.php', '--no-updates', file);
    await runMaintenance('rebuildrecentchanges.php');
    await runMaintenance('rebuildtextindex.php');
  };

  let server: ChildProcess | undefined;
  try {
    await runMaintenance(
      'install.php',
      '--dbtype=sqlite',
      `--dbpath=${dir}`,
      '--dbname=wiki',
      `--server=${baseUrl}`,
      '--scriptpath=',
      `--confpath=${dir}`,
      `--pass=${ADMIN_PASSWORD}`,
      'Wiki',
      ADMIN_USER,
    );
    await appendFile(env.MW_CONFIG_FILE, LOCAL_SETTINGS_FOR_TESTS + (options.localSettings ?? ''));
    for (const dump of options.dumps) await importDump(dump);

    server = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', MEDIAWIKI_ROOT], {
      env: { ...env, PHP_CLI_SERVER_WORKERS: SERVER_WORKERS },
      cwd: dir,
      // Its own process group, so stop() also ends the forked workers.
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const log = watchLog(server);
    const stopServer = stopper(server, dir);
    await waitUntilAnswering(`${baseUrl}/api.php?action=query&meta=siteinfo&format=json`, server, log);
    return {
      apiUrl: `${baseUrl}/api.php`,
      baseUrl,
      dir,
      adminUser: ADMIN_USER,
      adminPassword: ADMIN_PASSWORD,
      importDump,
      requestCount: () => log.answered,
      settledRequestCount: async () => {
        for (let last = -1; last !== log.answered; ) {
          last = log.answered;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        return log.answered;
      },
      stop: stopServer,
    };
  } catch (error) {
    if (server) await stopper(server, dir)();
    else await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Appended to the generated LocalSettings.php: keep every change visible and make runs deterministic. */
const LOCAL_SETTINGS_FOR_TESTS = `
# wikidelta tests: recent changes must reach back to the imported 2018-2021 revisions.
$wgRCMaxAge = 100 * 365 * 86400;
# No jobs run at the end of web requests: what a request changes is done when it returns.
$wgJobRunRate = 0;
$wgEnableUploads = false;
$wgMainCacheType = CACHE_NONE;
$wgShowExceptionDetails = true;
`;

function assertInstalled(): void {
  if (!existsSync(join(MAINTENANCE, 'install.php'))) {
    throw new Error(
      `MediaWiki is not installed (${MAINTENANCE}/install.php is missing): run sudo bash scripts/system-deps.sh`,
    );
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

interface ServerLog {
  answered: number;
  /** The last lines, to explain a failed start. */
  tail: string[];
}

/** php -S logs one `[STATUS]: METHOD /path` line per answered request on stderr. */
function watchLog(server: ChildProcess): ServerLog {
  const log: ServerLog = { answered: 0, tail: [] };
  let partial = '';
  server.stderr?.setEncoding('utf8');
  server.stderr?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (/ \[\d{3}\]: [A-Z]+ /.test(line)) log.answered++;
      log.tail.push(line);
      if (log.tail.length > 20) log.tail.shift();
    }
  });
  return log;
}

async function waitUntilAnswering(url: string, server: ChildProcess, log: ServerLog): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) break;
    try {
      const response = await fetch(url);
      if (response.ok) {
        await response.json();
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const why = server.exitCode !== null ? `php -S exited with code ${server.exitCode}` : `no answer within ${STARTUP_TIMEOUT_MS} ms`;
  throw new Error(`MediaWiki did not start (${why}) at ${url}:\n${log.tail.join('\n')}`);
}

function stopper(server: ChildProcess, dir: string): () => Promise<void> {
  const killGroup = (): void => {
    if (server.pid === undefined) return;
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  // A test run that dies without calling stop() must not leave PHP servers behind.
  process.once('exit', killGroup);
  let stopped: Promise<void> | undefined;
  return () => {
    stopped ??= (async () => {
      process.removeListener('exit', killGroup);
      const exited = new Promise<void>((resolve) => {
        if (server.exitCode !== null || server.signalCode !== null) resolve();
        else server.once('exit', () => resolve());
      });
      killGroup();
      await exited;
      await rm(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
}

/** A logged-in administrator of a test wiki, for tests that edit, move or delete through the API. */
export async function adminClient(wiki: MediaWikiServer, userAgent: string): Promise<Mwn> {
  const admin = new Mwn({ apiUrl: wiki.apiUrl, username: wiki.adminUser, password: wiki.adminPassword, userAgent, silent: true, suppressAPIWarnings: true });
  await admin.login();
  return admin;
}

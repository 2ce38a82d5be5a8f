import { InvalidArgumentError, Option, type Command } from 'commander';
import { z } from 'zod';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatReport } from '../../audit/report.js';
import type { SamplePlan } from '../../audit/sample.js';
import { UserError } from '../../errors.js';
import { packageRoot } from '../../packageRoot.js';
import { auditItemKinds } from '../../audit/kinds/index.js';
import type { SourceFlag } from '../../audit/kinds/kind.js';
import { writeFileAtomically, writeFilesAtomically } from '../../release/atomicFiles.js';
import { candidatesOf, createAudit, describeSample, growAudit, kindOf, renewLinks, type AuditChange, type IssuedLink, type SourceParams } from '../../../pipelines/audit/build.js';
import { auditResults, judgmentRows } from '../../../pipelines/audit/results.js';
import { addOptions, dateOption, integerOption, listOption, outputFile, outputFileOption, refuseUsage, type OptionFor, type OptionsOf } from '../options.js';
import { withSession, type GlobalFlags, type Session } from '../session.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './serve.js';

const DEFAULT_BASE_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
/** GrowOVER's human check took 30 items of each type. */
const DEFAULT_PER_STRATUM = 30;
const DEMO_AUDIT = 'demo';
const DEMO_ANNOTATORS = ['alice', 'bob'];
const DEMO_PER_STRATUM = 5;

/** How many items a new or grown audit samples, and where its links point. */
/** `--name`, which every audit command but the demo takes. */
function auditNameOption(): Option {
  return new Option('--name <name>', 'the audit name')
    .makeOptionMandatory()
    .argParser((value: string) => {
      if (value.trim() === '' || value !== value.trim() || /\p{Cc}/u.test(value)) {
        throw new InvalidArgumentError(`invalid audit name ${JSON.stringify(value)}: expected a visible name without line breaks or surrounding spaces, e.g. growover-04`);
      }
      return value;
    });
}

interface SampleFlags {
  size?: number;
  perStratum?: number;
  baseUrl: string;
}

/** `audit create`'s own flags; each item kind adds those its source reads (`SourceFlag`s, typed in the kind). */
interface CreateFlags extends SampleFlags {
  name: string;
  of: string;
  annotators: string[];
  raters: number;
  seed?: number;
  [kindFlag: string]: unknown;
}

interface AddFlags extends SampleFlags {
  name: string;
  annotators?: string[];
}

interface LinksFlags {
  name: string;
  annotators?: string[];
  baseUrl: string;
}

/** `audit report` and `audit export`: the audit, and where its results go. */
interface ResultsFlags {
  name: string;
  out?: string;
}

interface DemoFlags {
  port: number;
}

/** `audit`: annotators judge a sample of labels or items in the browser; the maintainer reads precision and agreement (docs/ARCHITECTURE.md §14). */
export function registerAudit(program: Command): void {
  const audit = program.command('audit').description('audits by annotators: sample items, hand out links, report precision and agreement');

  addOptions<CreateFlags>(
    audit.command('create').description("samples items, freezes them, gives each to --raters annotators (balanced) and prints each annotator's link"),
    {
      name: auditNameOption(),
      of: new Option('--of <source>', `what to audit: ${inWords(auditItemKinds().map((kind) => kind.noun))}`).choices(auditItemKinds().map((kind) => kind.source)).makeOptionMandatory(),
      ...kindOptions(),
      annotators: listOption('--annotators <names>', 'comma-separated annotator names').makeOptionMandatory(),
      raters: integerOption('--raters <k>', 'annotators per item').default(3),
      seed: integerOption('--seed <n>', 'seed of the sample and the assignment (default: the settings seed)'),
      ...sampleOptions(),
    },
  ).action(async (flags: CreateFlags, command: Command) => {
    const source = sourceOf(flags, command);
    const plan = planOf(flags, command) ?? { perStratum: DEFAULT_PER_STRATUM };
    await withSession(command, { write: false, lock: true }, (session) => {
      const change = createAudit(session.store, {
        name: flags.name,
        source,
        plan,
        annotators: flags.annotators,
        raters: flags.raters,
        seed: flags.seed ?? session.settings.seed,
        now: new Date().toISOString(),
      });
      printChange(session, change, flags.baseUrl, `audit ${change.audit.name}: ${change.items.length} items (${describeSample(change.items)}) from ${describeSource(source)}, ${change.audit.raters} raters each`);
    });
  });

  addOptions<AddFlags>(audit.command('add').description('adds annotators (given their share of unjudged items) and/or more items from the same source'), {
    name: auditNameOption(),
    annotators: listOption('--annotators <names>', 'comma-separated names of new annotators'),
    ...sampleOptions(),
  }).action(async (flags: AddFlags, command: Command) => {
    const plan = planOf(flags, command);
    await withSession(command, { write: false, lock: true }, (session) => {
      const change = growAudit(session.store, { name: flags.name, annotators: flags.annotators ?? [], plan });
      const moved = change.moved > 0 ? `, ${change.moved} unjudged assignments moved to balance the load` : '';
      printChange(session, change, flags.baseUrl, `audit ${change.audit.name}: ${plural(change.items.length, 'item')} and ${plural(change.links.length, 'annotator')} added${moved}`);
    });
  });

  addOptions<LinksFlags>(
    audit.command('links').description("new links for annotators who lost theirs (tokens are kept hashed, so an old link cannot be shown again; it stops working)"),
    {
      name: auditNameOption(),
      annotators: listOption('--annotators <names>', 'whose links to renew, "admin" for the maintainer (default: everyone)'),
      baseUrl: baseUrlOption(),
    },
  ).action(async (flags: LinksFlags, command: Command) => {
    await withSession(command, { write: false, lock: false }, (session) => {
      const { audit: info, links } = renewLinks(session.store, flags.name, flags.annotators ?? []);
      printChange(session, { audit: info, items: [], links, moved: 0 }, flags.baseUrl, `audit ${info.name}: new links (the old ones no longer work)`);
    });
  });

  addOptions<ResultsFlags>(audit.command('report').description('precision (Wilson 95% intervals), agreement (Fleiss, Krippendorff, Cohen), majority verdicts and disputed items'), {
    name: auditNameOption(),
    out: new Option('--out <dir>', 'write report.json and report.txt into this directory'),
  }).action(async (flags: ResultsFlags, command: Command) => {
    await withSession(command, { write: false, lock: false }, (session) => {
      const report = auditResults(session.store, flags.name);
      const json = `${JSON.stringify(report, null, 2)}\n`;
      const text = formatReport(report).replace(/\n?$/, '\n');
      if (flags.out === undefined) {
        process.stdout.write(session.json ? `${JSON.stringify(report)}\n` : text);
        return;
      }
      writeFilesAtomically(flags.out, new Map([['report.json', json], ['report.txt', text]]), /^report\.(json|txt)$/);
      process.stdout.write(session.json ? `${JSON.stringify({ out: flags.out, files: ['report.json', 'report.txt'] })}\n` : `wrote report.json and report.txt to ${flags.out}\n`);
    });
  });

  addOptions<ResultsFlags>(
    audit
      .command('export')
      .description('every judgment row (a changed verdict is a later row; withdrawn: true takes the verdict named back) as JSON lines: item, annotator, verdict, label, answer, note, seconds, created_at, withdrawn'),
    {
      name: auditNameOption(),
      out: outputFileOption('--out <file>', 'write to this file'),
    },
  ).action(async (flags: ResultsFlags, command: Command) => {
    await withSession(command, { write: false, lock: false }, (session) => {
      const lines = judgmentRows(session.store, flags.name).map((row) => `${JSON.stringify(row)}\n`);
      const out = outputFile(flags.out);
      if (out === undefined) process.stdout.write(lines.join(''));
      else writeFileAtomically(out, lines);
    });
  });

  addOptions<DemoFlags>(audit.command('demo').description("opens a demo audit of the demo store (made by npm start) for alice and bob, prints their links and serves the pages until Ctrl-C"), {
    port: integerOption('--port <n>', 'port on 127.0.0.1 (0: any free port)').default(DEFAULT_PORT),
  }).action(async (flags: DemoFlags, command: Command) => {
    if (flags.port < 0 || flags.port > 65_535) throw new UserError('E_FLAG_INVALID', `invalid --port ${flags.port}: from 0 to 65535`);
    const globals = command.optsWithGlobals<GlobalFlags>();
    const dbPath = resolve(globals.db ?? process.env.WIKIDELTA_DB ?? join(packageRoot(), 'data/demo.sqlite'));
    if (!existsSync(dbPath)) throw new UserError('E_STORE_MISSING', `no demo store at ${dbPath}: run npm start first, which builds it`);
    await withSession(command, { write: false, lock: false, dbPath }, async (session) => {
      const { startAuditServer } = await import('../../serve/server.js');
      const server = await startAuditServer({ store: session.store, host: '127.0.0.1', port: flags.port, log: (line) => process.stderr.write(`${line}\n`) }).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EADDRINUSE' ? new UserError('E_LISTEN_FAILED', `port ${flags.port} is in use: choose another --port`) : error;
      });
      try {
        const { links, heading } = demoAudit(session);
        const out = (line = '') => process.stdout.write(`${line}\n`);
        out(heading);
        printLinks(out, links, server.url, `kept for the next run in ${demoLinksPath(session.dbPath)}, readable by you only; the store keeps only a hash of each token`);
        out();
        out(`serving ${server.url} on this machine only; Ctrl-C stops. Then: wikidelta audit report --db ${session.dbPath} --name ${DEMO_AUDIT}`);
        await untilStopped();
      } finally {
        await server.close();
      }
    });
  });
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The sample's size and the links' address, last in `audit create` and `audit add`. */
function sampleOptions(): OptionsOf<SampleFlags> {
  return {
    size: integerOption('--size <n>', 'a simple random sample of n items'),
    perStratum: integerOption('--per-stratum <n>', `n items of each stratum (label, item type, or domain; default ${DEFAULT_PER_STRATUM} for create)`),
    baseUrl: baseUrlOption(),
  };
}

/** Each kind's options of `audit create`, kind after kind in registry order. */
function kindOptions(): Record<string, Option> {
  return Object.fromEntries(auditItemKinds().flatMap((kind) => Object.entries(kind.flags).map(([key, flag]) => [key, optionOf(flag)])));
}

function optionOf(flag: SourceFlag): Option {
  const option = flag.date ? dateOption(flag.flags, flag.description) : new Option(flag.flags, flag.description);
  if (flag.choices) option.choices(flag.choices);
  if (flag.default !== undefined) option.default(flag.default);
  return option;
}

/** `a, b, c, or d`. */
function inWords(nouns: readonly string[]): string {
  return nouns.length < 2 ? nouns.join('') : `${nouns.slice(0, -1).join(', ')}, or ${nouns.at(-1) ?? ''}`;
}

function baseUrlOption(): OptionFor<string> {
  return new Option('--base-url <url>', 'the server address the links point to').default(DEFAULT_BASE_URL).argParser((value: string) => {
    if (!/^https?:\/\/[^/\s]+\/?$/.test(value)) throw new InvalidArgumentError(`expected the server's address, like ${DEFAULT_BASE_URL}, got "${value}"`);
    return value;
  });
}

function sourceOf(flags: CreateFlags, command: Command): SourceParams {
  const need = (value: unknown, option: string): string => (typeof value === 'string' ? value : refuseUsage(command, `--of ${flags.of} needs ${option}`));
  const source = { of: flags.of };
  return { ...source, ...kindOf(source).paramsFromFlags(flags, need) };
}

function planOf(flags: SampleFlags, command: Command): SamplePlan | undefined {
  if (flags.size !== undefined && flags.perStratum !== undefined) refuseUsage(command, 'give --size or --per-stratum, not both');
  if (flags.size !== undefined) return { size: flags.size };
  if (flags.perStratum !== undefined) return { perStratum: flags.perStratum };
  return undefined;
}

function describeSource(source: SourceParams): string {
  const kind = kindOf(source);
  return kind.describe(kind.params.parse(source));
}

function linkOf(baseUrl: string, link: IssuedLink): string {
  return `${baseUrl.replace(/\/+$/, '')}/${link.role === 'admin' ? 'admin' : 'a'}/${link.token}`;
}

function printLinks(out: (line?: string) => void, links: readonly IssuedLink[], baseUrl: string, kept = 'shown once: the store keeps only a hash of each token'): void {
  const annotators = links.filter((link) => link.role === 'annotator');
  const width = Math.max(0, ...annotators.map((link) => link.name.length));
  if (annotators.length > 0) out(`annotator links (${kept}):`);
  for (const link of annotators) out(`  ${link.name.padEnd(width)}  ${linkOf(baseUrl, link)}`);
  for (const link of links.filter((l) => l.role === 'admin')) out(`maintainer: ${linkOf(baseUrl, link)}`);
}

function printChange(session: Session, change: AuditChange, baseUrl: string, heading: string): void {
  const withUrl = (link: IssuedLink) => ({ name: link.name, token: link.token, url: linkOf(baseUrl, link) });
  if (session.json) {
    const admin = change.links.find((link) => link.role === 'admin');
    process.stdout.write(
      `${JSON.stringify({
        audit: change.audit,
        items: change.items,
        annotators: change.links.filter((link) => link.role === 'annotator').map(withUrl),
        ...(admin ? { admin: { token: admin.token, url: linkOf(baseUrl, admin) } } : {}),
        moved: change.moved,
      })}\n`,
    );
    return;
  }
  const out = (line = '') => process.stdout.write(`${line}\n`);
  out(heading);
  for (const row of session.store.audits.progress(change.audit.id)) out(`  ${row.annotator}: ${row.assigned} items assigned, ${row.judged} judged`);
  printLinks(out, change.links, baseUrl);
  out(`serve the pages: ${serveCommand(session.dbPath, baseUrl)}`);
}

/**
 * The `serve` that the links work with: a loopback address is where it must listen (serve's default
 * host, 127.0.0.1, answers neither ::1 nor the rest of 127/8), on the link's port; any other address
 * is a proxy's, in front of the default.
 */
function serveCommand(dbPath: string, baseUrl: string): string {
  const url = new URL(baseUrl);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const host = url.hostname === '[::1]' ? '::1' : url.hostname;
  const loopback = host === 'localhost' || host.startsWith('127.') || host === '::1';
  if (!loopback) return `wikidelta serve --db ${dbPath}`;
  const hostFlag = host === 'localhost' || host === DEFAULT_HOST ? '' : ` --host ${host}`;
  return `wikidelta serve --db ${dbPath}${hostFlag}${port === DEFAULT_PORT ? '' : ` --port ${port}`}`;
}

/**
 * The demo store's audit "demo", made on first use from the GrowOVER items of its latest snapshot
 * that has any (else its latest sentence labels), whose links survive a rerun. The store keeps
 * tokens only as hashes, so the demo keeps the links it issued in a file of its own beside the
 * store (`demoLinksPath`, readable by its owner only) and prints them again while they still open;
 * a link renewed meanwhile (`audit links`) or a lost file gets a new token.
 */
function demoAudit(session: Session): { links: IssuedLink[]; heading: string } {
  const store = session.store.audits;
  const path = demoLinksPath(session.dbPath);
  const existing = store.audit(DEMO_AUDIT);
  if (existing) {
    const people = store.annotators(existing.id);
    const kept = readDemoLinks(path).filter((link) => {
      const holder = store.annotatorByToken(link.token);
      return holder !== undefined && holder.auditId === existing.id && holder.name === link.name && holder.role === link.role;
    });
    const lost = people.filter((person) => !kept.some((link) => link.name === person.name && link.role === person.role));
    if (lost.length === 0) return { links: people.flatMap((person) => kept.filter((link) => link.name === person.name && link.role === person.role)), heading: `audit ${DEMO_AUDIT} (made earlier; the same links as before):` };
    const renewed = renewLinks(session.store, DEMO_AUDIT, lost.map((person) => person.name)).links;
    const links = people.flatMap((person) => [...kept, ...renewed].filter((link) => link.name === person.name && link.role === person.role));
    keepDemoLinks(path, links);
    return { links, heading: `audit ${DEMO_AUDIT} (made earlier; new links for ${lost.map((person) => person.name).join(', ')}, whose kept link no longer opened):` };
  }
  const source = demoSource(session);
  const change = createAudit(session.store, {
    name: DEMO_AUDIT,
    source,
    plan: { perStratum: DEMO_PER_STRATUM },
    annotators: DEMO_ANNOTATORS,
    raters: DEMO_ANNOTATORS.length,
    seed: session.settings.seed,
    now: new Date().toISOString(),
  });
  keepDemoLinks(path, change.links);
  return { links: change.links, heading: `audit ${DEMO_AUDIT}: ${change.items.length} items (${describeSample(change.items)}) from ${describeSource(source)}, judged by alice and bob` };
}

/** Where `audit demo` keeps the links it issued: beside the store, named after it. */
function demoLinksPath(dbPath: string): string {
  return `${dbPath}.audit-demo-links.json`;
}

const DemoLinks = z.object({
  audit: z.literal(DEMO_AUDIT),
  links: z.array(z.object({ name: z.string(), role: z.enum(['annotator', 'admin']), token: z.string() })),
});

/** The links kept by an earlier run; none when the file is missing, unreadable or not one of ours. */
function readDemoLinks(path: string): IssuedLink[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
  const parsed = DemoLinks.safeParse(raw);
  return parsed.success ? parsed.data.links : [];
}

/** Written by its owner only (0600): the file holds working links, which the store itself never does. */
function keepDemoLinks(path: string, links: readonly IssuedLink[]): void {
  try {
    writeFileAtomically(path, `${JSON.stringify({ audit: DEMO_AUDIT, links }, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    process.stderr.write(`wikidelta: the demo's links could not be kept (${(error as Error).message}): a rerun will issue new ones\n`);
  }
}

function demoSource(session: Session): SourceParams {
  const names = session.store.snapshots.snapshotNames();
  const hasCandidates = (source: SourceParams) => {
    try {
      return candidatesOf(session.store, source).length > 0;
    } catch (error) {
      if (error instanceof UserError) return false;
      throw error;
    }
  };
  const growover = [...names].reverse().map((snapshot): SourceParams => ({ of: 'growover', snapshot })).find(hasCandidates);
  if (growover) return growover;
  const labels = names
    .slice(1)
    .map((name, index): SourceParams => ({ of: 'labels', old: names[index] ?? '', new: name }))
    .reverse()
    .find(hasCandidates);
  if (labels) return labels;
  throw new UserError('E_NOTHING_TO_AUDIT', `the store at ${session.dbPath} has no GrowOVER items or sentence labels to audit: run npm start to build the demo store`);
}

function untilStopped(): Promise<void> {
  return new Promise((resolveStop) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveStop();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readContent, type ShippedItemContent } from '../../src/audit/kinds/index.js';
import { VERDICTS, type AuditItem, type Verdict } from '../../src/model/audit.js';
import { cosine, textHash } from '../../src/models/embedder.js';
import { EmbeddingCache } from '../../src/store/embeddingCache.js';
import { openDatabase } from '../../src/store/database.js';
import { AuditStore } from '../../src/store/auditStore.js';
import { collect, jsonLines, runCli, runCliOk, startCli, tempDir, waitForOutput } from '../../testkit/cli.js';
import type { ErrorCode } from '../../src/errors.js';

const dir = tempDir('wikidelta-audit-cli-');
const db = join(dir, 'demo.sqlite');
let demoOutput = '';

interface Created {
  audit: { id: number; name: string; source: string; raters: number };
  items: Array<{ id: number; key: string; stratum: string; annotators: string[] }>;
  annotators: Array<{ name: string; token: string; url: string }>;
  admin: { token: string; url: string };
}

/** An item's content read through its kind's schema, as the pages and the report read it. */
function contentOf(item: AuditItem): ShippedItemContent {
  return readContent(item.content).content as ShippedItemContent;
}

async function createdJson(args: string[]): Promise<Created> {
  const run = await runCliOk(['--db', db, '--json', 'audit', 'create', ...args]);
  return JSON.parse(run.stdout) as Created;
}

/** A refusal in one line, with its code, and its wording where that is the point (the names it offers). */
async function failsInOneLine(args: string[], code: ErrorCode, options: { message?: RegExp; store?: string } = {}): Promise<void> {
  const run = await runCli(['--db', options.store ?? db, ...args]);
  expect(run.code).toBe(1);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.errorCode).toBe(code);
  if (options.message) expect(run.stderr).toMatch(options.message);
}

function loads(created: Created): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of created.items) for (const name of item.annotators) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

beforeAll(async () => {
  const run = await runCliOk(['--db', db, 'demo']);
  demoOutput = run.stdout;
}, 300_000);

describe('audit on the demo store', () => {
  it('npm start ends by naming the demo audit command', () => {
    expect(demoOutput.trimEnd().split('\n').at(-1)).toMatch(/node bin\/wikidelta\.js audit demo --db /);
  });

  it('creates a stratified audit, every item on K annotators, loads balanced, links printed once', async () => {
    const created = await createdJson(['--name', 'qa', '--of', 'growover', '--snapshot', '2025-04-01', '--annotators', 'alice,bob,carol', '--raters', '2', '--per-stratum', '3', '--seed', '5', '--base-url', 'http://example.test:9000/']);
    expect(created.audit).toMatchObject({ name: 'qa', source: 'growover', raters: 2 });
    const strata = new Map<string, number>();
    for (const item of created.items) strata.set(item.stratum, (strata.get(item.stratum) ?? 0) + 1);
    expect([...strata.keys()].sort()).toEqual(expect.arrayContaining(['NEW', 'dialogue']));
    for (const n of strata.values()) expect(n).toBeLessThanOrEqual(3);
    for (const item of created.items) expect(new Set(item.annotators).size).toBe(2);
    const counts = [...loads(created).values()];
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(created.annotators.map((a) => a.name)).toEqual(['alice', 'bob', 'carol']);
    for (const annotator of created.annotators) {
      expect(Buffer.from(annotator.token, 'base64url')).toHaveLength(32);
      expect(annotator.url).toBe(`http://example.test:9000/a/${annotator.token}`);
    }
    expect(created.admin.url).toBe(`http://example.test:9000/admin/${created.admin.token}`);

    // The same seed draws the same sample in another audit.
    const again = await createdJson(['--name', 'qa-again', '--of', 'growover', '--snapshot', '2025-04-01', '--annotators', 'alice,bob,carol', '--raters', '2', '--per-stratum', '3', '--seed', '5']);
    expect(again.items.map((item) => item.key)).toEqual(created.items.map((item) => item.key));

    const store = new AuditStore(openDatabase(db));
    const token = created.annotators[0]?.token ?? '';
    expect(store.annotatorByToken(token)?.name).toBe('alice');
    const frozen = store.items(created.audit.id);
    expect(frozen.map(contentOf).every((content) => content.kind === 'qa' && content.question !== '' && content.evidence !== '')).toBe(true);
  });

  it('names the serve command its links work with: the host and port of a loopback address, none behind a proxy', async () => {
    const serveLine = async (name: string, baseUrl: string[]) =>
      (await runCliOk(['--db', db, 'audit', 'create', '--name', name, '--of', 'growover', '--snapshot', '2025-04-01', '--annotators', 'alice', '--raters', '1', '--size', '1', ...baseUrl])).stdout.split('\n').find((line) => line.startsWith('serve the pages:'));
    expect(await serveLine('serve-default', [])).toBe(`serve the pages: wikidelta serve --db ${db}`);
    expect(await serveLine('serve-port', ['--base-url', 'http://127.0.0.1:45020'])).toBe(`serve the pages: wikidelta serve --db ${db} --port 45020`);
    expect(await serveLine('serve-proxy', ['--base-url', 'https://audit.example.org/'])).toBe(`serve the pages: wikidelta serve --db ${db}`);
    // serve's default host, 127.0.0.1, answers neither ::1 nor the rest of 127/8.
    expect(await serveLine('serve-ipv6', ['--base-url', 'http://[::1]:45021'])).toBe(`serve the pages: wikidelta serve --db ${db} --host ::1 --port 45021`);
    expect(await serveLine('serve-loopback', ['--base-url', 'http://127.0.0.2:8787'])).toBe(`serve the pages: wikidelta serve --db ${db} --host 127.0.0.2`);
  });

  it('audits sentence labels and weekly questions, frozen with what a judge needs', async () => {
    const labels = await createdJson(['--name', 'labels', '--of', 'labels', '--old', '2025-03-01', '--new', '2025-04-01', '--annotators', 'alice,bob', '--raters', '2', '--per-stratum', '50']);
    // Every new label of the month: some decided by a model (their closest sentences by cosine), some by words alone.
    expect(labels.items.filter((item) => item.stratum === 'new').length).toBeGreaterThan(10);
    const weekly = await createdJson(['--name', 'week', '--of', 'weekly', '--week', '2025-02-03', '--annotators', 'alice,bob,carol', '--per-stratum', '2']);
    expect(weekly.items.length).toBeGreaterThan(0);
    const store = new AuditStore(openDatabase(db));
    const cache = new EmbeddingCache(openDatabase(db));
    const measures = new Set<string>();
    for (const item of store.items(labels.audit.id)) {
      const content = contentOf(item);
      if (content.kind !== 'label') throw new Error(`not a label item: ${item.key}`);
      expect(content.newParagraph).toContain(content.sentence);
      expect(item.stratum).toBe(content.label);
      if (content.label !== 'new') {
        expect(content.closestOld).toBeUndefined();
        continue;
      }
      // A new label carries the old article, and its closest sentences by what the labeler computed.
      const { closestOld, oldArticle } = content;
      expect(oldArticle?.length).toBeGreaterThan(0);
      expect(closestOld).toBeDefined();
      measures.add(closestOld!.measure);
      for (const close of closestOld!.sentences) expect(oldArticle).toContain(close.text);
      const similarities = closestOld!.sentences.map((close) => close.similarity);
      expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
      if (closestOld!.measure === 'cosine') {
        // The cosine of the very vectors the labeler embedded, from the store's cache.
        const [own, first] = [content.sentence, closestOld!.sentences[0]!.text].map((text) => cache.load('use-lite', [textHash(text)]).get(textHash(text))!);
        expect(closestOld!.embedder).toBe('use-lite');
        expect(closestOld!.sentences[0]!.similarity).toBeCloseTo(cosine(own!, first!), 10);
        expect(closestOld!.sentences[0]!.similarity).toBeGreaterThanOrEqual(content.similarity ?? 0);
      }
    }
    expect([...measures].sort()).toEqual(['cosine', 'words']);
    const sampleUrl = /^https:\/\/sample\.wikidelta\.example\/w\/index\.php\?/;
    for (const item of store.items(weekly.audit.id)) {
      const content = contentOf(item);
      if (content.kind !== 'weekly') throw new Error(`not a weekly item: ${item.key}`);
      expect(content.infoboxAfter[content.key]).toBe(content.answer);
      expect(content.infoboxBefore[content.key]).not.toBe(content.answer);
      expect(content.timeline.map((entry) => entry.value)).toContain(content.answer);
      const links = content.revisions!;
      expect(links.diff).toMatch(sampleUrl);
      expect(links.diff).toBe(`https://sample.wikidelta.example/w/index.php?diff=${links.after.revId}&oldid=${links.before.revId}`);
      expect(links.after.revId).toBeGreaterThan(links.before.revId);
    }
  });

  it('freezes the old evidence of CHANGED items beside the new', async () => {
    const created = await createdJson(['--name', 'changed', '--of', 'growover', '--snapshot', '2025-04-01', '--annotators', 'alice', '--raters', '1', '--per-stratum', '5']);
    const store = new AuditStore(openDatabase(db));
    const changed = store.items(created.audit.id).map(contentOf).flatMap((content) => (content.kind === 'qa' && content.itemType === 'CHANGED' ? [content] : []));
    expect(changed.length).toBeGreaterThan(0);
    const raw = openDatabase(db);
    const inSnapshot = raw.prepare('SELECT COUNT(*) FROM snapshot_sentences WHERE snapshot = ? AND instr(?, text) > 0').pluck();
    for (const content of changed) {
      expect(content.oldEvidence).toContain(content.oldAnswer);
      expect(content.evidence).toContain(content.answer);
      expect(content.oldEvidence).not.toBe(content.evidence);
      // The old wording is the old snapshot's text, the snapshot before the one the item was made in.
      expect(['2025-02-01', '2025-03-01']).toContain(content.oldSnapshot);
      expect(inSnapshot.get(content.oldSnapshot, content.oldEvidence)).toBeGreaterThan(0);
      expect(inSnapshot.get(content.snapshot, content.oldEvidence)).toBe(0);
    }
    raw.close();
  });

  it('reports precision from the latest verdicts and exports every judgment row', async () => {
    const created = await createdJson(['--name', 'judged', '--of', 'growover', '--snapshot', '2025-04-01', '--annotators', 'alice,bob', '--raters', '2', '--size', '8', '--seed', '2']);
    const store = new AuditStore(openDatabase(db));
    const ids = new Map(store.annotators(created.audit.id).map((a) => [a.name, a.id]));
    // Items 0..4: both raters say correct (one of them first said wrong); 5..6: both wrong; 7: disputed.
    const verdictOf = (index: number, name: string): Verdict => (index < 5 ? 'correct' : index < 7 ? 'wrong' : name === 'alice' ? 'correct' : 'debatable');
    let rows = 0;
    created.items.forEach((item, index) => {
      for (const name of item.annotators) {
        const base = { itemId: item.id, annotatorId: ids.get(name) ?? -1, label: null, answer: null, note: null, seconds: 2, createdAt: new Date().toISOString() };
        if (index === 0 && name === 'alice') {
          store.addJudgment({ ...base, verdict: 'wrong', note: 'first look' });
          rows++;
        }
        store.addJudgment({ ...base, verdict: verdictOf(index, name) });
        rows++;
      }
    });

    const report = await runCliOk(['--db', db, '--json', 'audit', 'report', '--name', 'judged']);
    const json = JSON.parse(report.stdout) as { n_items: number; precision: { overall: { value: number; n: number } }; strict: { overall: { value: number } }; disputed: Array<{ key: string }> };
    expect(json.n_items).toBe(8);
    // Seven items have a majority (the eighth is split correct / debatable): 5 correct, 2 wrong.
    expect(json.precision.overall.n).toBe(7);
    expect(json.precision.overall.value).toBeCloseTo(5 / 7, 10);
    expect(json.strict.overall.value).toBeCloseTo(5 / 7, 10);
    expect(json.disputed.map((d) => d.key)).toEqual([created.items[7]?.key]);

    const out = join(dir, 'report');
    await runCliOk(['--db', db, 'audit', 'report', '--name', 'judged', '--out', out]);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toEqual(json);
    const text = await runCli(['--db', db, 'audit', 'report', '--name', 'judged']);
    expect(readFileSync(join(out, 'report.txt'), 'utf8')).toBe(text.stdout);

    const exported = join(dir, 'judgments.jsonl');
    await runCliOk(['--db', db, 'audit', 'export', '--name', 'judged', '--out', exported]);
    const lines = jsonLines(readFileSync(exported, 'utf8'));
    expect(lines).toHaveLength(rows);
    expect(lines[0]).toMatchObject({ item: created.items[0]?.key, annotator: 'alice', verdict: 'wrong', note: 'first look', seconds: 2, withdrawn: false });
    expect(Object.keys(lines[0] ?? {})).toEqual(expect.arrayContaining(['item', 'annotator', 'verdict', 'label', 'answer', 'note', 'seconds', 'created_at', 'withdrawn']));
    expect(lines.every((line) => VERDICTS.includes(line.verdict as Verdict))).toBe(true);
    // `--out -` is standard output, as shell tools take it, not a file named "-".
    const dashed = await runCliOk(['--db', db, 'audit', 'export', '--name', 'judged', '--out', '-'], { cwd: dir });
    expect(dashed.stdout).toBe(readFileSync(exported, 'utf8'));
    expect(existsSync(join(dir, '-'))).toBe(false);
  });

  it('adds an annotator who takes a balanced share of the unjudged items, and more items', async () => {
    await createdJson(['--name', 'grow', '--of', 'growover', '--snapshot', '2025-04-01', '--annotators', 'alice,bob,carol', '--raters', '2', '--size', '9', '--seed', '3']);
    const run = await runCliOk(['--db', db, '--json', 'audit', 'add', '--name', 'grow', '--annotators', 'dave', '--size', '3']);
    const added = JSON.parse(run.stdout) as Created;
    expect(added.annotators.map((a) => a.name)).toEqual(['dave']);
    expect(added.items).toHaveLength(3);
    const store = new AuditStore(openDatabase(db));
    const progress = store.progress(added.audit.id);
    expect(progress.map((p) => p.annotator)).toEqual(['alice', 'bob', 'carol', 'dave']);
    const assigned = progress.map((p) => p.assigned);
    expect(assigned.reduce((a, b) => a + b, 0)).toBe(24);
    expect(Math.max(...assigned) - Math.min(...assigned)).toBeLessThanOrEqual(1);
  });

  it('renews a lost link: the new token opens, the old no longer does, the others are untouched', async () => {
    const created = await createdJson(['--name', 'relink', '--of', 'growover', '--snapshot', '2025-04-01', '--annotators', 'alice,bob', '--raters', '1', '--size', '2']);
    const run = await runCliOk(['--db', db, '--json', 'audit', 'links', '--name', 'relink', '--annotators', 'alice,admin']);
    const renewed = JSON.parse(run.stdout) as Created;
    expect(renewed.annotators.map((a) => a.name)).toEqual(['alice']);
    const store = new AuditStore(openDatabase(db));
    const [alice, bob] = created.annotators;
    expect(store.annotatorByToken(alice?.token ?? '')).toBeUndefined();
    expect(store.annotatorByToken(renewed.annotators[0]?.token ?? '')?.name).toBe('alice');
    expect(store.annotatorByToken(bob?.token ?? '')?.name).toBe('bob');
    expect(store.annotatorByToken(created.admin.token)).toBeUndefined();
    expect(store.annotatorByToken(renewed.admin.token)?.role).toBe('admin');
    await failsInOneLine(['audit', 'links', '--name', 'relink', '--annotators', 'zoe'], 'E_ANNOTATOR_NOT_FOUND', { message: /audit relink has no annotator named zoe \(it has alice, bob, and admin\)/ });
  });

  it('ends bad input in one line', async () => {
    await failsInOneLine(['audit', 'report', '--name', 'nope'], 'E_AUDIT_NOT_FOUND', { message: /no audit named nope \(the store has: qa, / });
    await failsInOneLine(['audit', 'create', '--name', 'x', '--of', 'growover', '--snapshot', '2031-01-01', '--annotators', 'a,b,c'], 'E_SNAPSHOT_NOT_FOUND');
    await failsInOneLine(['audit', 'create', '--name', 'x', '--of', 'weekly', '--week', '2025-01-06', '--annotators', 'a,b,c'], 'E_NOTHING_TO_AUDIT', { message: /no weekly questions in the week of 2025-01-06: weeks with questions: 2025-01-13/ });
    await failsInOneLine(['audit', 'create', '--name', 'x', '--of', 'growover', '--snapshot', '2025-04-01', '--annotators', 'a,b', '--raters', '3'], 'E_RATERS_EXCEED_ANNOTATORS');
    // Snapshots given backwards: refused as `label` refuses them, not sent to a `label` run that cannot make them.
    await failsInOneLine(['audit', 'create', '--name', 'x', '--of', 'labels', '--old', '2025-04-01', '--new', '2025-03-01', '--annotators', 'a,b,c'], 'E_DATE_RANGE_INVALID', { message: /give the earlier snapshot as --old/ });
    await failsInOneLine(['audit', 'create', '--name', 'qa', '--of', 'growover', '--snapshot', '2025-04-01', '--annotators', 'a,b,c'], 'E_AUDIT_EXISTS');
    await failsInOneLine(['audit', 'add', '--name', 'qa', '--annotators', 'alice'], 'E_ANNOTATOR_DUPLICATE');
    await failsInOneLine(['audit', 'demo'], 'E_STORE_MISSING', { store: join(dir, 'missing.sqlite') });
    for (const name of ['', ' ', 'qa\n']) {
      const blank = await runCli(['--db', db, 'audit', 'create', '--name', name, '--of', 'growover', '--snapshot', '2025-04-01', '--annotators', 'a,b,c']);
      expect([blank.code, blank.errorCode, blank.stderr.trim().split('\n').length], JSON.stringify(name)).toEqual([2, 'E_USAGE', 1]);
    }
    expect(existsSync(join(dir, 'missing.sqlite'))).toBe(false);
  });

  it('audit demo creates the demo audit and serves it; its links survive a rerun, and are renewed only when they no longer open', async () => {
    const kept = `${db}.audit-demo-links.json`;
    const first = await runDemo();
    expect(first.stdout).toMatch(/^audit demo: \d+ items \(.+\) from the GrowOVER items of snapshot 2025-04-01, judged by alice and bob$/m);
    expect(first.stdout).toContain(`kept for the next run in ${kept}, readable by you only`);
    expect(first.statuses).toEqual([200, 200]);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    // The store holds no token, only hashes: the links file is what a rerun prints again.
    expect(readFileSync(db).includes(Buffer.from(first.tokens[0]!))).toBe(false);

    const second = await runDemo(first.tokens[0]);
    expect(second.stdout).toMatch(/^audit demo \(made earlier; the same links as before\):$/m);
    expect(second.tokens).toEqual(first.tokens);
    expect(second.statuses).toEqual([200, 200, 200]);
    // The maintainer's report over the API is the CLI's, the maintainer not among the annotators.
    expect(second.served).toEqual(second.cli);
    expect(second.served.annotators.map((entry) => entry.name)).toEqual(['alice', 'bob']);
    expect(second.served.n_judgments).toBe(2);

    // A link renewed by hand, or a lost file: only what no longer opens gets a new token.
    await runCliOk(['--db', db, 'audit', 'links', '--name', 'demo', '--annotators', 'alice']);
    const third = await runDemo(first.tokens[0]);
    expect(third.stdout).toMatch(/^audit demo \(made earlier; new links for alice, whose kept link no longer opened\):$/m);
    expect(third.tokens[0]).not.toBe(first.tokens[0]);
    expect(third.tokens.slice(1)).toEqual(first.tokens.slice(1));
    expect(third.statuses).toEqual([200, 200, 401]);
    rmSync(kept);
    const fourth = await runDemo(third.tokens[1]);
    expect(fourth.tokens.every((token) => !third.tokens.includes(token))).toBe(true);
    expect(fourth.statuses).toEqual([200, 200, 401]);
  }, 180_000);

  // Last: it rewrites the store under the audits.
  it('keeps the frozen items when the store under them changes', async () => {
    const store = new AuditStore(openDatabase(db));
    const audit = store.audit('qa');
    if (!audit) throw new Error('audit qa is missing');
    const frozen = store.items(audit.id);
    const raw = openDatabase(db);
    raw.prepare("UPDATE growover_qa SET question = 'rewritten?', answer = 'rewritten'").run();
    raw.prepare("UPDATE snapshot_sentences SET text = 'rewritten.'").run();
    raw.close();
    expect(store.items(audit.id)).toEqual(frozen);
    const report = await runCliOk(['--db', db, '--json', 'audit', 'report', '--name', 'qa']);
    expect((JSON.parse(report.stdout) as { n_items: number }).n_items).toBe(frozen.length);
  });
});

interface DemoRun {
  stdout: string;
  statuses: number[];
  tokens: string[];
  /** The maintainer's report as served, and as `audit report --json` prints it at the same time. */
  served: { n_judgments: number; annotators: Array<{ name: string }> };
  cli: unknown;
}

/**
 * Runs `audit demo` on a free port, opens the first annotator's page, the maintainer's and, if
 * given, an earlier token's; has the first annotator judge her first item if she has not; reads
 * the report from the API and the CLI; then stops it as Ctrl-C would.
 */
async function runDemo(earlierToken?: string): Promise<DemoRun> {
  const child = startCli(['--db', db, 'audit', 'demo', '--port', '0']);
  const ended = collect(child);
  const stdout = await waitForOutput(child, 'stdout', /serving http/);
  const links = [...stdout.matchAll(/(http:\/\/127\.0\.0\.1:\d+)\/(a|admin)\/([\w-]+)/g)];
  const annotator = links.find((link) => link[2] === 'a');
  const admin = links.find((link) => link[2] === 'admin');
  const statuses = [];
  for (const link of [annotator, admin]) statuses.push((await fetch(link?.[0] ?? 'http://127.0.0.1:1/')).status);
  if (earlierToken !== undefined) statuses.push((await fetch((annotator?.[0] ?? '').replace(/[\w-]+$/, earlierToken))).status);
  const base = annotator?.[1] ?? '';
  for (const link of links.filter((entry) => entry[2] === 'a')) {
    const authorization = `Bearer ${link[3]}`;
    const next = (await (await fetch(`${base}/api/next`, { headers: { authorization } })).json()) as { judged: number; item: { id: number } | null };
    if (next.judged === 0 && next.item) await fetch(`${base}/api/judgments`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ item: next.item.id, verdict: 'correct', seconds: 4 }) });
  }
  const served = (await (await fetch(`${base}/api/admin/report`, { headers: { authorization: `Bearer ${admin?.[3]}` } })).json()) as DemoRun['served'];
  const cli = await runCli(['--db', db, '--json', 'audit', 'report', '--name', 'demo']);
  child.kill('SIGINT');
  const result = await ended;
  expect(result.code, result.stderr).toBe(0);
  return { stdout, statuses, tokens: links.map((link) => link[3] ?? ''), served, cli: JSON.parse(cli.stdout) };
}

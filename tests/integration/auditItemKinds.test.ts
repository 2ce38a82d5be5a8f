/**
 * A new audit item kind is one object and one registration (docs/ARCHITECTURE.md §17): a kind
 * defined here, auditing the lead sentence of each article of a snapshot, goes through the command
 * line's options, `createAudit` and `growAudit`, the annotator's page and the JSON API over real
 * HTTP, and the report, on a real SQLite store, with no other file knowing of it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { html } from '../../src/audit/html.js';
import { auditItemKinds, kindNamed, registerAuditItemKind } from '../../src/audit/kinds/index.js';
import type { AuditItemKind } from '../../src/audit/kinds/kind.js';
import { labelKind } from '../../src/audit/kinds/label.js';
import { buildProgram } from '../../src/cli/program.js';
import { UserError } from '../../src/errors.js';
import { startAuditServer, type AuditServer } from '../../src/serve/server.js';
import { Store } from '../../src/store/store.js';
import { createAudit, growAudit, type AuditChange } from '../../pipelines/audit/build.js';
import { auditResults } from '../../pipelines/audit/results.js';
import { tempDir } from '../../testkit/cli.js';
import { withCode } from '../support/errorCodes.js';

const LEAD_LABELS = ['defines', 'describes', 'neither'] as const;

const LeadContent = z.object({
  kind: z.literal('lead'),
  title: z.string(),
  snapshot: z.string(),
  sentence: z.string(),
  label: z.enum(LEAD_LABELS),
});
type LeadContent = z.infer<typeof LeadContent>;

const LeadParams = z.object({ snapshot: z.string() });
type LeadParams = z.infer<typeof LeadParams>;

/** Does an article's first sentence define its subject? Proposed by a rule a judge can check at a glance. */
const leadKind: AuditItemKind<LeadContent, LeadParams> = {
  name: 'lead',
  source: 'leads',
  noun: 'lead sentences',
  content: LeadContent,
  params: LeadParams,
  flags: { leadSnapshot: { flags: '--lead-snapshot <name>', description: '--of leads: the snapshot whose articles to audit' } },
  paramsFromFlags: (flags, need) => ({ snapshot: need(flags.leadSnapshot, '--lead-snapshot') }),
  describe: (params) => `the lead sentences of snapshot ${params.snapshot}`,
  candidates: (store, params) => {
    const snapshots = store.snapshots;
    snapshots.requireSnapshot(params.snapshot);
    const candidates = snapshots.articles(params.snapshot).map((article) => {
      const sentence = snapshots.sentenceText(params.snapshot, article.pageId, 0);
      const label = sentence.startsWith(`${article.title} is `) ? 'defines' : sentence.includes(article.title) ? 'describes' : 'neither';
      return { key: String(article.pageId), stratum: label, freeze: (): LeadContent => ({ kind: 'lead', title: article.title, snapshot: params.snapshot, sentence, label }) };
    });
    if (candidates.length === 0) throw new UserError('E_NOTHING_TO_AUDIT', `snapshot ${params.snapshot} holds no article`);
    return candidates;
  },
  claim: (content) => `Does the first sentence of "${content.title}" ${content.label === 'neither' ? 'fail to name its subject' : `${content.label.replace(/s$/, '')} its subject`}?`,
  section: (content) => html`<section class="item item-lead"><h2><span class="title">${content.title}</span> <small>snapshot ${content.snapshot}</small></h2><p class="lead-sentence">${content.sentence}</p></section>`,
  guidelines: { heading: 'Lead sentences', examples: [{ term: 'defines', meaning: 'the sentence says what the subject is.', example: '"Riverton is a town on the Ash river."' }] },
  keys: [{ keys: ['t'], does: 'read the title aloud (lead items)' }],
  choices: (content) => ({ labels: LEAD_LABELS, proposed: content.label }),
};

const ARTICLES = [
  { pageId: 1, title: 'Riverton', sentence: 'Riverton is a town on the Ash river.' },
  { pageId: 2, title: 'Ash river', sentence: 'The Ash river flows through Riverton.' },
  { pageId: 3, title: 'Mill Lane', sentence: 'Built in 1889, the ground holds 4,800.' },
  { pageId: 4, title: 'Jane Doe', sentence: 'Jane Doe is the mayor of Riverton.' },
  { pageId: 5, title: 'Riverton station', sentence: 'Riverton station is a railway station.' },
];

let store: Store;
let server: AuditServer;
let unregister: () => void;
let created: AuditChange;

function api(path: string, token: string, body?: unknown) {
  return fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const tokenOf = (name: string) => created.links.find((link) => link.name === name)?.token ?? '';

beforeAll(async () => {
  unregister = registerAuditItemKind(leadKind);
  store = Store.open(join(tempDir('wikidelta-audit-kind-'), 'store.sqlite'));
  const snapshots = store.snapshots;
  snapshots.openSnapshot({ name: '2025-01', wiki: 'enwiki', source: 'test', asOf: null });
  for (const article of ARTICLES) {
    snapshots.storeArticle('2025-01', { pageId: article.pageId, title: article.title, revId: article.pageId * 10, timestamp: '2025-01-01T00:00:00Z' }, [{ index: 0, paragraph: 0, text: article.sentence }]);
  }
  created = createAudit(store, { name: 'leads', source: { of: 'leads', snapshot: '2025-01' }, plan: { size: 4 }, annotators: ['alice', 'bob'], raters: 2, seed: 3, now: '2025-02-01T00:00:00.000Z' });
  server = await startAuditServer({ store, host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await server?.close();
  store?.close();
  unregister?.();
});

describe('an audit item kind registered by a test', () => {
  it('joins the registry after the shipped kinds, and a kind of a taken name or source is refused', () => {
    expect(auditItemKinds().map((kind) => kind.source)).toEqual(['labels', 'growover', 'weekly', 'predictions', 'leads']);
    expect(() => registerAuditItemKind({ ...leadKind, name: 'other' })).toThrow(/clashes with the kind lead/);
    expect(() => registerAuditItemKind({ ...labelKind, source: 'other' } as AuditItemKind)).toThrow(/clashes with the kind label/);
  });

  it('is offered by audit create: --of leads and its own option, with the others', () => {
    const create = buildProgram().commands.find((command) => command.name() === 'audit')?.commands.find((command) => command.name() === 'create');
    const help = (create?.helpInformation() ?? '').replace(/\s+/g, ' ');
    expect(help).toContain("--of <source> what to audit: sentence labels, GrowOVER items, weekly questions, a judge's verdicts on predictions, or lead sentences");
    expect(help).toContain('"predictions", "leads"');
    expect(help).toContain('--lead-snapshot <name> --of leads: the snapshot whose articles to audit');
    expect(help.indexOf('--mode <mode>')).toBeLessThan(help.indexOf('--lead-snapshot'));
  });

  it('creates the audit: its source and params stored, items frozen through its schema, strata its labels', () => {
    expect(created.audit).toMatchObject({ name: 'leads', source: 'leads', params: { of: 'leads', snapshot: '2025-01', size: 4 } });
    expect(created.items).toHaveLength(4);
    for (const item of created.items) expect(item.annotators.sort()).toEqual(['alice', 'bob']);
    expect(new Set(created.items.map((item) => item.stratum)).size).toBeGreaterThan(1);
  });

  it("shows the kind's claim, section, guidelines, keys and label choices on the annotator's page", async () => {
    const page = await (await fetch(`${server.url}/a/${tokenOf('alice')}`)).text();
    const first = created.items[0]!;
    const article = ARTICLES.find((entry) => String(entry.pageId) === first.key)!;
    expect(page).toContain(`data-kind="lead"`);
    expect(page).toContain(`<p class="lead-sentence">${article.sentence}</p>`);
    expect(page).toContain(`<p class="claim">Does the first sentence of &quot;${article.title}&quot;`);
    expect(page).toContain('<h3>Lead sentences</h3>');
    expect(page).toContain('<kbd>t</kbd> read the title aloud (lead items)');
    expect(page).toContain('wrong: choose the right label, then Enter');
    expect(page).not.toContain('search the old article');
    const options = [...page.matchAll(/<option value="(\w+)">/g)].map((match) => match[1]);
    expect(options).toEqual(LEAD_LABELS.filter((label) => label !== first.stratum));
  });

  it('takes judgments through the API as a kind with a proposed label: a wrong one needs another of its labels', async () => {
    const item = created.items[0]!;
    const other = LEAD_LABELS.find((label) => label !== item.stratum)!;
    const read = (await (await api(`/api/items/${item.id}`, tokenOf('alice'))).json()) as { item: { content: unknown } };
    expect(read.item.content).toEqual({ kind: 'lead', title: expect.any(String), snapshot: '2025-01', sentence: expect.any(String), label: item.stratum });
    const bare = await api('/api/judgments', tokenOf('alice'), { item: item.id, verdict: 'wrong' });
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as { error: string }).error).toMatch(/a wrong label needs the right one: give label \(one of /);
    expect((await api('/api/judgments', tokenOf('alice'), { item: item.id, verdict: 'wrong', answer: 'x' })).status).toBe(400);
    expect((await api('/api/judgments', tokenOf('alice'), { item: item.id, verdict: 'wrong', label: item.stratum })).status).toBe(400);
    expect((await api('/api/judgments', tokenOf('alice'), { item: item.id, verdict: 'wrong', label: other })).status).toBe(201);
    for (const rest of created.items.slice(1)) expect((await api('/api/judgments', tokenOf('alice'), { item: rest.id, verdict: 'correct' })).status).toBe(201);
    for (const each of created.items) expect((await api('/api/judgments', tokenOf('bob'), { item: each.id, verdict: 'correct' })).status).toBe(201);
  });

  it('reports precision and agreement by its strata, the same from the command and the API', async () => {
    const report = auditResults(store, 'leads');
    expect(report).toMatchObject({ audit: 'leads', source: 'leads', n_items: 4, n_judgments: 8 });
    expect(report.precision.overall).toMatchObject({ n: 3, value: 1 });
    expect(report.left_out.overall).toEqual({ no_majority: 1, unjudged: 0 });
    expect(report.disputed.map((entry) => entry.item)).toEqual([created.items[0]!.id]);
    expect(report.judge).toBeUndefined();
    const admin = created.links.find((link) => link.role === 'admin')!.token;
    expect(await (await api('/api/admin/report', admin)).json()).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('grows the audit from its stored params', () => {
    const grown = growAudit(store, { name: 'leads', annotators: [], plan: { size: 5 } });
    expect(grown.items.map((item) => item.key)).toHaveLength(1);
    expect(grown.items[0]!.key).not.toBeOneOf(created.items.map((item) => item.key));
  });

  it('is gone once unregistered: its name is then unknown', () => {
    const undo = registerAuditItemKind({ ...leadKind, name: 'lead-2', source: 'leads-2' });
    undo();
    expect(auditItemKinds().map((kind) => kind.name)).not.toContain('lead-2');
    expect(() => kindNamed('lead-2')).toThrow(withCode('E_STORE_INVALID', /audit items of kind "lead-2", which this version does not know/));
  });
});

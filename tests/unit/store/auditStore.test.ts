import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashToken, type AuditItemContent } from '../../../src/model/audit.js';
import { newToken } from '../../../src/audit/tokens.js';
import { openDatabase } from '../../../src/store/database.js';
import { AuditStore } from '../../../src/store/auditStore.js';
import { withCode } from '../../support/errorCodes.js';

const folder = mkdtempSync(join(tmpdir(), 'wikidelta-audit-store-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function qa(question: string): AuditItemContent {
  return { kind: 'qa', itemType: 'NEW', title: 'Page', snapshot: '2024-01', question, answer: 'yes', oldAnswer: null, evidence: 'It is.', article: 'It is.', turns: [] };
}

function newStore(name: string): { store: AuditStore; path: string } {
  const path = join(folder, `${name}.sqlite`);
  return { store: new AuditStore(openDatabase(path)), path };
}

function createdAudit(store: AuditStore, name = 'a1') {
  return store.createAudit({ name, source: 'growover', params: { snapshot: '2024-01' }, raters: 2, seed: 7, createdAt: '2026-01-01T00:00:00.000Z' });
}

describe('AuditStore', () => {
  it('creates an audit once per name and reads it back by name and id', () => {
    const { store } = newStore('create');
    const audit = createdAudit(store);
    expect(store.audit('a1')).toEqual(audit);
    expect(store.auditById(audit.id)).toEqual(audit);
    expect(store.audit('nope')).toBeUndefined();
    expect(() => createdAudit(store)).toThrow(withCode('E_AUDIT_EXISTS'));
  });

  it('keeps an item key once and reads the frozen content back through its schema', () => {
    const { store } = newStore('items');
    const audit = createdAudit(store);
    const added = store.addItems(audit.id, [
      { key: 'q1', stratum: 'NEW', content: qa('one?') },
      { key: 'q2', stratum: 'NEW', content: qa('two?') },
      { key: 'q1', stratum: 'NEW', content: qa('again?') },
    ]);
    expect(added.map((item) => item.key)).toEqual(['q1', 'q2']);
    expect(store.addItems(audit.id, [{ key: 'q2', stratum: 'NEW', content: qa('later?') }])).toEqual([]);
    const items = store.items(audit.id);
    expect(items.map((item) => item.content.kind === 'qa' && item.content.question)).toEqual(['one?', 'two?']);
    expect(store.item(items[0]!.id)).toEqual(items[0]);
  });

  it('finds an annotator by its token, never by the hash or a wrong token', () => {
    const { store } = newStore('tokens');
    const audit = createdAudit(store);
    const token = newToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const alice = store.addAnnotator(audit.id, 'alice', hashToken(token), 'annotator');
    expect(store.annotatorByToken(token)).toEqual(alice);
    expect(store.annotatorByToken(hashToken(token))).toBeUndefined();
    expect(store.annotatorByToken(newToken())).toBeUndefined();
    expect(() => store.addAnnotator(audit.id, 'alice', hashToken(newToken()), 'annotator')).toThrow(withCode('E_ANNOTATOR_DUPLICATE'));
    const admin = store.addAnnotator(audit.id, 'alice', hashToken(newToken()), 'admin');
    expect(store.annotators(audit.id)).toEqual([alice, admin]);
  });

  it('appends every judgment, counts the latest, and keeps assignments in order', () => {
    const { store } = newStore('judgments');
    const audit = createdAudit(store);
    const [q1, q2, q3] = store.addItems(audit.id, ['q1', 'q2', 'q3'].map((key) => ({ key, stratum: 'NEW', content: qa(`${key}?`) })));
    const alice = store.addAnnotator(audit.id, 'alice', hashToken(newToken()), 'annotator');
    const bob = store.addAnnotator(audit.id, 'bob', hashToken(newToken()), 'annotator');
    store.addAnnotator(audit.id, 'admin', hashToken(newToken()), 'admin');
    store.assign([
      { itemId: q2!.id, annotatorId: alice.id },
      { itemId: q1!.id, annotatorId: alice.id },
      { itemId: q1!.id, annotatorId: bob.id },
    ]);
    store.assign([{ itemId: q3!.id, annotatorId: alice.id }, { itemId: q1!.id, annotatorId: alice.id }]);
    expect(store.isAssigned(q1!.id, bob.id)).toBe(true);
    expect(store.isAssigned(q2!.id, bob.id)).toBe(false);

    const base = { label: null, answer: null, note: null, seconds: 3.5 };
    store.addJudgment({ ...base, itemId: q1!.id, annotatorId: alice.id, verdict: 'wrong', createdAt: '2026-01-01T00:00:01Z' });
    const changed = store.addJudgment({ ...base, itemId: q1!.id, annotatorId: alice.id, verdict: 'correct', note: 'misread', createdAt: '2026-01-01T00:00:02Z' });
    const bobs = store.addJudgment({ ...base, itemId: q1!.id, annotatorId: bob.id, verdict: 'debatable', createdAt: '2026-01-01T00:00:03Z' });

    expect(store.judgments(audit.id).map((j) => j.verdict)).toEqual(['wrong', 'correct', 'debatable']);
    expect(store.latestJudgments(audit.id)).toEqual([changed, bobs]);
    const assigned = store.assignedItems(alice.id);
    expect(assigned.map((entry) => [entry.key, entry.position])).toEqual([['q2', 0], ['q1', 1], ['q3', 2]]);
    expect(assigned.map((entry) => entry.latest?.verdict ?? null)).toEqual([null, 'correct', null]);
    expect(store.progress(audit.id)).toEqual([
      { annotator: 'alice', assigned: 3, judged: 1 },
      { annotator: 'bob', assigned: 1, judged: 1 },
    ]);
    expect(store.moveAssignment(q1!.id, alice.id, bob.id)).toBe(false);
    expect(store.moveAssignment(q3!.id, alice.id, bob.id)).toBe(true);
    expect(store.assignments(audit.id)).toEqual([
      { itemId: q2!.id, annotatorId: alice.id, position: 0, judged: false },
      { itemId: q1!.id, annotatorId: alice.id, position: 1, judged: true },
      { itemId: q1!.id, annotatorId: bob.id, position: 0, judged: true },
      { itemId: q3!.id, annotatorId: bob.id, position: 1, judged: false },
    ]);
  });

  it('appends a withdrawal that leaves the item unjudged everywhere, and keeps it in the log', () => {
    const { store } = newStore('withdrawals');
    const audit = createdAudit(store);
    const [q1, q2] = store.addItems(audit.id, ['q1', 'q2'].map((key) => ({ key, stratum: 'NEW', content: qa(`${key}?`) })));
    const alice = store.addAnnotator(audit.id, 'alice', hashToken(newToken()), 'annotator');
    const bob = store.addAnnotator(audit.id, 'bob', hashToken(newToken()), 'annotator');
    store.assign([q1!, q2!].map((item) => ({ itemId: item.id, annotatorId: alice.id })));
    const base = { label: null, answer: null, note: null, seconds: 2 };
    expect(store.withdrawJudgment(q1!.id, alice.id, '2026-01-01T00:00:00Z')).toBeUndefined();
    store.addJudgment({ ...base, itemId: q1!.id, annotatorId: alice.id, verdict: 'wrong', answer: 'no', createdAt: '2026-01-01T00:00:01Z' });
    store.addJudgment({ ...base, itemId: q2!.id, annotatorId: alice.id, verdict: 'correct', createdAt: '2026-01-01T00:00:02Z' });

    const withdrawal = store.withdrawJudgment(q1!.id, alice.id, '2026-01-01T00:00:03Z');
    expect(withdrawal).toMatchObject({ itemId: q1!.id, verdict: 'wrong', answer: null, withdrawn: true });
    expect(store.withdrawJudgment(q1!.id, alice.id, '2026-01-01T00:00:04Z')).toBeUndefined();
    expect(store.judgments(audit.id).map((row) => [row.verdict, row.withdrawn])).toEqual([['wrong', false], ['correct', false], ['wrong', true]]);
    expect(store.latestJudgments(audit.id).map((row) => [row.itemId, row.verdict])).toEqual([[q2!.id, 'correct']]);
    expect(store.progress(audit.id)).toEqual([
      { annotator: 'alice', assigned: 2, judged: 1 },
      { annotator: 'bob', assigned: 0, judged: 0 },
    ]);
    const [first, second] = store.assignedItems(alice.id);
    expect(first).toMatchObject({ latest: null, withdrawn: { verdict: 'wrong', withdrawn: true }, skipped: null });
    // Each verdict and withdrawal is a new version of the annotator's verdict on the item; bob's count apart.
    expect([first?.version, second?.version]).toEqual([2, 1]);
    expect([store.judgmentVersion(q1!.id, alice.id), store.judgmentVersion(q2!.id, alice.id), store.judgmentVersion(q1!.id, bob.id)]).toEqual([2, 1, 0]);
    expect(store.assignments(audit.id).map((row) => row.judged)).toEqual([false, true]);
    // Unjudged again, the item may move to another annotator; a standing verdict never does.
    expect(store.moveAssignment(q2!.id, alice.id, bob.id)).toBe(false);
    expect(store.moveAssignment(q1!.id, alice.id, bob.id)).toBe(true);

    store.addJudgment({ ...base, itemId: q2!.id, annotatorId: alice.id, verdict: 'debatable', createdAt: '2026-01-01T00:00:05Z' });
    expect(store.latestJudgments(audit.id).map((row) => row.verdict)).toEqual(['debatable']);
  });

  it('skips an unjudged item until a verdict or a withdrawal comes after the skip', () => {
    const { store } = newStore('skips');
    const audit = createdAudit(store);
    const items = store.addItems(audit.id, ['q1', 'q2', 'q3'].map((key) => ({ key, stratum: 'NEW', content: qa(`${key}?`) })));
    const alice = store.addAnnotator(audit.id, 'alice', hashToken(newToken()), 'annotator');
    store.assign(items.map((item) => ({ itemId: item.id, annotatorId: alice.id })));
    const [q1, q2, q3] = items.map((item) => item.id) as [number, number, number];
    const base = { annotatorId: alice.id, label: null, answer: null, note: null, seconds: 1, createdAt: '2026-01-01T00:00:00Z' };
    const skipped = () => store.assignedItems(alice.id).map((entry) => entry.skipped !== null);

    const first = store.addSkip(q2, alice.id, '2026-01-01T00:00:01Z');
    const second = store.addSkip(q1, alice.id, '2026-01-01T00:00:02Z');
    expect(first).toBeLessThan(second as number);
    expect(skipped()).toEqual([true, true, false]);
    store.addJudgment({ ...base, itemId: q3, verdict: 'correct' });
    expect(store.addSkip(q3, alice.id, '2026-01-01T00:00:03Z')).toBeUndefined();
    store.addJudgment({ ...base, itemId: q1, verdict: 'correct' });
    expect(skipped()).toEqual([false, true, false]);
    // Withdrawn, q1 is to do again, not skipped: the skip was older than the verdict.
    store.withdrawJudgment(q1, alice.id, '2026-01-01T00:00:04Z');
    expect(store.assignedItems(alice.id).map((entry) => [entry.latest?.verdict ?? null, entry.skipped !== null])).toEqual([[null, false], [null, true], ['correct', false]]);
    store.addSkip(q1, alice.id, '2026-01-01T00:00:05Z');
    expect(skipped()).toEqual([true, true, false]);
  });

  it('gives the report its items, the annotators but never the admin, and the standing verdicts', () => {
    const { store } = newStore('report-input');
    const audit = createdAudit(store);
    const [item] = store.addItems(audit.id, [{ key: 'q1', stratum: 'NEW', content: qa('one?') }]);
    const alice = store.addAnnotator(audit.id, 'alice', hashToken(newToken()), 'annotator');
    store.addAnnotator(audit.id, 'admin', hashToken(newToken()), 'admin');
    const verdict = store.addJudgment({ itemId: item!.id, annotatorId: alice.id, verdict: 'correct', label: null, answer: null, note: null, seconds: 3, createdAt: '2026-01-01T00:00:00Z' });
    expect(store.reportInput(audit)).toEqual({ audit, items: [item], annotators: [alice], judgments: [verdict] });
  });

  it('loses no judgment when two connections write at once, and keeps them when reopened', async () => {
    const { store, path } = newStore('concurrent');
    const audit = createdAudit(store);
    const [item] = store.addItems(audit.id, [{ key: 'q1', stratum: 'NEW', content: qa('one?') }]);
    const alice = store.addAnnotator(audit.id, 'alice', hashToken(newToken()), 'annotator');
    const bob = store.addAnnotator(audit.id, 'bob', hashToken(newToken()), 'annotator');
    const other = new AuditStore(openDatabase(path));
    const write = (writer: AuditStore, annotatorId: number, times: number) =>
      Promise.resolve().then(async () => {
        for (let i = 0; i < times; i++) {
          writer.addJudgment({ itemId: item!.id, annotatorId, verdict: 'correct', label: null, answer: null, note: String(i), seconds: null, createdAt: new Date().toISOString() });
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
    await Promise.all([write(store, alice.id, 50), write(other, bob.id, 50)]);
    const reopened = new AuditStore(openDatabase(path, { readonly: true }));
    expect(reopened.judgments(audit.id)).toHaveLength(100);
    expect(reopened.latestJudgments(audit.id).map((j) => j.note)).toEqual(['49', '49']);
  });
});

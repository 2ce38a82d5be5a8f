/**
 * Creating and growing an audit (docs/ARCHITECTURE.md §14): the candidates of its source (its item
 * kind's, §17), the seeded sample, contents frozen and checked by the kind's schema before anything
 * is written, annotators with fresh tokens, and the balanced assignment, all stored in one transaction.
 */
import { z } from 'zod';
import { hashToken, type Annotator, type AuditInfo, type AuditItemContent, type AuditSource } from '../../src/model/audit.js';
import { auditItemKinds, kindOfSource } from '../../src/audit/kinds/index.js';
import type { AuditItemKind, KindCandidate } from '../../src/audit/kinds/kind.js';
import { assignRaters, rebalance, sampleItems, stratumCounts, type SamplePlan } from '../../src/audit/sample.js';
import { newToken } from '../../src/audit/tokens.js';
import { UserError } from '../../src/errors.js';
import { derivedRandom } from '../../src/random.js';
import type { AuditStore } from '../../src/store/auditStore.js';
import type { Store } from '../../src/store/store.js';

/** What an audit samples from, as stored in its params: the source (`--of`), then its kind's params (`kind.params`). */
export const SourceParams = z.looseObject({ of: z.string() });
export type SourceParams = z.infer<typeof SourceParams>;

/** A candidate whose kind is known, so that its frozen content is checked by that kind's schema. */
interface Candidate extends KindCandidate<AuditItemContent> {
  kind: AuditItemKind;
}

/** A new annotator's (or the admin's) token, shown once: the store keeps only its hash. */
export interface IssuedLink {
  name: string;
  role: Annotator['role'];
  token: string;
}

export interface AuditChange {
  audit: AuditInfo;
  /** The items added, in queue order, each with the annotators it went to. */
  items: Array<{ id: number; key: string; stratum: string; annotators: string[] }>;
  links: IssuedLink[];
  /** Unjudged items handed from one annotator to another to balance the load. */
  moved: number;
}

/** The kind that audits a source; a stored audit of a source no kind audits any more is refused in one line. */
export function kindOf(source: SourceParams): AuditItemKind {
  const kind = kindOfSource(source.of);
  if (!kind) throw new UserError('E_FLAG_INVALID', `no audit item kind samples from ${JSON.stringify(source.of)}: this version audits ${auditItemKinds().map((other) => other.source).join(', ')}`);
  return kind;
}

/** Every candidate of the source, by its kind's reading of the store. */
export function candidatesOf(store: Store, source: SourceParams): Candidate[] {
  const kind = kindOf(source);
  return kind.candidates(store, kind.params.parse(source)).map((candidate) => ({ ...candidate, kind }));
}

export function checkedNames(names: readonly string[]): string[] {
  for (const name of names) {
    if (!/^[\p{L}\p{N}_.-]{1,64}$/u.test(name)) throw new UserError('E_FLAG_INVALID', `invalid annotator name ${JSON.stringify(name)}: letters, digits, _ . - only, at most 64`);
  }
  const seen = new Set<string>();
  for (const name of names) {
    // `audit links --annotators admin` renews the maintainer's link: an annotator named so would lose theirs with it.
    if (name === 'admin') throw new UserError('E_ANNOTATOR_DUPLICATE', 'annotator name admin names the maintainer (audit links --annotators admin): choose another');
    if (seen.has(name)) throw new UserError('E_ANNOTATOR_DUPLICATE', `annotator ${name} is named twice`);
    seen.add(name);
  }
  return [...names];
}

export function createAudit(
  store: Store,
  request: { name: string; source: SourceParams; plan: SamplePlan; annotators: readonly string[]; raters: number; seed: number; now: string },
): AuditChange {
  const audits = store.audits;
  if (audits.audit(request.name)) throw new UserError('E_AUDIT_EXISTS', `an audit named ${request.name} exists already: choose another --name, or grow it with wikidelta audit add`);
  const annotators = checkedNames(request.annotators);
  if (annotators.length === 0) throw new UserError('E_FLAG_MISSING', 'an audit needs annotators: give --annotators alice,bob,carol');
  if (!Number.isInteger(request.raters) || request.raters < 1) throw new UserError('E_FLAG_INVALID', `invalid --raters ${request.raters}: expected a whole number ≥ 1`);
  if (request.raters > annotators.length) throw new UserError('E_RATERS_EXCEED_ANNOTATORS', `--raters ${request.raters} needs at least ${request.raters} annotators, not ${annotators.length}`);
  const frozen = frozenCopies(draw(store, request.source, request.plan, request.seed, 'audit:sample', new Set()));
  return audits.atomically(() => {
    const audit = audits.createAudit({ name: request.name, source: request.source.of satisfies AuditSource, params: { ...request.source, ...request.plan }, raters: request.raters, seed: request.seed, createdAt: request.now });
    const items = audits.addItems(audit.id, frozen);
    const links: IssuedLink[] = [];
    const people = annotators.map((name) => issue(audits, audit.id, name, 'annotator', links));
    issue(audits, audit.id, 'admin', 'admin', links);
    const pairs = assignRaters(items.map((item) => item.id), people, audit.raters, derivedRandom(audit.seed, 'audit:assign'));
    audits.assign(pairs.map((pair) => ({ itemId: pair.itemId, annotatorId: pair.annotator.id })));
    return { audit, items: describeItems(audits, audit.id, items), links, moved: 0 };
  });
}

/** Adds annotators, more items, or both; new items go to the least-loaded annotators, then unjudged work moves to whoever holds too little. */
export function growAudit(store: Store, request: { name: string; annotators: readonly string[]; plan: SamplePlan | undefined }): AuditChange {
  const audits = store.audits;
  const audit = audits.audit(request.name);
  if (!audit) throw new UserError('E_AUDIT_NOT_FOUND', `no audit named ${request.name}: create it with wikidelta audit create`);
  const newNames = checkedNames(request.annotators);
  if (newNames.length === 0 && request.plan === undefined) throw new UserError('E_FLAG_MISSING', 'nothing to add: give --annotators, --size or --per-stratum');
  const existing = audits.annotators(audit.id).filter((annotator) => annotator.role === 'annotator');
  const taken = newNames.find((name) => existing.some((annotator) => annotator.name === name));
  if (taken !== undefined) throw new UserError('E_ANNOTATOR_DUPLICATE', `audit ${audit.name} has an annotator named ${taken} already`);
  const held = audits.items(audit.id);
  const frozen =
    request.plan === undefined ? [] : frozenCopies(draw(store, SourceParams.parse(audit.params), request.plan, audit.seed, `audit:add:${held.length}`, new Set(held.map((item) => item.key))));
  return audits.atomically(() => {
    const links: IssuedLink[] = [];
    const people = [...existing, ...newNames.map((name) => issue(audits, audit.id, name, 'annotator', links))];
    if (audit.raters > people.length) throw new UserError('E_RATERS_EXCEED_ANNOTATORS', `audit ${audit.name} has ${audit.raters} raters per item but only ${people.length} annotators`);
    const items = audits.addItems(audit.id, frozen);
    const load = new Map<Annotator, number>();
    const assignments = audits.assignments(audit.id);
    for (const person of people) load.set(person, assignments.filter((a) => a.annotatorId === person.id).length);
    const random = derivedRandom(audit.seed, `audit:assign:${held.length}:${existing.length}`);
    const pairs = assignRaters(items.map((item) => item.id), people, audit.raters, random, load);
    audits.assign(pairs.map((pair) => ({ itemId: pair.itemId, annotatorId: pair.annotator.id })));
    const byId = new Map(people.map((person) => [person.id, person]));
    const holdings = audits.assignments(audit.id).flatMap((a) => {
      const annotator = byId.get(a.annotatorId);
      return annotator === undefined ? [] : [{ itemId: a.itemId, annotator, judged: a.judged }];
    });
    let moved = 0;
    for (const move of rebalance(holdings, people)) if (audits.moveAssignment(move.itemId, move.from.id, move.to.id)) moved++;
    return { audit, items: describeItems(audits, audit.id, items), links, moved };
  });
}

/**
 * Issues new tokens (the old links stop working) to the named people of an audit, "admin" naming
 * the maintainer, or to everyone when no name is given: a lost link cannot be shown again.
 */
export function renewLinks(store: Store, name: string, only: readonly string[] = []): { audit: AuditInfo; links: IssuedLink[] } {
  const audits = store.audits;
  const audit = audits.audit(name);
  if (!audit) throw new UserError('E_AUDIT_NOT_FOUND', `no audit named ${name}`);
  const people = audits.annotators(audit.id);
  const unknown = only.find((wanted) => !people.some((person) => person.name === wanted));
  if (unknown !== undefined) throw new UserError('E_ANNOTATOR_NOT_FOUND', `audit ${name} has no annotator named ${unknown} (it has ${people.filter((p) => p.role === 'annotator').map((p) => p.name).join(', ')}, and admin)`);
  return audits.atomically(() => ({
    audit,
    links: people
      .filter((person) => only.length === 0 || only.includes(person.name))
      .map((person) => {
        const token = newToken();
        audits.renewToken(person.id, hashToken(token));
        return { name: person.name, role: person.role, token };
      }),
  }));
}

export function describeSample(items: ReadonlyArray<{ stratum: string }>): string {
  return Object.entries(stratumCounts(items.map((item, index) => ({ key: String(index), stratum: item.stratum }))))
    .map(([stratum, n]) => `${n} ${stratum}`)
    .join(', ');
}

function draw(store: Store, source: SourceParams, plan: SamplePlan, seed: number, label: string, exclude: ReadonlySet<string>): Candidate[] {
  const amount = 'size' in plan ? plan.size : plan.perStratum;
  if (!Number.isInteger(amount) || amount < 1) throw new UserError('E_FLAG_INVALID', `invalid ${'size' in plan ? '--size' : '--per-stratum'} ${amount}: expected a whole number ≥ 1`);
  const drawn = sampleItems(candidatesOf(store, source), plan, derivedRandom(seed, label), exclude);
  if (drawn.length === 0) throw new UserError('E_NOTHING_TO_AUDIT', exclude.size > 0 ? 'no items left to draw: the audit holds every candidate already' : 'the sample is empty: nothing to audit');
  return drawn;
}

/**
 * Each drawn candidate's content, made now and checked by its kind's schema (in the schema's field
 * order, as the store keeps it): from here on the audit no longer reads the store's items.
 */
function frozenCopies(drawn: readonly Candidate[]): Array<{ key: string; stratum: string; content: AuditItemContent }> {
  return drawn.map((candidate) => ({ key: candidate.key, stratum: candidate.stratum, content: candidate.kind.content.parse(candidate.freeze()) }));
}

function issue(store: AuditStore, auditId: number, name: string, role: Annotator['role'], links: IssuedLink[]): Annotator {
  const token = newToken();
  links.push({ name, role, token });
  return store.addAnnotator(auditId, name, hashToken(token), role);
}

/** The items with the annotators that hold them now, as stored. */
function describeItems(store: AuditStore, auditId: number, items: ReadonlyArray<{ id: number; key: string; stratum: string }>): AuditChange['items'] {
  const names = new Map(store.annotators(auditId).map((annotator) => [annotator.id, annotator.name]));
  const holders = new Map<number, string[]>();
  for (const assignment of store.assignments(auditId)) holders.set(assignment.itemId, [...(holders.get(assignment.itemId) ?? []), names.get(assignment.annotatorId) ?? '']);
  return items.map((item) => ({ id: item.id, key: item.key, stratum: item.stratum, annotators: holders.get(item.id) ?? [] }));
}

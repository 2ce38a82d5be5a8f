/**
 * What an audit's verdicts come to (docs/ARCHITECTURE.md §14): its report (precision, agreement,
 * disputed items) and its judgment log as rows, read from the store for `audit report` and
 * `audit export`, which only print or write them.
 */
import { auditReport, type AuditReport } from '../../src/audit/report.js';
import { UserError } from '../../src/errors.js';
import type { AuditInfo, Verdict } from '../../src/model/audit.js';
import type { AuditStore } from '../../src/store/auditStore.js';
import type { Store } from '../../src/store/store.js';

/** One row of `audit export`: a verdict given, or (withdrawn) its taking back, with the item and annotator named. */
export interface JudgmentRow {
  item: string | null;
  item_id: number;
  stratum: string | null;
  annotator: string | null;
  verdict: Verdict;
  label: string | null;
  answer: string | null;
  note: string | null;
  seconds: number | null;
  created_at: string;
  withdrawn: boolean;
}

export function auditResults(store: Store, name: string): AuditReport {
  const audits = store.audits;
  return auditReport(audits.reportInput(requireAudit(audits, name)));
}

/** Every judgment row of the audit in the order given (a changed verdict is a later row). */
export function judgmentRows(store: Store, name: string): JudgmentRow[] {
  const audits = store.audits;
  const info = requireAudit(audits, name);
  const items = new Map(audits.items(info.id).map((item) => [item.id, item]));
  const names = new Map(audits.annotators(info.id).map((annotator) => [annotator.id, annotator.name]));
  return audits.judgments(info.id).map((j) => ({
    item: items.get(j.itemId)?.key ?? null,
    item_id: j.itemId,
    stratum: items.get(j.itemId)?.stratum ?? null,
    annotator: names.get(j.annotatorId) ?? null,
    verdict: j.verdict,
    label: j.label,
    answer: j.answer,
    note: j.note,
    seconds: j.seconds,
    created_at: j.createdAt,
    withdrawn: j.withdrawn,
  }));
}

function requireAudit(store: AuditStore, name: string): AuditInfo {
  const info = store.audit(name);
  if (!info) throw new UserError('E_AUDIT_NOT_FOUND', `no audit named ${name}${describeKnown(store)}`);
  return info;
}

function describeKnown(store: AuditStore): string {
  const names = store.audits().map((audit) => audit.name);
  return names.length === 0 ? ': the store has no audits yet (wikidelta audit create)' : ` (the store has: ${names.join(', ')})`;
}

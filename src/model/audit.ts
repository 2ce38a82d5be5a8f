/**
 * The audit's data (docs/ARCHITECTURE.md §14): what an annotator judges, who judges it, each
 * verdict given, and the stored form of a link token. Shared by the store, the sampling, the
 * report and the pages.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** What an audit samples from: `audit create --of SOURCE`, one per item kind (src/audit/kinds). */
export const AuditSourceSchema = z.string().min(1);
export type AuditSource = z.infer<typeof AuditSourceSchema>;
export const VERDICTS = ['correct', 'debatable', 'wrong'] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * A frozen copy of what a judge needs, stored as JSON so the audit stays valid when the store
 * changes: tagged by its kind, whose schema (src/audit/kinds) says what else it holds and checks
 * it when the item is built and read. The store keeps any kind, so a new kind needs nothing here.
 */
export const AuditItemContentSchema = z.looseObject({ kind: z.string().min(1) });
export type AuditItemContent = z.infer<typeof AuditItemContentSchema>;

export interface AuditItem { id: number; auditId: number; key: string; stratum: string; content: AuditItemContent; }
export interface Annotator { id: number; auditId: number; name: string; role: 'annotator' | 'admin'; }
export interface Judgment {
  id: number; itemId: number; annotatorId: number; verdict: Verdict;
  label: string | null; answer: string | null; note: string | null;
  seconds: number | null; createdAt: string;
}
/** A row of the judgment log: a verdict given, or (`withdrawn`) the taking back of the verdict it names. */
export interface JudgmentRecord extends Judgment { withdrawn: boolean; }
/** A link token as the store keeps it (a SHA-256 hash), so a copy of the store does not hand out working links. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface AuditInfo { id: number; name: string; source: AuditSource; params: Record<string, unknown>; raters: number; seed: number; createdAt: string; }

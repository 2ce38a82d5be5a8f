/**
 * The audit's data (docs/ARCHITECTURE.md §14): what an annotator judges, who judges it, and each
 * verdict given. Shared by the store, the sampling, the report and the pages.
 */
import { z } from 'zod';

export type AuditSource = 'labels' | 'growover' | 'weekly';
export const AUDIT_SOURCES = ['labels', 'growover', 'weekly'] as const satisfies readonly AuditSource[];
export const VERDICTS = ['correct', 'debatable', 'wrong'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** A frozen copy of what a judge needs: stored as JSON, so the audit stays valid when the store changes. */
export type AuditItemContent =
  | {
      kind: 'label';
      title: string; pageId: number; oldSnapshot: string; newSnapshot: string;
      sentence: string;                 // the new sentence judged
      label: 'unchanged' | 'changed' | 'new' | 'undecided';
      matchedOld: string[];             // the old sentences it was matched with (may be empty)
      oldParagraph: string; newParagraph: string;   // paragraphs around them, for side-by-side
      similarity: number | null; evidence: string | null;  // the labeler's evidence text
    }
  | {
      kind: 'qa';
      itemType: 'SAME' | 'NEW' | 'CHANGED' | 'dialogue';
      title: string; snapshot: string;
      question: string; answer: string; oldAnswer: string | null;  // oldAnswer for CHANGED
      evidence: string;                 // the evidence sentence(s)
      article: string;                  // article text (or the paragraphs) in which the evidence is highlighted
      turns: Array<{ question: string; answer: string }>;  // dialogue turns, else []
    }
  | {
      kind: 'weekly';
      title: string; week: string; domain: string;
      question: string; answer: string;
      key: string;                      // the infobox key that changed
      infoboxBefore: Record<string, string>; infoboxAfter: Record<string, string>;
      firstParagraph: string;
      timeline: Array<{ from: string; value: string }>;   // the answer's timeline
    };

export interface AuditItem { id: number; auditId: number; key: string; stratum: string; content: AuditItemContent; }
export interface Annotator { id: number; auditId: number; name: string; role: 'annotator' | 'admin'; }
export interface Judgment {
  id: number; itemId: number; annotatorId: number; verdict: Verdict;
  label: string | null; answer: string | null; note: string | null;
  seconds: number | null; createdAt: string;
}
export interface AuditInfo { id: number; name: string; source: AuditSource; params: Record<string, unknown>; raters: number; seed: number; createdAt: string; }

/** The same union as AuditItemContent, for reading it back from JSON (a stored column, a file). */
export const AuditItemContentSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('label'),
    title: z.string(),
    pageId: z.number().int(),
    oldSnapshot: z.string(),
    newSnapshot: z.string(),
    sentence: z.string(),
    label: z.enum(['unchanged', 'changed', 'new', 'undecided']),
    matchedOld: z.array(z.string()),
    oldParagraph: z.string(),
    newParagraph: z.string(),
    similarity: z.number().nullable(),
    evidence: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('qa'),
    itemType: z.enum(['SAME', 'NEW', 'CHANGED', 'dialogue']),
    title: z.string(),
    snapshot: z.string(),
    question: z.string(),
    answer: z.string(),
    oldAnswer: z.string().nullable(),
    evidence: z.string(),
    article: z.string(),
    turns: z.array(z.object({ question: z.string(), answer: z.string() })),
  }),
  z.object({
    kind: z.literal('weekly'),
    title: z.string(),
    week: z.string(),
    domain: z.string(),
    question: z.string(),
    answer: z.string(),
    key: z.string(),
    infoboxBefore: z.record(z.string(), z.string()),
    infoboxAfter: z.record(z.string(), z.string()),
    firstParagraph: z.string(),
    timeline: z.array(z.object({ from: z.string(), value: z.string() })),
  }),
]) satisfies z.ZodType<AuditItemContent>;


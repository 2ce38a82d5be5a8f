/**
 * The audit's data (docs/ARCHITECTURE.md §14): what an annotator judges, who judges it, each
 * verdict given, and the stored form of a link token. Shared by the store, the sampling, the
 * report and the pages.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { JUDGE_MODES, JUDGE_VERDICTS, type JudgeMode, type JudgeVerdict } from './judge.js';

export type AuditSource = 'labels' | 'growover' | 'weekly' | 'predictions';
export const AUDIT_SOURCES = ['labels', 'growover', 'weekly', 'predictions'] as const satisfies readonly AuditSource[];
export const VERDICTS = ['correct', 'debatable', 'wrong'] as const;
export type Verdict = (typeof VERDICTS)[number];
/** The sentence labels an annotator may give as the right one. */
export const LABELS = ['unchanged', 'changed', 'new', 'undecided'] as const;

/**
 * The old article's sentences closest to a new one, as the labeler measured them: the cosine of
 * its embedder's vectors where it compared them, else the share of content words in common (its
 * test before any model call).
 */
export interface ClosestSentences {
  measure: 'cosine' | 'words';
  /** The embedder whose vectors gave the cosine, null for words. */
  embedder: string | null;
  sentences: Array<{ text: string; similarity: number }>;
}

/** Where the change of a weekly item can be seen on the wiki: both revisions and their diff. */
export interface RevisionLinks {
  changedAt: string;
  before: { revId: number; url: string };
  after: { revId: number; url: string };
  diff: string;
}

/**
 * A frozen copy of what a judge needs: stored as JSON, so the audit stays valid when the store
 * changes. The optional fields came with later versions; an item frozen before them lacks them.
 */
export type AuditItemContent =
  | {
      kind: 'label';
      title: string; pageId: number; oldSnapshot: string; newSnapshot: string;
      sentence: string;                 // the new sentence judged
      label: 'unchanged' | 'changed' | 'new' | 'undecided';
      matchedOld: string[];             // the old sentences it was matched with (may be empty)
      oldParagraph: string; newParagraph: string;   // paragraphs around them, for side-by-side
      similarity: number | null; evidence: string | null;  // the labeler's evidence text
      closestOld?: ClosestSentences;    // label new: what the old article said nearest to it
      oldArticle?: string[] | null;     // label new: the old article's sentences to search, null when the article is new
    }
  | {
      kind: 'qa';
      itemType: 'SAME' | 'NEW' | 'CHANGED' | 'dialogue';
      title: string; snapshot: string;
      question: string; answer: string; oldAnswer: string | null;  // oldAnswer for CHANGED
      evidence: string;                 // the evidence sentence(s)
      article: string;                  // article text (or the paragraphs) in which the evidence is highlighted
      turns: Array<{ question: string; answer: string }>;  // dialogue turns, else []
      oldEvidence?: string | null;      // CHANGED: the old wording the old answer came from
      oldSnapshot?: string | null;      // CHANGED: the snapshot of that wording
    }
  | {
      kind: 'weekly';
      title: string; week: string; domain: string;
      question: string; answer: string;
      key: string;                      // the infobox key that changed
      infoboxBefore: Record<string, string>; infoboxAfter: Record<string, string>;   // values as people read them: entities by label
      keyLabels?: Record<string, string>;  // the labels of keys that are properties (`P1082` → `population`)
      firstParagraph: string;
      timeline: Array<{ from: string; value: string }>;   // the answer's timeline
      revisions?: RevisionLinks;
    }
  | {
      kind: 'prediction';
      question: string; date: string;   // the question and the date it was answered for
      prediction: string;               // a system's reply
      timeline: Array<{ from: string; to: string | null; value: string | null; seen: boolean }>;  // the answer's values up to the one in effect (last), as the judge read them
      judge: { name: string; mode: JudgeMode; verdict: JudgeVerdict; reason: string };  // the verdict checked (its reason is not shown)
    };

/**
 * The labels an annotator chooses from when an item's proposed label is wrong (the right one is
 * another), and the label proposed; none for kinds that take a right answer instead.
 */
export function labelChoices(content: AuditItemContent): { labels: readonly string[]; proposed: string } | null {
  if (content.kind === 'label') return { labels: LABELS, proposed: content.label };
  if (content.kind === 'prediction') return { labels: JUDGE_VERDICTS, proposed: content.judge.verdict };
  return null;
}

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

/** A link a page may carry: http or https only, never `javascript:`. */
const HttpUrl = z.string().regex(/^https?:\/\//i, 'not an http(s) URL');

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
    closestOld: z
      .object({
        measure: z.enum(['cosine', 'words']),
        embedder: z.string().nullable(),
        sentences: z.array(z.object({ text: z.string(), similarity: z.number() })),
      })
      .optional(),
    oldArticle: z.array(z.string()).nullable().optional(),
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
    oldEvidence: z.string().nullable().optional(),
    oldSnapshot: z.string().nullable().optional(),
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
    keyLabels: z.record(z.string(), z.string()).optional(),
    firstParagraph: z.string(),
    timeline: z.array(z.object({ from: z.string(), value: z.string() })),
    revisions: z
      .object({
        changedAt: z.string(),
        before: z.object({ revId: z.number().int(), url: HttpUrl }),
        after: z.object({ revId: z.number().int(), url: HttpUrl }),
        diff: HttpUrl,
      })
      .optional(),
  }),
  z.object({
    kind: z.literal('prediction'),
    question: z.string(),
    date: z.string(),
    prediction: z.string(),
    timeline: z.array(z.object({ from: z.string(), to: z.string().nullable(), value: z.string().nullable(), seen: z.boolean() })),
    judge: z.object({ name: z.string(), mode: z.enum(JUDGE_MODES), verdict: z.enum(JUDGE_VERDICTS), reason: z.string() }),
  }),
]) satisfies z.ZodType<AuditItemContent>;


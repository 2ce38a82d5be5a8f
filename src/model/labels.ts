/**
 * Snapshots and sentence labels (docs/ARCHITECTURE.md §7.1, §7.3): what a snapshot is, its
 * articles, the pairing of two snapshots' articles and each stored sentence label.
 */
import type { Result } from '../result.js';
import type { Usage } from './llmUsage.js';

export type SentenceLabelName = 'unchanged' | 'changed' | 'new' | 'undecided';
export type LabelName = SentenceLabelName | 'deleted';

/** How a label was reached, for auditing. */
export type LabelStep = 'exact' | 'moved' | 'lexical' | 'near-duplicate' | 'span' | 'nli' | 'llm' | 'no-counterpart' | 'new-article';

export interface SnapshotRecord {
  name: string;
  wiki: string;
  source: string;
  asOf: string | null;
}

export interface StoredArticle {
  pageId: number;
  title: string;
  revId: number;
  timestamp: string;
}

/** An old and a new article taken as versions of one another; old null when the article is new. */
export interface ArticlePair {
  newArticle: StoredArticle;
  oldArticle: StoredArticle | null;
}

export interface StoredLabel {
  title: string;
  side: 'new' | 'old';
  index: number;
  text: string;
  label: LabelName;
  oldIndices: number[];
  oldText: string | null;
  similarity: number | null;
  backend: string;
  step: LabelStep;
  /** Why, for labels past the similarity rules (facts that differ, the LLM's verdict and reason); null otherwise. */
  evidence: string | null;
}

export interface SentenceChangeRequest {
  oldSentence: string;
  newSentence: string;
  /** What the rules found, e.g. "facts differ: number:3 → number:4", shown to the model. */
  facts: string;
}

/** `keep`: no judgement was made (offline), the models' label stands. */
export interface SentenceChange {
  verdict: 'same' | 'changed' | 'new' | 'keep';
  reason: string;
}

/**
 * The labeling step after NLI as the labeler sees it (docs/ARCHITECTURE.md §7.3): defined here, below
 * both, so that the labeler needs no LLM code; `LabelTasks` in src/llm/labelTasks.ts is one.
 */
export interface SentenceChangeJudge {
  readonly provider: string;
  readonly model: string;
  judgeSentenceChange(request: SentenceChangeRequest): Promise<Result<SentenceChange> & { prompt: { name: string; version: string } }>;
  takeUsage(): Usage;
}

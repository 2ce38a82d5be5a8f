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

/** A sentence of a snapshot's article, as the one sentence cut numbers it (src/text/articleText.ts). */
export interface ArticleSentence {
  /** Position of the sentence in the whole article, from 0: the index used everywhere. */
  index: number;
  /** Position of its paragraph in the article, from 0. */
  paragraph: number;
  text: string;
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

/** Probabilities (or heuristic scores) of the three NLI classes; they sum to 1 (docs/ARCHITECTURE.md §11). */
export interface NliScores {
  entailment: number;
  neutral: number;
  contradiction: number;
}

/** The labeler's verdict on one sentence of the new version (docs/ARCHITECTURE.md §7.3), as the store keeps it. */
export interface SentenceLabel {
  newIndex: number;
  label: SentenceLabelName;
  /** The old sentence(s) it corresponds to: one, or a span for splits and merges; empty for new ones. */
  oldIndices: number[];
  /** Cosine of the deciding comparison (1 for equal text), null when no model compared it. */
  similarity: number | null;
  /** NLI scores of the deciding pair (premise old, hypothesis new), when NLI decided. */
  nli: NliScores | null;
  step: LabelStep;
  /** The backends that decided, joined with "+", e.g. "hash", "use-lite+heuristic-nli". */
  backend: string;
  /** Why, in words, for labels past the similarity rules: the facts that differ, the judge's verdict and reason (or that none was asked). */
  evidence: string | null;
}

/** One article's labels: what the label stage stores in one transaction. */
export interface ArticleLabels {
  sentences: SentenceLabel[];
  /** Old sentence indices that nothing in the new version corresponds to. */
  deleted: number[];
  /** Model work spent on this article: texts sent to the embedder and pairs sent to NLI. */
  work: { embedded: number; nliPairs: number };
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
